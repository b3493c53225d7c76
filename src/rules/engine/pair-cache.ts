import { LookRecord, lookRecordActive, noteRecord, withLookRecord } from '../../geometry/look-record.ts';
import type { Box } from '../../geometry/box.ts';
import type { TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { RulesContext } from './ruleset.ts';
import type { OptionValue } from './verdict.ts';

/**
 * Per-table results about one pair of units (a shooter's assessment of a target, say) that many
 * questions reuse: "can A shoot B?" assesses A against every enemy for target priority, so the
 * all-pairs table would assess each pair some thirty times over.
 *
 * Off unless a cache is active (`withPairCache`): one-off questions keep nothing. A result is
 * reused only for the table the cache is bound to and under the same options and policy (the
 * context's contents, compared by their text once per context object), so callers see no
 * difference but speed. Where the geometry looked while computing a result (look-record.ts) is
 * kept with it and noted again on every reuse, so a question that reuses a result records the
 * same looks as one that computed it.
 */
interface Entry {
  readonly value: unknown;
  readonly look: LookRecord | undefined;
  /** The look's outer bounds (NaN without a look): read with the entry, not from the record. */
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  /** The units the result is about (it changes when either moves). */
  readonly units: readonly string[];
  /** The same units as small numbers (idKey), the first two in fields: what an update compares. */
  readonly unit0: number;
  readonly unit1: number;
}

/** Small numbers for unit ids (an update compares them with the moved units' for every entry). */
const idKeys = new Map<string, number>();
function idKey(id: string): number {
  let k = idKeys.get(id);
  if (k === undefined) {
    k = idKeys.size;
    idKeys.set(id, k);
  }
  return k;
}

export class PairCache {
  private entries = new Map<string, Entry>();
  private boundTo: TableState | undefined;
  /** The bound table's units (a result is kept only about these very objects). */
  private members = new Set<TableUnit>();
  hits = 0;
  misses = 0;

  /** The table results are about. */
  get state(): TableState | undefined {
    return this.boundTo;
  }

  /**
   * Binds the cache to a new table, keeping the results `keep` accepts (by the units each is
   * about and where it looked; the look is undefined when none was recorded) and forgetting
   * the rest.
   */
  rebase(state: TableState, keep: (units: readonly string[], look: LookRecord | undefined) => boolean): void {
    if (state === this.boundTo) return;
    for (const [k, e] of this.entries) if (!keep(e.units, e.look)) this.entries.delete(k);
    this.bind(state);
  }

  /**
   * `rebase` for an update after the units `movedIds` moved: a result is kept when it has a look,
   * is about none of them, and its look misses the moved boxes (their union `union` first, on
   * the bounds kept with each entry; then `touched`, for looks whose bounds meet it). The same
   * results as `rebase` with that rule written as its `keep`.
   */
  rebaseAfterMoves(
    state: TableState,
    movedIds: readonly string[],
    union: Box,
    touched: (look: LookRecord) => boolean,
  ): void {
    if (state === this.boundTo) return;
    const moved = movedIds.map(idKey);
    for (const [k, e] of this.entries) {
      let keep = e.look !== undefined;
      for (let m = 0; keep && m < moved.length; m++) {
        const u = moved[m] as number;
        if (e.unit0 === u || e.unit1 === u) keep = false;
      }
      // Results about more than two units (none in Black Powder today) compare the rest by id.
      for (let i = 2; keep && i < e.units.length; i++)
        if (movedIds.includes(e.units[i] as string)) keep = false;
      if (
        keep &&
        union.minX <= e.maxX &&
        e.minX <= union.maxX &&
        union.minY <= e.maxY &&
        e.minY <= union.maxY
      )
        keep = !touched(e.look as LookRecord);
      if (!keep) this.entries.delete(k);
    }
    this.bind(state);
  }

  private bind(state: TableState): void {
    this.boundTo = state;
    this.members = new Set(state.units);
  }

  /** Whether every unit given is the bound table's own. */
  holds(...units: readonly TableUnit[]): boolean {
    return units.every((u) => this.members.has(u));
  }

  /** Forgets everything and binds to `state`. */
  reset(state: TableState): void {
    this.entries.clear();
    this.bind(state);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The remembered result, or computes and keeps it (with its looks when a record is active).
   * `keep` false: computed but not kept when not remembered (its looks noted where it runs, as
   * keeping them and noting them after notes the same shapes).
   */
  get<T>(key: string, units: readonly string[], compute: () => T, keep = true): T {
    const e = this.entries.get(key);
    if (e) {
      this.hits++;
      if (e.look) noteRecord(e.look);
      return e.value as T;
    }
    this.misses++;
    if (!keep) return compute();
    let look: LookRecord | undefined;
    let value: T;
    if (lookRecordActive()) {
      look = new LookRecord();
      value = withLookRecord(look, compute);
      noteRecord(look);
    } else value = compute();
    this.entries.set(key, {
      value,
      look,
      minX: look ? look.minX : NaN,
      minY: look ? look.minY : NaN,
      maxX: look ? look.maxX : NaN,
      maxY: look ? look.maxY : NaN,
      units,
      unit0: units.length > 0 ? idKey(units[0] as string) : -1,
      unit1: units.length > 1 ? idKey(units[1] as string) : -1,
    });
    return value;
  }
}

let active: PairCache | undefined;

/** Runs `fn` with `cache` remembering pair results (nesting restores the outer one). */
export function withPairCache<T>(cache: PairCache, fn: () => T): T {
  const outer = active;
  active = cache;
  try {
    return fn();
  } finally {
    active = outer;
  }
}

/** A short id for the text of a context's options and policy, worked out once per context object. */
const signatures = new WeakMap<object, number>();
const signatureIds = new Map<string, number>();
function signatureOf<O extends Record<string, OptionValue>>(ctx: RulesContext<O>): number {
  let id = signatures.get(ctx);
  if (id === undefined) {
    const text = JSON.stringify([ctx.options, ctx.policy]);
    id = signatureIds.get(text);
    if (id === undefined) {
      id = signatureIds.size;
      signatureIds.set(text, id);
    }
    signatures.set(ctx, id);
  }
  return id;
}

/**
 * `compute()` for the pair (a, b) of `ctx`'s table under `ctx`, remembered by `what` when a cache
 * bound to this table is active. The result must depend only on the table, the context's options
 * and policy, and the two units; callers must not mutate it.
 */
export function pairCached<T, O extends Record<string, OptionValue>>(
  ctx: RulesContext<O>,
  what: string,
  a: TableUnit,
  b: TableUnit,
  compute: () => T,
): T {
  const cache = active;
  if (!cache || cache.state !== ctx.state || !cache.holds(a, b)) return compute();
  return cache.get(`${what}\u0000${a.id}\u0000${b.id}\u0000${signatureOf(ctx)}`, [a.id, b.id], compute);
}

/**
 * `compute()` remembered under `key` (which must hold everything the result depends on besides
 * the table's own units in `about`, the table, the context's options and policy) when a cache
 * bound to `ctx`'s table is active. `about` are the units whose moving changes the result without
 * showing in its looks (those it is about), and `also` ids of units the key names; the result is
 * dropped when any of them moves. `keep` false: reused when remembered, not kept when computed.
 */
export function tableCached<T, O extends Record<string, OptionValue>>(
  ctx: RulesContext<O>,
  key: string,
  about: readonly TableUnit[],
  also: readonly string[],
  compute: () => T,
  keep = true,
): T {
  const cache = active;
  if (!cache || cache.state !== ctx.state || !cache.holds(...about)) return compute();
  const ids = [...about.map((u) => u.id), ...also];
  return cache.get(`${key}\u0000${ids.join('\u0000')}\u0000${signatureOf(ctx)}`, ids, compute, keep);
}
