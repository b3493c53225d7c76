import { describe, expect, it } from 'vitest';
import { chargeVerdict } from '../../../src/rules/black-powder/charge.ts';
import { EXACT_POLICY, type ThresholdPolicy } from '../../../src/rules/engine/threshold.ts';
import type { UnitSpec } from '../../../src/table/scenario.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { box, ctxOf, IN, rectPoly, table } from './fixtures.ts';

/**
 * The charge line's far end where the target's face stands nearly square to it (Black Powder apart
 * table 14108): the nearest point slides along the face, and the next base's corner, a hair
 * further, is as good an end. A wall whose tip lies between the two lines is crossed by one only.
 */
const POLICY: ThresholdPolicy = { floor: 0.25, sigmas: 2 };
const BAND_IN = 0.25;
let marker = 900;

/** B: two 4" × 1.5" bases facing A, turned 3° off square, centred at (cx, 8.75)"; its first (right) base pushed `push`" toward A. */
function targetB(cx: number, push: number): UnitSpec {
  const turn = (177 * Math.PI) / 180;
  const along = { x: Math.cos(turn), y: Math.sin(turn) };
  return {
    id: 'B',
    name: 'B',
    side: 'blue',
    type: 'infantry',
    bases: [-2, 2].map((o, i) => ({
      widthMm: 4 * IN,
      depthMm: 1.5 * IN,
      marker: { id: marker++, sizeMm: 10, heightMm: 3, offsetMm: { x: 0, y: 0 }, rotationDeg: 0 },
      pose: {
        x: (cx + o * along.x) * IN,
        y: (8.75 + o * along.y - (i === 0 ? push : 0)) * IN,
        headingDeg: 177,
      },
    })),
  };
}

const wall = {
  id: 'w',
  name: 'the wall',
  kind: 'obstacle' as const,
  cover: 'light' as const,
  polygon: rectPoly(1.9, 6, 7.5, 7.7),
};

function reachOf(cx: number, push: number, policy: ThresholdPolicy) {
  const st = table([box('A', -1, 1, -1.5, 0), targetB(cx, push)], [wall]);
  const v = chargeVerdict(ctxOf(st, {}, policy), findUnit(st, 'A'), findUnit(st, 'B'));
  return v.checks.find((c) => c.question === 'reach');
}

/** The exact answer with B's right base pushed toward A by each step up to `most` inches. */
const pushedAnswers = (cx: number, most: number) =>
  Array.from({ length: 11 }, (_, k) => reachOf(cx, (most * k) / 10, EXACT_POLICY)?.answer);

describe('charge reach when another point of the target is as near and its line crosses a wall', () => {
  it('is too close to call when the next base’s corner is within the band of the nearest', () => {
    // The nearest point, on the left base 1" short of the seam, is 8.06" away and its line passes
    // 0.5" left of the wall's tip; the right base's corner at the seam is 0.05" further and its line
    // crosses the wall (6" must be spare: 2" short).
    const c = reachOf(2.4, 0, POLICY);
    expect(c?.answer).toBe('borderline');
    expect(c?.reasons.join(' ')).toMatch(/another point of B is as near/);
    // Brute force: that base a tenth of an inch forward, within the band, and B cannot be reached.
    const answers = pushedAnswers(2.4, BAND_IN);
    expect(answers[0]).toBe('yes');
    expect(answers.slice(1)).toContain('no');
  });

  it('is firm when the next base’s corner is more than the band further', () => {
    const c = reachOf(3.8, 0, POLICY);
    expect(c?.answer).toBe('yes');
    // Brute force: that base anywhere up to the band forward leaves the answer alone.
    expect(new Set(pushedAnswers(3.8, BAND_IN))).toEqual(new Set(['yes']));
  });
});
