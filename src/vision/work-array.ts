/**
 * A work array reused from call to call, for the decode path's per-quad scratch (the aligner's
 * Jacobian, the pixel box): every typed array of more than a few elements has a backing store
 * of its own outside the JavaScript heap, and making several per quad, dozens of quads per frame,
 * kept the vision worker's garbage collector busy (live MJPEG bench, unit moving: ≈ 3 MB a frame,
 * a full collection every few frames).
 *
 * `take(n)` returns the first n elements, zeroed, as a fresh array would be: callers that need
 * the values after the next `take` of the same work array must copy them. Each user owns its own
 * WorkArray (one per purpose and module; the vision code runs one frame at a time per thread).
 */
abstract class WorkArray<T extends Float64Array | Int32Array | Int16Array | Uint32Array> {
  private buffer: T;

  /** Arrays longer than `keepAtMost` elements are made fresh each time, not kept (a rare huge quad). */
  constructor(private readonly keepAtMost = 1 << 20) {
    this.buffer = this.make(0);
  }

  protected abstract make(length: number): T;

  take(n: number): T {
    if (n > this.keepAtMost) return this.make(n);
    if (this.buffer.length < n)
      this.buffer = this.make(Math.min(this.keepAtMost, Math.max(n, 2 * this.buffer.length)));
    const view = this.buffer.subarray(0, n) as T;
    view.fill(0);
    return view;
  }
}

export class Float64WorkArray extends WorkArray<Float64Array> {
  protected make(length: number): Float64Array {
    return new Float64Array(length);
  }
}

export class Int32WorkArray extends WorkArray<Int32Array> {
  protected make(length: number): Int32Array {
    return new Int32Array(length);
  }
}

export class Int16WorkArray extends WorkArray<Int16Array> {
  protected make(length: number): Int16Array {
    return new Int16Array(length);
  }
}

export class Uint32WorkArray extends WorkArray<Uint32Array> {
  protected make(length: number): Uint32Array {
    return new Uint32Array(length);
  }
}
