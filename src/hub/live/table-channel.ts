import type { WebSocket } from 'ws';
import type { LiveMessage } from './live-message.ts';

/**
 * One table's live stream inside one hub process: the viewers watching it here, and the last
 * `hello` and frame (with its state) so a viewer who arrives sees the table at once. Every
 * message goes to every viewer unchanged; a viewer whose socket is backed up misses whole frames
 * (the picture and its state together) rather than queueing them without bound.
 */

interface Viewer {
  /** The frame before was skipped for this viewer: skip its state too. */
  skipping: boolean;
}

export class TableChannel {
  private readonly viewers = new Map<WebSocket, Viewer>();
  private hello: LiveMessage | null = null;
  private frame: LiveMessage | null = null;
  private frameState: LiveMessage | null = null;
  /** Messages delivered, for the status page and the bench. */
  delivered = 0;
  lastMessageAt = 0;

  constructor(
    readonly tableId: string,
    private readonly maxBufferedBytes: number,
  ) {}

  get viewerCount(): number {
    return this.viewers.size;
  }

  get lastHello(): Buffer | null {
    return this.hello?.data ?? null;
  }

  get lastFrame(): Buffer | null {
    return this.frame?.data ?? null;
  }

  add(ws: WebSocket): void {
    this.viewers.set(ws, { skipping: false });
    if (this.hello) ws.send(this.hello.data, { binary: false });
    if (this.frame && this.frameState) {
      ws.send(this.frame.data, { binary: true });
      ws.send(this.frameState.data, { binary: false });
    }
  }

  remove(ws: WebSocket): void {
    this.viewers.delete(ws);
  }

  /** What a newcomer needs to see the table now: its hello, its latest frame and that frame's state. */
  current(): LiveMessage[] {
    return [
      ...(this.hello ? [this.hello] : []),
      ...(this.frame && this.frameState ? [this.frame, this.frameState] : []),
    ];
  }

  /** Remembers a `hello` known from elsewhere (the database) without sending it. */
  primeHello(data: Buffer): void {
    if (!this.hello) this.hello = { kind: 'hello', binary: false, data };
  }

  deliver(message: LiveMessage): void {
    this.lastMessageAt = Date.now();
    if (message.kind === 'hello') this.hello = message;
    else if (message.kind === 'frame') {
      this.frame = message;
      this.frameState = null;
    } else if (message.kind === 'state' && this.frame && !this.frameState) this.frameState = message;
    for (const [ws, viewer] of this.viewers) {
      if (ws.readyState !== ws.OPEN) continue;
      if (message.kind === 'frame') {
        viewer.skipping = ws.bufferedAmount > this.maxBufferedBytes;
        if (viewer.skipping) continue;
      } else if (message.kind === 'state' && viewer.skipping) {
        viewer.skipping = false;
        continue;
      }
      ws.send(message.data, { binary: message.binary });
      this.delivered++;
    }
  }

  closeAll(code: number, reason: string): void {
    for (const ws of this.viewers.keys()) ws.close(code, reason);
    this.viewers.clear();
  }
}
