import { describe, expect, it } from 'vitest';
import { polygonSetSeparation } from '../../../src/geometry/distance.ts';
import { facedBoxPolygon } from '../../../src/geometry/faced-box.ts';
import { beyondEveryTurn } from '../../../src/rules/d3/charge-far.ts';
import { chargeVerdict, pivotFor, turnedBox } from '../../../src/rules/d3/charge.ts';
import { d3Context, mmOf, moveOf, type D3Context } from '../../../src/rules/d3/context.ts';
import { toLocal } from '../../../src/geometry/frame.ts';
import type { Vec2 } from '../../../src/geometry/vec.ts';
import type { TableUnit } from '../../../src/table/table-unit.ts';
import { DEFAULT_POLICY } from '../../../src/rules/engine/threshold.ts';
import { IN } from '../fixtures.ts';
import { d3Table } from './random-d3-table.ts';

/**
 * A D3 charge at a target beyond every turn and move, by more than any doubt could close, is
 * answered by its gap (charge-far.ts) without searching its best line. The truth is the full
 * search (`settleFar` false): on random tables, under both pivots, every charge must get the same
 * answer and lean, every charge not settled so the same verdict to the last word, and the early out
 * must have been taken often enough to mean something, on targets both just beyond its margin and
 * far off. Apart from the search, a brute-force turn-and-run shows no reachable target is settled.
 */

describe('D3 charges settled as far off', () => {
  it('answer every charge on random tables as the full search does, and the rest to the last word', () => {
    let settled = 0;
    let nearMargin = 0;
    let searched = 0;
    let close = 0;
    for (let seed = 11; seed <= 15; seed++) {
      const state = d3Table(seed, 8);
      for (const chargePivot of ['innerCorner', 'centre'] as const) {
        const ctx = d3Context(state, { chargePivot }, DEFAULT_POLICY);
        for (const c of state.units)
          for (const t of state.units) {
            if (c === t) continue;
            const fast = chargeVerdict(ctx, c, t);
            const full = chargeVerdict(ctx, c, t, false);
            expect([fast.answer, fast.lean]).toEqual([full.answer, full.lean]);
            if (full.answer === 'borderline') close++;
            const reach = fast.checks.find((v) => v.question === 'reach');
            if (!reach?.reasons.some((r) => r.includes('whatever stands in the way'))) {
              searched++;
              expect(fast).toEqual(full);
              continue;
            }
            settled++;
            // Settled as a firm no, and truly short: the full search's best line (when there is
            // one) is longer than the move by more than the band.
            expect(fast.answer).toBe('no');
            const fullReach = full.checks.find((v) => v.question === 'reach');
            expect(fullReach?.answer).toBe('no');
            const straightIn = full.facts.straightIn;
            if (typeof straightIn === 'number') expect(straightIn).toBeGreaterThan(moveOf(c));
            const gap = polygonSetSeparation([facedBoxPolygon(c.box)], t.bodyPolygons).distance;
            expect(reach.value).toBeCloseTo(gap / IN, 9);
            if (gap < mmOf(moveOf(c)) + 8 * IN) nearMargin++;
          }
      }
    }
    expect(settled).toBeGreaterThan(150);
    expect(nearMargin).toBeGreaterThan(10);
    expect(searched).toBeGreaterThan(50);
    expect(close).toBeGreaterThan(0);
  });

  it('never settles a target that some turn brings within a move', () => {
    // Brute force apart from the search: the charger's box turned in half-degree steps about the
    // pivot each side's turns use, and the target's outline walked a millimetre at a time: a
    // point ahead in the strip the frontage sweeps within a move (or inside the box) means some
    // line reaches, and such a target may never be settled.
    let reachable = 0;
    for (let seed = 21; seed <= 23; seed++) {
      const state = d3Table(seed, 10);
      for (const chargePivot of ['innerCorner', 'centre'] as const) {
        const ctx = d3Context(state, { chargePivot }, DEFAULT_POLICY);
        for (const c of state.units)
          for (const t of state.units) {
            if (c === t) continue;
            const moveMm = mmOf(moveOf(c));
            const gap = polygonSetSeparation([facedBoxPolygon(c.box)], t.bodyPolygons).distance;
            if (gap > moveMm + Math.hypot(c.box.width, c.box.depth) + 5) {
              // Beyond a move and the widest swing of any point of the box: always settled.
              expect(beyondEveryTurn(ctx, c, t, moveMm, 2)).toBeDefined();
              continue;
            }
            if (shortestRunMm(ctx, c, t) <= moveMm) {
              reachable++;
              expect(beyondEveryTurn(ctx, c, t, moveMm, 0)).toBeUndefined();
            }
          }
      }
    }
    expect(reachable).toBeGreaterThan(5);
  });
});

/** The least straight run after a turn of up to 45° to any sampled point of the target, mm. */
function shortestRunMm(ctx: D3Context, c: TableUnit, t: TableUnit): number {
  const points: Vec2[] = [];
  for (const poly of t.bodyPolygons)
    for (let i = 0; i < poly.length; i++) {
      const a = poly[i] as Vec2;
      const b = poly[(i + 1) % poly.length] as Vec2;
      const n = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y)));
      for (let k = 0; k < n; k++)
        points.push({ x: a.x + ((b.x - a.x) * k) / n, y: a.y + ((b.y - a.y) * k) / n });
    }
  let best = Infinity;
  for (let deg = -45; deg <= 45; deg += 0.5) {
    const box = turnedBox(c.box, deg, pivotFor(ctx, c.box, deg));
    const w = box.width / 2;
    for (const q of points) {
      const l = toLocal(box.frame, q);
      if (Math.abs(l.x) > w || l.y < -box.depth) continue;
      best = Math.min(best, Math.max(0, l.y));
    }
  }
  return best;
}
