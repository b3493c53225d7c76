/**
 * A memo for polygon booleans: the same operation on the same (snapped) rings gives the same
 * rings, so a caller that asks many overlapping questions about one table (every ordered pair,
 * three questions each, then again after one unit moved) can keep the results and skip the
 * sweep line. polyclip-ts is deterministic, so a remembered answer is bit for bit the answer
 * the operation would give again: callers see no difference but speed.
 *
 * Off unless a memo is made active (`withBooleanMemo`): one-off questions keep nothing.
 */
export type Ring = [number, number][];

export class BooleanMemo {
  private entries = new Map<string, unknown>();
  /** Entries read or written since `sweep()` was last called. */
  private live = new Set<string>();
  hits = 0;
  misses = 0;

  /** The remembered result for `key`, or computes, keeps and returns it. */
  get<T>(key: string, compute: () => T): T {
    this.live.add(key);
    if (this.entries.has(key)) {
      this.hits++;
      return this.entries.get(key) as T;
    }
    this.misses++;
    const v = compute();
    this.entries.set(key, v);
    return v;
  }

  /** Forgets every entry not used since the last sweep (a table's pieces that moved away). */
  sweep(): void {
    for (const k of this.entries.keys()) if (!this.live.has(k)) this.entries.delete(k);
    this.live = new Set();
  }

  get size(): number {
    return this.entries.size;
  }
}

let active: BooleanMemo | undefined;

/** Runs `fn` with `memo` remembering every polygon boolean it asks for (nesting restores the outer one). */
export function withBooleanMemo<T>(memo: BooleanMemo, fn: () => T): T {
  const outer = active;
  active = memo;
  try {
    return fn();
  } finally {
    active = outer;
  }
}

/** Exact text of an operation's inputs: coordinates are already on the snapping grid. */
function keyOf(op: string, inputs: readonly (readonly Ring[][])[]): string {
  let s = op;
  for (const region of inputs) {
    s += '|';
    for (const poly of region) {
      s += ';';
      for (const ring of poly) {
        s += ':';
        for (const p of ring) s += `${p[0]},${p[1]} `;
      }
    }
  }
  return s;
}

/** Whether a memo is active (callers skip building keys when none is). */
export const memoActive = (): boolean => active !== undefined;

/** `compute()` remembered under an exact text of everything it depends on, when a memo is active. */
export function rememberedBy<T>(key: string, compute: () => T): T {
  if (!active) return compute();
  return active.get(key, compute);
}

/**
 * `compute()` for the operation `op` on these rings, remembered when a memo is active. The
 * result must not be mutated by callers (boolean.ts only reads it).
 */
export function remembered<T>(op: string, inputs: readonly (readonly Ring[][])[], compute: () => T): T {
  if (!active) return compute();
  return active.get(keyOf(op, inputs), compute);
}
