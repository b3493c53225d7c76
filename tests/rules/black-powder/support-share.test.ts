import { describe, expect, it } from 'vitest';
import { supportVerdict } from '../../../src/rules/black-powder/support.ts';
import { DEFAULT_POLICY, EXACT_POLICY, type ThresholdPolicy } from '../../../src/rules/engine/threshold.ts';
import type { Verdict } from '../../../src/rules/engine/verdict.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { box, ctxOf, IN, table } from './fixtures.ts';

/**
 * Support by share (supportPoint anyPart / majority, A-BP-7) under the one uncertainty model.
 * E: 10" × 1.5" line, front edge y = 0 from x = −5 to 5, facing +y; its front-left quarter ray
 * runs from (−5, 0) at 45°: the points (−5 − s, s). A point (x, y) with y ≥ 0 is in the front
 * quarter while x ≥ −5 − y, and δ mm left of that line is δ/√2 mm from the ray.
 */
const E = () => box('E', -5, 5, -1.5, 0);

function ask(f: ReturnType<typeof box>, supportPoint: string, policy: ThresholdPolicy): Verdict {
  const st = table([E(), f]);
  const v = supportVerdict(ctxOf(st, { supportPoint }, policy), findUnit(st, 'F'), findUnit(st, 'E'));
  return v.checks.find((c) => c.question === 'supportQuarter') as Verdict;
}

describe('BP support by any part: borderline at the front-quarter ray', () => {
  // F 4" × 1.5" at y 2–3.5; its rear-left corner (−7 + δ, 2) is the last to leave the front quarter.
  const F = (deltaMm: number) => box('F', -7 + deltaMm / IN, -3 + deltaMm / IN, 2, 3.5);
  it.each([
    [0.2, 'no'],
    [-0.2, 'yes'],
  ])('corner %d mm inside the front quarter line: too close to call, leaning %s', (d, lean) => {
    const v = ask(F(d), 'anyPart', DEFAULT_POLICY);
    expect(v.lean).toBe(lean);
    expect(v.answer).toBe('borderline');
    expect(ask(F(d), 'anyPart', EXACT_POLICY).answer).toBe(lean);
  });
  it('20 mm either side is firm', () => {
    expect(ask(F(20), 'anyPart', DEFAULT_POLICY).answer).toBe('no');
    expect(ask(F(-20), 'anyPart', DEFAULT_POLICY).answer).toBe('yes');
  });
});

describe('BP support by majority: borderline at half', () => {
  // A 1.5" square centred on the ray at (−7, 2): the ray runs along its diagonal, halving it.
  const F = (leftMm: number) => box('F', -7.75 - leftMm / IN, -6.25 - leftMm / IN, 1.25, 2.75);
  it('exactly half in the flank quarter: not more than half, too close to call', () => {
    const v = ask(F(0), 'majority', DEFAULT_POLICY);
    expect(v.lean).toBe('no');
    expect(v.answer).toBe('borderline');
    expect(ask(F(0), 'majority', EXACT_POLICY).answer).toBe('no');
  });
  it('0.2 mm further left: more than half, still too close to call; 20 mm: firm both ways', () => {
    const v = ask(F(0.2), 'majority', DEFAULT_POLICY);
    expect(v.lean).toBe('yes');
    expect(v.answer).toBe('borderline');
    // 20 mm left moves the square 14.1 mm off the diagonal: 88.5 % in the flank quarter.
    expect(ask(F(20), 'majority', DEFAULT_POLICY).answer).toBe('yes');
    expect(ask(F(-20), 'majority', DEFAULT_POLICY).answer).toBe('no');
  });
});
