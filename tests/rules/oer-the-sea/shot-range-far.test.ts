import { describe, expect, it } from 'vitest';
import { smallArmsVerdict } from '../../../src/rules/oer-the-sea/fire.ts';
import { otsContext } from '../../../src/rules/oer-the-sea/context.ts';
import { buildTableState, type TableState } from '../../../src/table/table-state.ts';
import { CM, rect, table } from '../fixtures.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { drawnToCentre, randomScenario } from '../black-powder/random-table.ts';
import { RECIPES, randomTable, type Recipe } from '../perturbation/random-tables.ts';
import { reportedPoses, tableOf } from '../perturbation/perturb.ts';

/**
 * An O'er the Sea musket shot beyond range beyond doubt is answered without weighing which enemy
 * must be fired at (a sight of every nearer enemy). The truth is the same shot with the choice
 * read (`settleOutOfRange` false): on random tables under both target-choice readings, every shot
 * must get the same answer and lean, every shot not settled so the same verdict to the last word,
 * and enough shots must be settled, and enough not, for that to mean something.
 */

/** A random table read by O'er the Sea, every unit drawn 60 % of the way to the centre. */
const otsTable = (seed: number): TableState =>
  buildTableState({ ...drawnToCentre(randomScenario(seed, 12), 0.6), ruleset: 'oer-the-sea' });

describe("O'er the Sea shots settled on range", () => {
  it('answer every shot as with the target choice read, and the rest to the last word', () => {
    let settled = 0;
    let weighed = 0;
    let yes = 0;
    let nearEdge = 0;
    // Random tables, and tables that set a shooter a hair either side of 30 cm from its target
    // (where the range itself is too close to call and the choice must still be read).
    const tables = [
      ...[41, 42, 43, 44].map(otsTable),
      ...Array.from({ length: 24 }, (_, k) => {
        const t = randomTable(RECIPES['oer-the-sea'] as Recipe, 900 + k);
        return tableOf(t.scenario, reportedPoses(t.scenario, t.sigmas));
      }),
    ];
    for (const state of tables) {
      for (const targetChoice of ['nearestAhead', 'nearestVisible'] as const) {
        const ctx = otsContext(state, { targetChoice });
        for (const s of state.units)
          for (const t of state.units) {
            if (s === t) continue;
            const fast = smallArmsVerdict(ctx, s, t);
            const full = smallArmsVerdict(ctx, s, t, false);
            expect([fast.answer, fast.lean]).toEqual([full.answer, full.lean]);
            if (full.answer === 'yes') yes++;
            if (fast.checks.find((c) => c.question === 'range')?.answer === 'borderline') nearEdge++;
            if (fast.checks.some((c) => c.question === 'target')) {
              weighed++;
              expect(fast).toEqual(full);
            } else {
              settled++;
              expect(fast.checks.find((c) => c.question === 'range')?.answer).toBe('no');
            }
          }
      }
    }
    expect(settled).toBeGreaterThan(150);
    expect(weighed).toBeGreaterThan(300);
    expect(yes).toBeGreaterThan(10);
    expect(nearEdge).toBeGreaterThan(5);
  });

  it('reads the choice when the range is too close to call: a nearer enemy then still says no', () => {
    // S fires up the table; C stands 10 cm ahead of it, T 30 cm ahead (the limit) behind C's flank.
    const units = [
      rect('S', 0, 12, -2, 0, { scale: CM, side: 'red', files: 3 }),
      rect('C', 0, 12, 10, 12, { scale: CM, side: 'blue', headingDeg: 180, files: 3 }),
      rect('T', 14, 26, 30, 32, { scale: CM, side: 'blue', headingDeg: 180, files: 3 }),
    ];
    const ctx = otsContext(table(units, [], 'oer-the-sea'), { targetChoice: 'nearestVisible' });
    const v = smallArmsVerdict(ctx, findUnit(ctx.state, 'S'), findUnit(ctx.state, 'T'));
    expect(v.checks.find((c) => c.question === 'range')?.answer).toBe('borderline');
    expect(v.checks.find((c) => c.question === 'target')?.answer).toBe('no');
    expect(v.answer).toBe('no');
    expect(v).toEqual(smallArmsVerdict(ctx, findUnit(ctx.state, 'S'), findUnit(ctx.state, 'T'), false));
  });
});
