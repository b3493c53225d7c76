import { describe, expect, it } from 'vitest';
import { bpContext } from '../../../src/rules/black-powder/context.ts';
import { leftTableVerdict } from '../../../src/rules/black-powder/specials.ts';
import { EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { IN, rect, twoSidedTable } from '../fixtures.ts';

/**
 * Leaving the table (spec A-BP-21 / A-BP-25): a deployed gun is judged by its gun model by
 * default (`deployedArtilleryFootprint: gunOnly`); its crew standing over the edge does not take
 * it off the table, and the gun model itself over the edge does.
 */
const ask = (headingDeg: 0 | 180, roles: ['gun' | 'crew', 'gun' | 'crew'], options = {}) => {
  // A 2" × 2" gun and crew, one behind the other, straddling the top edge (y = 48") by half an inch.
  const gun = rect('Gun', 10, 12, 46.5, 48.5, { type: 'artillery', files: 1, ranks: 2, headingDeg, roles });
  const state = twoSidedTable('edge', 'black-powder', { widthMm: 72 * IN, depthMm: 48 * IN }, [gun]);
  const ctx = bpContext(state, options, EXACT_POLICY);
  return leftTableVerdict(ctx, findUnit(state, 'Gun'));
};

describe('Black Powder: has a deployed gun left the table?', () => {
  it('crew over the edge, gun model inside: no (by the gun model, the option default)', () => {
    // Facing −y: the first rank (y 46.5–47.5) is the front, the gun; the crew stands behind, over the edge.
    const v = ask(180, ['gun', 'crew']);
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/gun model's farthest corner is 0\.5 in inside/);
    expect(v.value).toBeCloseTo(-0.5, 9);
  });
  it('the same gun judged by the whole unit (the other reading): yes', () => {
    expect(ask(180, ['gun', 'crew'], { deployedArtilleryFootprint: 'wholeUnit' }).answer).toBe('yes');
  });
  it('gun model over the edge: yes, with its overhang as the value', () => {
    const v = ask(0, ['crew', 'gun']);
    expect(v.answer).toBe('yes');
    expect(v.value).toBeCloseTo(0.5, 9);
  });
});
