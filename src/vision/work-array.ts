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
type WorkArrayType = Float64Array | Int32Array | Int16Array | Uint32Array;

export class WorkArray<T extends WorkArrayType> {
  private buffer: T;

  /**
   * @param Kind the typed array to make (Float64Array, Int32Array …).
   * @param keepAtMost arrays longer than this many elements are made fresh each time, not kept (a rare huge quad).
   */
  constructor(
    private readonly Kind: new (length: number) => T,
    private readonly keepAtMost = 1 << 20,
  ) {
    this.buffer = new Kind(0);
  }

  take(n: number): T {
    if (n > this.keepAtMost) return new this.Kind(n);
    if (this.buffer.length < n)
      this.buffer = new this.Kind(Math.min(this.keepAtMost, Math.max(n, 2 * this.buffer.length)));
    const view = this.buffer.subarray(0, n) as T;
    view.fill(0);
    return view;
  }
}
