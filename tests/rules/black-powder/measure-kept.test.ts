import { describe, expect, it } from 'vitest';
import { bpContext } from '../../../src/rules/black-powder/context.ts';
import { measureAfresh, measureFrom } from '../../../src/rules/black-powder/range.ts';
import { DEFAULT_POLICY } from '../../../src/rules/engine/threshold.ts';
import { randomTable } from './random-table.ts';

/**
 * A range to the whole target from the usual origin is kept per context and pair (range.ts):
 * shoot and charge both ask it. What is kept must be what is computed for that very pair and
 * options, asked in any order. Truth: measureAfresh, the computation itself, on random tables
 * under every range origin, numbers compared with Object.is (toStrictEqual).
 */

describe('measureFrom kept per context', () => {
  it('equals measuring afresh for every ordered pair of random tables, every origin, asked twice', () => {
    let pairs = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const state = randomTable(seed, 10);
      for (const rangeFrom of ['leaderBase', 'leaderPoint', 'footprint']) {
        const ctx = bpContext(state, { rangeFrom }, DEFAULT_POLICY);
        for (let pass = 0; pass < 2; pass++)
          for (const a of pass === 0 ? state.units : [...state.units].reverse())
            for (const b of state.units) {
              if (a === b) continue;
              for (const gun of [false, true]) {
                const kept = measureFrom(ctx, a, gun, b);
                const fresh = measureAfresh(ctx, a, gun, b, b.bodyPolygons, undefined, a.leaderBase);
                expect(kept).toStrictEqual(fresh);
                pairs++;
              }
            }
      }
    }
    expect(pairs).toBeGreaterThan(3000);
  });
});
