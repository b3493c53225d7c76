import { holds, type Comparison } from './threshold.ts';

/**
 * How far the part of the table that decides a share must move for the answer to change, when no
 * formula gives it (half a target visible, half inside a quarter): the share is recomputed with
 * that part displaced one band either way; a displacement that changes the answer is narrowed
 * down by bisection (the answer is then too close to call). When neither does, the move is read
 * off the slope the two probes show (never less than the band), or is unbounded when the share
 * did not move at all (`lowerBound`: nothing near enough to change it).
 */
export interface ProbeResult {
  readonly moveMm: number;
  /** True when nothing within the probes changes the answer and the slope was flat. */
  readonly lowerBound: boolean;
}

/** Halvings of the band when narrowing a move down: to 1/64 of the band, finer than any base is placed. */
const BISECTIONS = 6;

export function probeMove(
  valueAt: (offsetMm: number) => number,
  value0: number,
  comparison: Comparison,
  limit: number,
  bandMm: number,
  steps = 1,
): ProbeResult {
  if (!(bandMm > 0)) return { moveMm: Infinity, lowerBound: true };
  const lean0 = holds(value0 - limit, comparison, limit);
  const changes = (v: number): boolean => holds(v - limit, comparison, limit) !== lean0;
  let slope = 0;
  for (const sign of [1, -1]) {
    // `steps` displacements out to the band each way: a value that rises and falls again within
    // it (a share seen through a gap the target slides past) can cross the limit between.
    const r = firstChange((o) => valueAt(sign * o), changes, bandMm, steps, BISECTIONS);
    if (r.found) return { moveMm: r.offsetMm, lowerBound: false };
    // Only a change toward the limit says how soon it could be reached.
    if ((r.last - value0) * (limit - value0) > 0) slope = Math.max(slope, Math.abs(r.last - value0) / bandMm);
  }
  if (slope === 0) return { moveMm: Infinity, lowerBound: true };
  return { moveMm: Math.max(bandMm, Math.abs(limit - value0) / slope), lowerBound: false };
}

/**
 * The least offset (0, `mostMm`] at which `changes` holds of `valueAt`: stepped out in `steps`
 * equal steps, the first that changes narrowed down by `halvings` bisections, with the value at
 * the offset found; or, when no step changes, the value at `mostMm`. Every probe of a move is
 * searched so (probeMove, and the readings that are not a number against a limit).
 */
export function firstChange<V>(
  valueAt: (offsetMm: number) => V,
  changes: (v: V) => boolean,
  mostMm: number,
  steps: number,
  halvings: number,
):
  | { readonly found: true; readonly offsetMm: number; readonly value: V }
  | { readonly found: false; readonly last: V } {
  let lo = 0;
  let last: V | undefined;
  for (let k = 1; k <= steps; k++) {
    const at = (mostMm * k) / steps;
    const v = valueAt(at);
    if (changes(v)) {
      let hi = at;
      let value = v;
      for (let i = 0; i < halvings; i++) {
        const mid = (lo + hi) / 2;
        const here = valueAt(mid);
        if (changes(here)) [hi, value] = [mid, here];
        else lo = mid;
      }
      return { found: true, offsetMm: hi, value };
    }
    lo = at;
    last = v;
  }
  return { found: false, last: last as V };
}

/**
 * A quantity whose move is found by probing along one or more directions: `at[k](offset)` is the
 * value with the deciding part moved `offset` mm along direction k. The nearest change wins.
 */
export function probedQuantity(
  value: number,
  unit: string,
  at: ReadonlyArray<(offsetMm: number) => number>,
  sigmaMm: number,
  comparison: Comparison,
  limit: number,
  bandMm: number,
  steps = 1,
): { value: number; unit: string; perMm: number; sigmaMm: number; moveMm: number } {
  let best: ProbeResult = { moveMm: Infinity, lowerBound: true };
  for (const f of at) {
    const r = probeMove(f, value, comparison, limit, bandMm, steps);
    if (r.moveMm < best.moveMm) best = r;
  }
  const margin = Math.abs(value - limit);
  return {
    value,
    unit,
    perMm: Number.isFinite(best.moveMm) && best.moveMm > 0 ? margin / best.moveMm : 0,
    sigmaMm,
    moveMm: best.moveMm,
  };
}
