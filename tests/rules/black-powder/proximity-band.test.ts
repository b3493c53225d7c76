import { describe, expect, it } from 'vitest';
import { proximityMoveVerdict } from '../../../src/rules/black-powder/proximity.ts';
import { DEFAULT_POLICY } from '../../../src/rules/engine/threshold.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { box, ctxOf, IN, shooterS, table } from './fixtures.ts';

/**
 * The proximity rule (spec BP §5, BP-E16) under the one uncertainty model: whether a move within
 * 12" of the enemy enters a flank quarter is a threshold like any other. S: 10" wide, leader at
 * its front centre (0, 0), facing +y; under the bisector reading its front quarter is bounded by
 * 45° rays from the front corners (±5, 0), so the leader moved to (x, 4) stays in it while
 * x ≤ 5 + 4 = 9. A destination δ mm past that line is δ/√2 mm from the ray (independent of the
 * code: plane geometry).
 */
const foe = () => box('Foe', -5, 5, 11, 12.5, { side: 'blue', headingDeg: 180 });

function diagonal(deltaMm: number, policy = DEFAULT_POLICY) {
  const st = table([shooterS(), foe()]);
  const u = findUnit(st, 'S');
  const dx = 9 * IN + deltaMm;
  const moved = u.bases.map((b) => ({
    ...b.footprint,
    center: { x: b.footprint.center.x + dx, y: b.footprint.center.y + 4 * IN },
  }));
  return proximityMoveVerdict(ctxOf(st, { proximityCheck: 'leaderOnly' }, policy), u, moved);
}

describe('BP proximity: the sidestep check has a borderline band', () => {
  it('0.2 mm into the flank quarter: too close to call, leaning no; exact arithmetic says no', () => {
    const v = diagonal(0.2);
    expect(v.answer).toBe('borderline');
    expect(v.lean).toBe('no');
    expect(v.moveMm).toBeCloseTo(0.2 / Math.SQRT2, 6);
    expect(v.reasons.join(' ')).toMatch(/too close to call/);
    expect(diagonal(0.2, { floor: 0, sigmas: 0 }).answer).toBe('no');
  });

  it('0.2 mm short of it: too close to call, leaning yes; 20 mm short: a firm yes', () => {
    const v = diagonal(-0.2);
    expect(v.answer).toBe('borderline');
    expect(v.lean).toBe('yes');
    expect(v.moveMm).toBeCloseTo(0.2 / Math.SQRT2, 6);
    expect(diagonal(-20).answer).toBe('yes');
    expect(diagonal(20).answer).toBe('no');
    expect(diagonal(20).moveMm).toBeCloseTo(20 / Math.SQRT2, 6);
  });
});
