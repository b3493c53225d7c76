import { describe, expect, it } from 'vitest';
import { supportAllocation, supportTotal } from '../../../src/rules/black-powder/support-allocation.ts';
import { supportVerdict } from '../../../src/rules/black-powder/support.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { box, ctxOf, table } from './fixtures.ts';

/**
 * Supports (spec §5.9): an unengaged friend within 6" in the engaged unit's flank or rear quarter
 * gives +1 rear, +1 per flank; each supporter supports only one unit; no support for units
 * engaged to flank or rear; in multi-unit fights only the outer flanks can be supported.
 */
const enemy = { side: 'blue', headingDeg: 180 as const };

describe('Black Powder supports beyond BP-E15', () => {
  it('a unit fighting on a flank cannot be supported; fighting to its front it can', () => {
    const rear = () => box('R', -5, 5, -8, -6.5);
    const onFlank = table([box('E', -5, 5, -1.5, 0), box('Foe', -7, -5, -1.5, 0, enemy), rear()]);
    const v = supportVerdict(ctxOf(onFlank), findUnit(onFlank, 'R'), findUnit(onFlank, 'E'));
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/E is fighting to its left and cannot be supported/);
    const inFront = table([box('E', -5, 5, -1.5, 0), box('Foe', -5, 5, 0, 1.5, enemy), rear()]);
    const w = supportVerdict(ctxOf(inFront), findUnit(inFront, 'R'), findUnit(inFront, 'E'));
    expect(w.answer).toBe('yes');
    expect(w.facts.quarter).toBe('rear');
  });

  it('a friend touching an enemy is engaged itself and supports no one', () => {
    const st = table([
      box('E', -5, 5, -1.5, 0, { engaged: true }),
      box('R', -5, 5, -8, -6.5),
      box('Foe', -5, 5, -10, -8, { side: 'blue' }),
    ]);
    const v = supportVerdict(ctxOf(st), findUnit(st, 'R'), findUnit(st, 'E'));
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/R is itself engaged/);
  });

  it('a friend 0.3" from an enemy: clear of it exactly (tolerance 0.25"), too close to call in the 0.25" band', () => {
    const st = table([
      box('E', -5, 5, -1.5, 0, { engaged: true }),
      box('R', -5, 5, -8, -6.5),
      box('Foe', -5, 5, -9.8, -8.3, { side: 'blue' }),
    ]);
    const exact = supportVerdict(ctxOf(st), findUnit(st, 'R'), findUnit(st, 'E'));
    expect(exact.answer).toBe('yes');
    const banded = supportVerdict(
      ctxOf(st, {}, { floor: 0.25, sigmas: 2 }),
      findUnit(st, 'R'),
      findUnit(st, 'E'),
    );
    expect(banded.checks.find((c) => c.question === 'supportEligible')?.answer).toBe('borderline');
    expect(banded.answer).toBe('borderline');
    expect(banded.lean).toBe('yes');
  });

  it('each supporter supports one unit: the allocation gives both engaged units +1', () => {
    // S stands between E1 (right flank) and E2 (left flank), within 6" of both; T only in E1's
    // right flank (6.5" from E2). S listed first, so a greedy pass would give S to E1 and leave E2
    // and T with nothing; the matching gives T to E1 and S to E2.
    const st = table([
      box('E1', -5, 5, -1.5, 0, { engaged: true }),
      box('E2', 13, 23, -1.5, 0, { engaged: true }),
      box('S', 8, 9, -1.5, 0),
      box('T', 5.5, 6.5, -1.5, 0),
    ]);
    const ctx = ctxOf(st);
    const S = findUnit(st, 'S');
    expect(supportVerdict(ctx, S, findUnit(st, 'E1')).facts.quarter).toBe('right');
    expect(supportVerdict(ctx, S, findUnit(st, 'E1')).answer).toBe('yes');
    expect(supportVerdict(ctx, S, findUnit(st, 'E2')).facts.quarter).toBe('left');
    expect(supportVerdict(ctx, S, findUnit(st, 'E2')).answer).toBe('yes');
    expect(supportVerdict(ctx, findUnit(st, 'T'), findUnit(st, 'E2')).answer).toBe('no');
    expect(supportTotal(ctx, findUnit(st, 'E1'))).toEqual({ total: 1, by: { right: 'T' } });
    expect(supportTotal(ctx, findUnit(st, 'E2'))).toEqual({ total: 1, by: { left: 'S' } });
    const all = [...supportAllocation(ctx).values()].flatMap((by) => Object.values(by));
    expect(all.sort()).toEqual(['S', 'T']);
  });

  it('two supporters in one quarter still give +1; the total never exceeds +3', () => {
    const st = table([
      box('E', -5, 5, -1.5, 0, { engaged: true }),
      box('R1', -5, -1, -4, -2.5),
      box('R2', 1, 5, -4, -2.5),
      box('L', -10, -7, -1.5, 0),
      box('Rt', 7, 10, -1.5, 0),
    ]);
    const t = supportTotal(ctxOf(st), findUnit(st, 'E'));
    expect(t.total).toBe(3);
    expect(Object.keys(t.by).sort()).toEqual(['left', 'rear', 'right']);
  });

  it('side by side in one fight: the shared flank is not an outer flank', () => {
    // E1 and E2 fight to their front, touching each other; G stands in E1's right flank quarter
    // and E2's rear quarter.
    const st = table([
      box('E1', -5, 5, -1.5, 0, { engaged: true }),
      box('E2', 5, 15, -1.5, 0, { engaged: true }),
      box('G', 5, 15, -4, -2.5),
    ]);
    const ctx = ctxOf(st);
    const toE1 = supportVerdict(ctx, findUnit(st, 'G'), findUnit(st, 'E1'));
    expect(toE1.facts.quarter).toBe('right');
    expect(toE1.answer).toBe('no');
    expect(toE1.reasons.join(' ')).toMatch(/only outer flanks are supported/);
    const toE2 = supportVerdict(ctx, findUnit(st, 'G'), findUnit(st, 'E2'));
    expect(toE2.facts.quarter).toBe('rear');
    expect(toE2.answer).toBe('yes');
  });
});
