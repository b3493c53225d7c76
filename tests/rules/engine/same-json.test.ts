import { describe, expect, it } from 'vitest';
import { benchScenario, rng } from '../../../bench/rules-scenario.ts';
import { sameJson } from '../../../src/rules/engine/same-json.ts';
import { buildTableState } from '../../../src/table/table-state.ts';
import { randomTable } from '../black-powder/random-table.ts';

const SKIP = new Set(['body', 'bodyPolygons', 'allPolygons', 'leaderBase']);

/** The truth: both printed, the skipped keys left out at the top level. */
const printedEqual = (a: unknown, b: unknown, skip?: ReadonlySet<string>): boolean => {
  const p = (v: unknown) => {
    if (!skip || v === null || typeof v !== 'object' || Array.isArray(v)) return JSON.stringify(v);
    const top: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!skip.has(k)) top[k] = x;
    return JSON.stringify(top);
  };
  return p(a) === p(b);
};

/** How the all-pairs update printed a unit before: the skipped keys dropped wherever they occur. */
const unitPrintsEqual = (a: unknown, b: unknown): boolean => {
  const p = (v: unknown) => JSON.stringify(v, (k, x: unknown) => (SKIP.has(k) ? undefined : x));
  return p(a) === p(b);
};

/** A random plain value: numbers (−0, NaN, ±Infinity among them), strings, flags, null, undefined, arrays, objects. */
function value(r: () => number, depth: number): unknown {
  const u = r();
  if (depth <= 0 || u < 0.45) {
    const pick = Math.floor(r() * 11);
    return [0, -0, 1.5, 2, NaN, Infinity, 'a', 'b', true, null, undefined][pick];
  }
  if (u < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth - 1));
  const o: Record<string, unknown> = {};
  for (const k of ['x', 'y', 'body', 'name', 'f'].slice(0, 1 + Math.floor(r() * 5)))
    o[k] = value(r, depth - 1);
  if (r() < 0.1) o.fn = () => 1;
  return o;
}

/** A copy of v with one random change (or none): a leaf replaced, a key added, removed or moved. */
function mutate(v: unknown, r: () => number): unknown {
  if (v === null || typeof v !== 'object') return r() < 0.5 ? v : value(r, 0);
  if (Array.isArray(v)) {
    const c = [...v];
    if (c.length > 0 && r() < 0.7) {
      const i = Math.floor(r() * c.length);
      c[i] = mutate(c[i], r);
    } else if (r() < 0.5) c.push(value(r, 1));
    return c;
  }
  const o = { ...(v as Record<string, unknown>) };
  const keys = Object.keys(o);
  const w = r();
  if (keys.length > 0 && w < 0.6) {
    const k = keys[Math.floor(r() * keys.length)] as string;
    o[k] = mutate(o[k], r);
    return o;
  }
  if (keys.length > 1 && w < 0.75) {
    // The same keys in another order.
    const [first, ...rest] = keys as [string, ...string[]];
    const moved: Record<string, unknown> = {};
    for (const k of rest) moved[k] = o[k];
    moved[first] = o[first];
    return moved;
  }
  if (keys.length > 0 && w < 0.9) {
    delete o[keys[0] as string];
    return o;
  }
  o[r() < 0.5 ? 'extra' : 'body'] = value(r, 1);
  return o;
}

describe('sameJson: equal prints without printing', () => {
  it('says equal exactly when the JSON texts are, on 20,000 random values and one-change copies', () => {
    const r = rng(97);
    let equal = 0;
    let differ = 0;
    for (let i = 0; i < 20_000; i++) {
      const a = value(r, 3);
      const b = mutate(a, r);
      const skip = i % 2 === 0 ? SKIP : undefined;
      const truth = printedEqual(a, b, skip);
      expect(sameJson(a, b, skip), `case ${i}: ${JSON.stringify(a)} / ${JSON.stringify(b)}`).toBe(truth);
      if (truth) equal++;
      else differ++;
    }
    expect(equal).toBeGreaterThan(3000);
    expect(differ).toBeGreaterThan(3000);
  });

  it('on table units: equal to itself rebuilt, different after any base moves or the unit changes, as printing says', () => {
    const tables = [buildTableState(benchScenario()), randomTable(3, 20), randomTable(8, 20)];
    const again = [buildTableState(benchScenario()), randomTable(3, 20), randomTable(8, 20)];
    const r = rng(41);
    let changed = 0;
    tables.forEach((t, ti) =>
      t.units.forEach((u, ui) => {
        const v = again[ti]?.units[ui];
        expect(sameJson(u, v, SKIP)).toBe(true);
        const w = mutate(u, r);
        const truth = unitPrintsEqual(u, w);
        expect(printedEqual(u, w, SKIP)).toBe(truth);
        expect(sameJson(u, w, SKIP)).toBe(truth);
        if (!truth) changed++;
      }),
    );
    expect(changed).toBeGreaterThan(20);
  });
});
