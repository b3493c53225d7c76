import { describe, expect, it } from 'vitest';
import { BP, bpContext, mmOf, weaponOf } from '../../../src/rules/black-powder/context.ts';
import { otherReadings } from '../../../src/rules/black-powder/range.ts';
import { outOfRangeWhateverSeen, shotRange } from '../../../src/rules/black-powder/shot-range.ts';
import { DEFAULT_POLICY } from '../../../src/rules/engine/threshold.ts';
import { hypot } from '../../../src/geometry/hypot.ts';
import { randomTable } from './random-table.ts';

/**
 * A shot settled on the range to the whole target weighs the other bases' readings only when one
 * could lean otherwise. Truth: the same range check with every other base weighed (shotRange as the
 * full assessment calls it), and the early out's own rule applied to it.
 */
describe('Black Powder range to the whole target, other bases weighed only where they could count', () => {
  it('on random tables under every range origin: the same settled shots and the same range checks', () => {
    let settled = 0;
    let settledWithOtherBases = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const state = randomTable(seed, 14);
      for (const rangeFrom of ['leaderBase', 'leaderPoint', 'footprint'] as const) {
        const ctx = bpContext(state, { rangeFrom }, DEFAULT_POLICY);
        for (const s of state.units)
          for (const t of state.units) {
            const w = weaponOf(s);
            if (s === t || !w) continue;
            const gun = s.type === 'artillery' && !!s.barrel && w.kind !== 'smallArms';
            const words = `no part of ${t.name} is within range, seen or not`;
            const full = shotRange(ctx, s, gun, w, t, t.bodyPolygons, undefined, [words]);
            const band = BP.bandMm(ctx, Math.max(full.range.sigmaMm, hypot(s.sigmaMm, t.sigmaMm)));
            const settles = full.rangeCheck.answer === 'no' && full.range.mm - mmOf(w.max) >= band;
            const got = outOfRangeWhateverSeen(ctx, s, gun, w, t);
            expect(got !== undefined, `${s.id}→${t.id} ${rangeFrom}`).toBe(settles);
            if (!got) continue;
            settled++;
            expect(got.rangeCheck, `${s.id}→${t.id} ${rangeFrom}`).toStrictEqual(full.rangeCheck);
            expect(got.range).toStrictEqual(full.range);
            const bandMm = BP.bandMm(ctx, full.range.sigmaMm);
            if (!gun && otherReadings(ctx, s, gun, t, t.bodyPolygons, undefined, bandMm).length > 0)
              settledWithOtherBases++;
          }
      }
    }
    expect(settled).toBeGreaterThan(500);
    // Leaders standing where two bases meet: their readings were weighed before, and are not now.
    expect(settledWithOtherBases).toBeGreaterThan(20);
  });
});
