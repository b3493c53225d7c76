import { describe, expect, it } from 'vitest';
import { traverseVerdict } from '../../../src/rules/black-powder/traverse.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { ctxOf, IN, rectPoly, shooterS, table } from './fixtures.ts';

/**
 * Traversing fire, the second clause (spec §5.8): an enemy that moves within 12", across at least
 * half the frontage, and out (or mostly out) of the front quarter may be shot at; one still mostly
 * in the front quarter may not (the first clause, a charge across the front, does not ask where it
 * ends). S is the standard 10" line facing +y: its front quarter is y ≥ |x| − 5.
 */
const P = (x: number, y: number) => ({ x: x * IN, y: y * IN });

describe('traversing fire: moving across and out of the front quarter', () => {
  const st = table([shooterS()]);
  const S = findUnit(st, 'S');
  const ctx = ctxOf(st);
  const track = [P(-4, 6), P(9, 6)] as const; // crosses [−4, 5] = 9" of the 10" frontage, 6" away
  const move = (end: ReturnType<typeof rectPoly>) =>
    traverseVerdict(ctx, S, track, 0, { charging: false, end: [end] });

  it('ends wholly out of the front quarter ([9,12]×[1,3]): may shoot', () => {
    const v = move(rectPoly(9, 12, 1, 3));
    expect(v.answer).toBe('yes');
    expect(v.facts.clause).toBe('move');
    expect(v.checks.find((c) => c.question === 'traverseExit')?.value).toBeCloseTo(0, 9);
  });

  it('ends mostly out ([7,10]×[2,4]: one third of it still in front): may shoot', () => {
    const v = move(rectPoly(7, 10, 2, 4));
    expect(v.checks.find((c) => c.question === 'traverseExit')?.value).toBeCloseTo(100 / 3, 6);
    expect(v.answer).toBe('yes');
  });

  it('ends still in the front quarter ([5,8]×[4,6]): may not shoot under the second clause', () => {
    const v = move(rectPoly(5, 8, 4, 6));
    expect(v.checks.find((c) => c.question === 'traverseExit')?.value).toBeCloseTo(100, 6);
    expect(v.answer).toBe('no');
    // As a charge across the front (the first clause) the same track may be shot at.
    expect(traverseVerdict(ctx, S, track).answer).toBe('yes');
  });

  it('crossing less than half the frontage, or beyond 12", is never enough', () => {
    const short = traverseVerdict(ctx, S, [P(1, 6), P(9, 6)], 0, {
      charging: false,
      end: [rectPoly(9, 12, 1, 3)],
    });
    expect(short.value).toBeCloseTo(4, 9);
    expect(short.answer).toBe('no');
    const far = traverseVerdict(ctx, S, [P(-4, 12.5), P(18, 12.5)], 0, {
      charging: false,
      end: [rectPoly(18, 21, 1, 3)],
    });
    expect(far.checks.find((c) => c.question === 'traverseDistance')?.answer).toBe('no');
    expect(far.answer).toBe('no');
  });
});
