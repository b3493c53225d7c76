import type { StateMessage } from '../../../src/server/protocol.ts';

/**
 * Pairs each JPEG frame with the state message computed from it, and decodes frames without
 * letting them pile up. The server sends a frame's JPEG (binary) first and then its state, so a
 * state belongs to the binary message received just before it. One decode runs at a time; a frame
 * that arrives meanwhile waits, and a newer one replaces it (the older is dropped). A frame is
 * presented only when both its picture and its state are in, and never after a newer one.
 */

export interface Closable {
  close(): void;
}

export interface PresentedFrame<B extends Closable> {
  readonly seq: number;
  readonly picture: B;
  readonly state: StateMessage;
}

export interface FrameSyncStats {
  readonly received: number;
  readonly dropped: number;
  readonly presented: number;
  readonly decodeErrors: number;
}

interface Slot<B> {
  readonly seq: number;
  readonly data: ArrayBuffer;
  picture: B | null;
  state: StateMessage | null;
  dropped: boolean;
}

export class FrameSync<B extends Closable> {
  private seq = 0;
  private latest: Slot<B> | null = null;
  private decoding: Slot<B> | null = null;
  private waiting: Slot<B> | null = null;
  /** Decoded slots still waiting for their state message. */
  private decoded: Slot<B>[] = [];
  private presentedSeq = 0;
  private counts = { received: 0, dropped: 0, presented: 0, decodeErrors: 0 };

  constructor(
    private readonly decode: (jpeg: ArrayBuffer) => Promise<B>,
    private readonly present: (frame: PresentedFrame<B>) => void,
  ) {}

  get stats(): FrameSyncStats {
    return { ...this.counts };
  }

  pushFrame(data: ArrayBuffer): void {
    this.counts.received += 1;
    const slot: Slot<B> = { seq: ++this.seq, data, picture: null, state: null, dropped: false };
    this.latest = slot;
    if (this.decoding) {
      if (this.waiting) this.drop(this.waiting);
      this.waiting = slot;
    } else this.startDecode(slot);
  }

  /**
   * Attaches a state to the frame received just before it. Returns false when the state has no
   * frame of its own (no binary since the previous state): the caller may still use it for text.
   */
  pushState(state: StateMessage): boolean {
    const slot = this.latest;
    if (!slot || slot.state) return false;
    slot.state = state;
    this.maybePresent(slot);
    return true;
  }

  /** Forgets everything in flight (after a reconnect the next messages start a new stream). */
  reset(): void {
    for (const slot of [this.latest, this.decoding, this.waiting, ...this.decoded])
      if (slot && slot.seq > this.presentedSeq) this.drop(slot);
    this.latest = null;
    this.waiting = null;
    this.decoded = [];
  }

  private drop(slot: Slot<B>): void {
    if (slot.dropped) return;
    slot.dropped = true;
    this.counts.dropped += 1;
    slot.picture?.close();
    slot.picture = null;
  }

  private startDecode(slot: Slot<B>): void {
    this.decoding = slot;
    this.decode(slot.data).then(
      (picture) => {
        if (slot.dropped) picture.close();
        else {
          slot.picture = picture;
          this.maybePresent(slot);
        }
        this.decodeDone();
      },
      () => {
        this.counts.decodeErrors += 1;
        this.drop(slot);
        this.decodeDone();
      },
    );
  }

  private decodeDone(): void {
    this.decoding = null;
    const next = this.waiting;
    this.waiting = null;
    if (next && !next.dropped) this.startDecode(next);
  }

  private maybePresent(slot: Slot<B>): void {
    if (slot.dropped || !slot.picture) return;
    if (slot.seq <= this.presentedSeq) {
      this.drop(slot);
      return;
    }
    if (!slot.state) {
      this.decoded.push(slot);
      return;
    }
    this.presentedSeq = slot.seq;
    this.counts.presented += 1;
    const picture = slot.picture;
    slot.picture = null; // ownership passes to the caller
    this.decoded = this.decoded.filter((s) => {
      if (s === slot) return false;
      if (s.seq < slot.seq) {
        this.drop(s);
        return false;
      }
      return true;
    });
    this.present({ seq: slot.seq, picture, state: slot.state });
  }
}
