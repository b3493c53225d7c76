import { describe, expect, it } from 'vitest';
import { degToRad } from '../../../src/geometry/angle.ts';
import { sweepContact } from '../../../src/geometry/sweep.ts';
import { pivotFor, sweepObstacles, turnedBox, turnLimits } from '../../../src/rules/d3/charge-line.ts';
import { obstaclesInReach, runBlockedBy, runIsBlocked } from '../../../src/rules/d3/charge-run.ts';
import { enemyCharges } from './random-d3-table.ts';

/**
 * A charge's runs are tested only against what can stand in some run of that side's turns
 * (`obstaclesInReach`). The truth is found apart from the filter: every turn a quarter of a degree
 * apart on each side, run to the target, and each obstacle alone asked whether it blocks that run.
 * Any that does must have been kept; and on crowded tables most obstacles are dropped.
 */
describe('D3 charge runs: what can stand in the way', () => {
  it('keeps every obstacle that blocks some run, and drops the rest of a crowded table', () => {
    let blockers = 0;
    let blockedRuns = 0;
    let kept = 0;
    let offered = 0;
    for (const { ctx, charger: c, target: t } of enemyCharges([31, 32, 33], 14)) {
      const all = sweepObstacles(ctx, c, t);
      if (all.length === 0) continue;
      const limits = turnLimits(ctx, c, t);
      for (const [sign, deg] of [
        [1, limits.left.deg],
        [-1, limits.right.deg],
      ] as const) {
        const pivot = pivotFor(ctx, c.box, sign);
        const [lo, hi] = sign > 0 ? [0, degToRad(deg)] : [-degToRad(deg), 0];
        const near = new Set(obstaclesInReach(c.box, pivot, lo, hi, t.bodyPolygons, all));
        offered += all.length;
        kept += near.size;
        for (let k = 0; k * 0.25 <= deg; k++) {
          const box = turnedBox(c.box, sign * k * 0.25, pivot);
          const run = sweepContact(box, t.bodyPolygons);
          if (!run) continue;
          for (const o of all)
            if (runBlockedBy(box, run.distance, [o])) {
              blockers++;
              expect(near.has(o)).toBe(true);
            }
          // Asked only whether the run is clear, the search may stop at the first obstacle
          // found to block it: the same answer as finding the nearest.
          const blocked = runBlockedBy(box, run.distance, all) !== undefined;
          expect(runIsBlocked(box, run.distance, all)).toBe(blocked);
          if (blocked) blockedRuns++;
        }
      }
    }
    expect(blockers).toBeGreaterThan(100);
    expect(blockedRuns).toBeGreaterThan(100);
    expect(kept).toBeLessThan(offered * 0.8);
  });
});
