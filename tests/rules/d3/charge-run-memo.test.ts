import { describe, expect, it } from 'vitest';
import { bestChargeLine, pivotFor, sweepObstacles, turnLimits } from '../../../src/rules/d3/charge-line.ts';
import { knownPieces } from '../../../src/rules/d3/charge-run-memo.ts';
import { enemyCharges } from './random-d3-table.ts';

/**
 * A charge's searches keep what each piece of turns met (charge-run-memo.ts) and take it again
 * when the turn limits move. The truth: the same search with a copy of the obstacle list, which
 * nothing was kept for, line for line to the last bit.
 */
describe('D3 charge line: pieces kept between searches', () => {
  it('gives the very line a search from scratch gives, limit after limit', () => {
    let searches = 0;
    let keptPieces = 0;
    for (const { ctx, charger: c, target: t } of enemyCharges([41, 42], 14)) {
      const inTheWay = sweepObstacles(ctx, c, t);
      if (inTheWay.length === 0) continue;
      const limits = turnLimits(ctx, c, t);
      // The limits as a blocker's probes move them: out a band, then bisected back.
      for (const scale of [1, 0.5, 0.75, 0.625, 1]) {
        const allowed = { leftDeg: limits.left.deg * scale, rightDeg: limits.right.deg * scale };
        const kept = bestChargeLine(ctx, c, t, allowed, inTheWay);
        const fresh = bestChargeLine(ctx, c, t, allowed, [...inTheWay]);
        expect(kept).toStrictEqual(fresh);
        searches++;
      }
      for (const sign of [1, -1] as const)
        keptPieces += knownPieces(inTheWay, c.box, t.bodyPolygons, pivotFor(ctx, c.box, sign), 0).size;
    }
    expect(searches).toBeGreaterThan(200);
    expect(keptPieces).toBeGreaterThan(1000);
  });
});
