/**
 * A memo for polygon booleans: the same operation on the same (snapped) rings gives the same
 * rings, so a caller that asks many overlapping questions about one table (every ordered pair,
 * three questions each, then again after one unit moved) can keep the results and skip the
 * sweep line. polyclip-ts is deterministic, so a remembered answer is bit for bit the answer
 * the operation would give again: callers see no difference but speed.
 *
 * Keys are exact: a short text (the operation, ids) and the numbers the result depends on,
 * compared number for number. They are found by a hash of both, so no coordinate is ever
 * written out as text (that cost more than many of the booleans it saved).
 *
 * Off unless a memo is made active (`withBooleanMemo`): one-off questions keep nothing.
 */
export type Ring = [number, number][];

/** An exact key: a text and a list of numbers (length-prefixed where their structure varies). */
export class MemoKey {
  private readonly nums: Float64Array;
  readonly hash: number;

  constructor(
    readonly text: string,
    numbers: readonly number[] | Float64Array,
  ) {
    this.nums = numbers instanceof Float64Array ? numbers : Float64Array.from(numbers);
    this.hash = hashOf(text, this.nums);
  }

  equals(o: MemoKey): boolean {
    if (o.hash !== this.hash || o.text !== this.text) return false;
    const a = this.nums;
    const b = o.nums;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** FNV-style mix of the text's characters and the numbers' bits (−0 hashed as 0, as they compare equal). */
function hashOf(text: string, nums: Float64Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  for (let i = 0; i < nums.length; i++) {
    const v = nums[i] as number;
    f64[0] = v === 0 ? 0 : v;
    h = Math.imul(h ^ (u32[0] as number), 0x01000193);
    h = Math.imul(h ^ (u32[1] as number), 0x01000193);
  }
  return h >>> 0;
}

interface Entry {
  readonly key: MemoKey;
  readonly value: unknown;
  /** Read or written since the last sweep. */
  live: boolean;
}

export class BooleanMemo {
  private buckets = new Map<number, Entry[]>();
  private count = 0;
  hits = 0;
  misses = 0;

  /** The remembered result for `key`, or computes, keeps and returns it. */
  get<T>(key: MemoKey, compute: () => T): T {
    let bucket = this.buckets.get(key.hash);
    if (bucket)
      for (const e of bucket)
        if (e.key.equals(key)) {
          this.hits++;
          e.live = true;
          return e.value as T;
        }
    this.misses++;
    const value = compute();
    if (!bucket) this.buckets.set(key.hash, (bucket = []));
    bucket.push({ key, value, live: true });
    this.count++;
    return value;
  }

  /** Forgets every entry not used since the last sweep (a table's pieces that moved away). */
  sweep(): void {
    for (const [h, bucket] of this.buckets) {
      const kept = bucket.filter((e) => e.live);
      for (const e of kept) e.live = false;
      this.count -= bucket.length - kept.length;
      if (kept.length === 0) this.buckets.delete(h);
      else this.buckets.set(h, kept);
    }
  }

  get size(): number {
    return this.count;
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

/** The exact key of an operation's inputs (coordinates already on the snapping grid), length-prefixed. */
function keyOf(op: string, inputs: readonly (readonly Ring[][])[]): MemoKey {
  const nums: number[] = [inputs.length];
  for (const region of inputs) {
    nums.push(region.length);
    for (const poly of region) {
      nums.push(poly.length);
      for (const ring of poly) {
        nums.push(ring.length);
        for (const p of ring) nums.push(p[0], p[1]);
      }
    }
  }
  return new MemoKey(op, nums);
}

/** Whether a memo is active (callers skip building keys when none is). */
export const memoActive = (): boolean => active !== undefined;

/** `compute()` remembered under an exact key of everything it depends on, when a memo is active. */
export function rememberedBy<T>(key: MemoKey, compute: () => T): T {
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
