/** Lists up to this long are sorted by insertion here; longer ones by Array.prototype.sort. */
const SHORT = 16;

/**
 * Sorts `list` in place by `compare` into the order Array.prototype.sort gives (a stable sort:
 * with a consistent comparison, one order only). Short lists, most of those sorted per pair (a
 * sight's two excluded units, its hiders by share, a shadow's hull points), by insertion: the
 * native sort copied every list into a work array first, several megabytes a fresh all-pairs run.
 */
export function sortStable<T>(list: T[], compare: (a: T, b: T) => number): T[] {
  const n = list.length;
  if (n > SHORT) return list.sort(compare);
  for (let i = 1; i < n; i++) {
    const v = list[i] as T;
    let j = i - 1;
    while (j >= 0 && compare(list[j] as T, v) > 0) {
      list[j + 1] = list[j] as T;
      j--;
    }
    list[j + 1] = v;
  }
  return list;
}

/** The default sort's comparison for strings (UTF-16 code units). */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : b < a ? 1 : 0);
