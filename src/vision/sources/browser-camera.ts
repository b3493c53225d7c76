import { decodeCameraJpeg, jpegFrameSize } from './image-decoding.ts';
import type { Frame, FrameSource } from '../frame-source.ts';
import { SourceError } from './source-error.ts';

/**
 * A browser's own camera (getUserMedia on a phone or laptop), its JPEG frames arriving over the
 * WebSocket. Frames are decoded with sharp; while one decodes, only the newest waiting JPEG is
 * kept. `next()` resolves with the newest decoded frame (live source: older ones are dropped).
 */
export class BrowserCameraSource implements FrameSource {
  readonly live = true;
  private sequence = 0;
  private newest: Frame | null = null;
  private waiting: Array<{ resolve: (f: Frame) => void; reject: (e: Error) => void }> = [];
  private decoding = false;
  private queued: { jpeg: Buffer; at: number; from: string } | null = null;
  private closed = false;
  private sender: string | null = null;
  /** The sender went away while nobody was waiting: told to the next caller. */
  private lost: SourceError | null = null;
  /** Frames replaced by a newer one before anybody asked (see FrameSource.dropped). */
  dropped = 0;
  /** Frames refused (undecodable or of the wrong size). */
  refused = 0;
  /** Told (with the sending connection) why a frame was refused after decoding. */
  onRefused: ((connection: string, reason: string) => void) | null = null;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly name = 'browser camera',
  ) {}

  private refuse(connection: string | null, reason: string): void {
    this.refused++;
    if (connection) this.onRefused?.(connection, reason);
  }

  /** Which connection sends frames (one at a time); null when none does. */
  get connection(): string | null {
    return this.sender;
  }

  attach(connection: string): void {
    this.sender = connection;
    this.lost = null;
  }

  /**
   * The sending browser went away: waiting callers hear it, or else the next caller (the live loop
   * asks only when its pipeline is free); the next frame from a new sender resumes.
   */
  detach(connection: string): void {
    if (this.sender !== connection) return;
    this.sender = null;
    const err = new SourceError('the browser sending its camera disconnected');
    if (this.waiting.length > 0) this.fail(err);
    else this.lost = err;
  }

  /** One JPEG from the browser. Returns an error text when the frame is refused outright. */
  push(connection: string, jpeg: Buffer): string | null {
    if (this.closed) return 'the browser camera is closed';
    if (connection !== this.sender) return 'this connection is not the camera: send a "camera" message first';
    if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return 'a camera frame must be a JPEG';
    // Its header says its size: another size than announced (or a decompression bomb) is refused
    // here, before it can take a decoder's turn.
    const size = jpegFrameSize(jpeg);
    if (!size) return 'a camera frame must be a JPEG (this one has no frame header)';
    if (size.width !== this.width || size.height !== this.height)
      return `frame is ${size.width}×${size.height} but the camera was announced as ${this.width}×${this.height}: send a new "camera" message`;
    if (this.queued) this.dropped++;
    this.queued = { jpeg, at: Date.now(), from: connection };
    if (!this.decoding) void this.decodeLoop();
    return null;
  }

  private async decodeLoop(): Promise<void> {
    this.decoding = true;
    while (this.queued && !this.closed) {
      const { jpeg, at, from } = this.queued;
      this.queued = null;
      try {
        // Held to the announced size (checked from the header in push()), whatever the data says.
        const decoded = await decodeCameraJpeg(jpeg, this.width * this.height);
        if (decoded.width !== this.width || decoded.height !== this.height) {
          this.refuse(
            from,
            `frame decodes to ${decoded.width}×${decoded.height}, not the announced ${this.width}×${this.height}`,
          );
          continue;
        }
        const image = { ...decoded, channels: 3 as const };
        this.deliver({ image, capturedAt: at, sequence: this.sequence++, jpeg });
      } catch (err) {
        this.refuse(from, `cannot decode the frame: ${(err as Error).message}`);
      }
    }
    this.decoding = false;
    // The sender left while its last frame decoded (and was refused): the waiting caller hears it now.
    if (this.lost && this.waiting.length > 0) {
      this.fail(this.lost);
      this.lost = null;
    }
  }

  private deliver(frame: Frame): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(frame);
    else {
      if (this.newest) this.dropped++;
      this.newest = frame;
    }
  }

  private fail(err: Error): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w.reject(err);
  }

  next(): Promise<Frame> {
    if (this.closed) return Promise.reject(new SourceError('the browser camera is closed', true));
    const frame = this.newest;
    if (frame) {
      this.newest = null;
      return Promise.resolve(frame);
    }
    const lost = this.lost;
    if (lost && !this.decoding && !this.queued) {
      this.lost = null;
      return Promise.reject(lost);
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.fail(new SourceError('the browser camera is closed', true));
  }
}
