/**
 * Sorts `values[0 … n)` ascending in place, in the order `Array.prototype.sort((p, q) => p − q)`
 * (a stable sort) gives: by the typed array's own numeric sort, which needs no comparator calls
 * and no garbage (the slab sweep sorts its boundaries tens of thousands of times a table) and is
 * native from the first call (a sort written in JavaScript ran interpreted the first time a
 * large sweep came, holding a cold server's event loop ~50 ms). That sort puts −0 before 0 where
 * a stable sort keeps their order, so the zeros' signs are put back as they came; NaN (never a
 * slab boundary) falls back to the comparator sort, which places it as it always did.
 */
/** Lists up to this long are sorted by insertion. */
const SHORT = 48;

export function sortAscending(values: Float64Array, n: number): void {
  let zeros = 0;
  let negativeZero = false;
  let positiveZero = false;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (v !== v) {
      const plain = Array.from(values.subarray(0, n)).sort((p, q) => p - q);
      values.set(plain);
      return;
    }
    if (v === 0) {
      zeros++;
      if (Object.is(v, -0)) negativeZero = true;
      else positiveZero = true;
    }
  }
  if (n <= SHORT) {
    // A short list by insertion: stable (equal numbers, −0 and 0 among them, keep their order)
    // and no call out to the native sort nor a subarray made for it (most sweeps' boundaries).
    for (let i = 1; i < n; i++) {
      const v = values[i] as number;
      let j = i - 1;
      while (j >= 0 && (values[j] as number) > v) {
        values[j + 1] = values[j] as number;
        j--;
      }
      values[j + 1] = v;
    }
    return;
  }
  // Both signs of zero: their order as they came (a stable sort ties them).
  let signs: boolean[] | undefined;
  if (negativeZero && positiveZero) {
    signs = [];
    for (let i = 0; i < n; i++) if (values[i] === 0) signs.push(Object.is(values[i], -0));
  }
  values.subarray(0, n).sort();
  if (!signs) return;
  let first = 0;
  while ((values[first] as number) < 0) first++;
  for (let k = 0; k < zeros; k++) values[first + k] = signs[k] ? -0 : 0;
}
