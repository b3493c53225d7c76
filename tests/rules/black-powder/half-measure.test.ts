import { describe, expect, it } from 'vitest';
import { assessShot, shootVerdict } from '../../../src/rules/black-powder/shooting.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { box, ctxOf, rectPoly, shooterS, table } from './fixtures.ts';

/**
 * A-BP-4: "half the target" by area or by frontage, for what is seen and what is in cover too (not
 * only the front quarter). T stands side-on to S ([−1,3]×[14,18], facing −x: its 4" frontage runs
 * along the line of sight). A friend F = [−4,1]×[7,8.5] shadows everything left of the ray
 * x = y/8: at T that is x ≤ 1.75 (y = 14) to x ≤ 2.25 (y = 18), so a quarter of T's area is seen,
 * yet some of it is seen at every point of its frontage.
 */
const enemy = { side: 'blue', headingDeg: 90 as const };

describe('halfMeasure for the seen and covered halves', () => {
  it('18% of the area seen: not clear by area; seen across its whole frontage: clear by frontage', () => {
    const st = table([shooterS(), box('F', -4, 1, 7, 8.5), box('T', -1, 3, 14, 18, enemy)]);
    const area = shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T'));
    // ∫ (3 − y/7) dy from 14 to 18 = 12 − 64/7 of 16 square inches.
    expect(area.facts.visibleShare).toBeCloseTo((12 - 64 / 7) / 16, 6);
    expect(area.facts.clear).toBe(false);
    expect(assessShot(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T')).clear).toBe(false);
    const v = shootVerdict(ctxOf(st, { halfMeasure: 'frontage' }), findUnit(st, 'S'), findUnit(st, 'T'));
    const half = v.checks.find((c) => c.question === 'visibleHalf');
    expect(half?.facts.visibleFrontage).toBeCloseTo(1, 9);
    expect(half?.answer).toBe('yes');
    expect(v.facts.clear).toBe(true);
  });

  it('broken ground (light cover) over the left 2.5" of T: 62.5% of its area in cover, none of its frontage', () => {
    const ground = {
      id: 'g',
      name: 'broken ground',
      kind: 'rough' as const,
      cover: 'light' as const,
      polygon: rectPoly(-3, 1.5, 12, 20),
    };
    const st = table([shooterS(), box('T', -1, 3, 14, 18, enemy)], [ground]);
    const area = shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T'));
    expect(area.checks.find((c) => c.question === 'coverHalf')?.facts.coverShare).toBeCloseTo(0.625, 9);
    expect(area.facts.clear).toBe(false);
    const front = shootVerdict(ctxOf(st, { halfMeasure: 'frontage' }), findUnit(st, 'S'), findUnit(st, 'T'));
    const cover = front.checks.find((c) => c.question === 'coverHalf');
    expect(cover?.facts.coverShare).toBeCloseTo(0, 9);
    expect(cover?.answer).toBe('no');
    expect(front.facts.clear).toBe(true);
  });
});
