/** Scratch for merging runs (grown as needed, kept between calls). */
let scratch = new Float64Array(256);

/** Values sorted in runs of this many by insertion before merging. */
const RUN = 16;

/**
 * Sorts `values[0 … n)` ascending in place, stably: the order `Array.prototype.sort((p, q) =>
 * p − q)` gives finite numbers (−0 and 0 tie and keep their order). Insertion sort of short runs,
 * then merges; a later value moves before an earlier one only when strictly less. No comparator
 * calls and no garbage: the slab sweep sorts its slab boundaries tens of thousands of times a table.
 */
export function sortAscending(values: Float64Array, n: number): void {
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(n, lo + RUN);
    for (let i = lo + 1; i < hi; i++) {
      const v = values[i] as number;
      let j = i - 1;
      while (j >= lo && (values[j] as number) > v) {
        values[j + 1] = values[j] as number;
        j--;
      }
      values[j + 1] = v;
    }
  }
  if (n <= RUN) return;
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, 2 * scratch.length));
  let src: Float64Array = values;
  let dst: Float64Array = scratch;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi)
        dst[k++] = (src[j] as number) < (src[i] as number) ? (src[j++] as number) : (src[i++] as number);
      while (i < mid) dst[k++] = src[i++] as number;
      while (j < hi) dst[k++] = src[j++] as number;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== values) values.set(src.subarray(0, n));
}
