/**
 * A few frame-sized pixel buffers handed round instead of a fresh 6 MB one per frame (1080p RGB).
 * The buffers are plain ArrayBuffers owned by JavaScript, so the vision worker can take them by
 * transfer (a buffer made by sharp cannot be transferred, and postMessage then copies it twice)
 * and the live loop gives them back (`FrameSource.recycle`) when the frame is done with.
 */
export class PixelPool {
  private readonly free: ArrayBuffer[] = [];

  constructor(private readonly keep = 3) {}

  /** A buffer of exactly `bytes` bytes (contents undefined), reused when one is free. */
  take(bytes: number): Uint8Array {
    while (this.free.length > 0) {
      const buffer = this.free.pop()!;
      if (buffer.byteLength === bytes) return new Uint8Array(buffer);
    }
    return new Uint8Array(new ArrayBuffer(bytes));
  }

  /** Takes a buffer back if it is a whole, live ArrayBuffer (not detached, not a view into a larger one). */
  give(data: Uint8Array): void {
    const buffer = data.buffer;
    if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0) return;
    if (data.byteOffset !== 0 || data.byteLength !== buffer.byteLength) return;
    if (this.free.length < this.keep && !this.free.includes(buffer)) this.free.push(buffer);
  }
}
