import { describe, expect, it } from 'vitest';
import { getRuleset } from '../../../src/rules/index.ts';
import { askPair, type PairAnswer } from '../../../src/rules/engine/all-pairs.ts';
import {
  tableReachSliced,
  threatsOfUnit,
  threatsOfUnitSliced,
} from '../../../src/rules/engine/unit-threats.ts';
import { buildTableState } from '../../../src/table/table-state.ts';
import { randomTable, RECIPES } from '../perturbation/random-tables.ts';

/**
 * A picked unit's threat view must be, pair by pair, what asking each pair alone (no memo, fresh
 * call) answers: its row (shoot, charge, see each enemy) and its column (each enemy shooting it),
 * compared with toStrictEqual. Random tables with terrain under every ruleset that answers them.
 */

const answerOf = (a: PairAnswer | undefined): string =>
  a === undefined ? 'none' : 'verdict' in a ? a.verdict.answer : 'refused';

describe('threat view of one unit equals the pairs asked one at a time', () => {
  for (const id of ['black-powder', 'prestonpans', 'd3', 'oer-the-sea']) {
    it(`${id}: row and column of two picked units on random tables`, async () => {
      const recipe = RECIPES[id];
      if (!recipe) throw new Error(`no recipe for ${id}`);
      const ruleset = getRuleset(id);
      const counts: Record<string, number> = {};
      for (let seed = 1; seed <= 2; seed++) {
        const state = buildTableState(randomTable(recipe, seed).scenario);
        for (const unit of state.units.slice(0, 2)) {
          const view = threatsOfUnit(ruleset, state, unit.id);
          const enemies = state.units.filter((u) => u.side !== unit.side);
          expect(view.pairs.map((p) => p.enemy)).toStrictEqual(enemies.map((e) => e.id));
          expect(view.kinds.length).toBeGreaterThan(0);
          view.pairs.forEach((p, i) => {
            const enemy = enemies[i]!;
            for (const kind of view.kinds) {
              expect(p.from[kind], `${id} ${seed} ${kind} ${unit.id}→${enemy.id}`).toStrictEqual(
                askPair(ruleset, state, kind, unit, enemy),
              );
              const k = `${kind}:${answerOf(p.from[kind])}`;
              counts[k] = (counts[k] ?? 0) + 1;
            }
            if (view.kinds.includes('shoot'))
              expect(p.shotBy, `${id} ${seed} shoot ${enemy.id}→${unit.id}`).toStrictEqual(
                askPair(ruleset, state, 'shoot', enemy, unit),
              );
          });
          const sliced = await threatsOfUnitSliced(ruleset, state, unit.id, {}, () => Promise.resolve());
          expect(sliced).toStrictEqual(view);
        }
      }
      console.log(id, counts);
      // Not only "no"s: some pair of the row is a yes.
      expect(Object.entries(counts).some(([k, n]) => k.endsWith(':yes') && n > 0)).toBe(true);
    });
  }

  for (const id of ['black-powder', 'oer-the-sea']) {
    it(`${id}: the whole-table view (can each unit shoot / see anything?) equals every pair asked alone`, async () => {
      const ruleset = getRuleset(id);
      const seen: Record<string, number> = {};
      for (let seed = 3; seed <= 4; seed++) {
        const state = buildTableState(randomTable(RECIPES[id]!, seed).scenario);
        for (const kind of ['shoot', 'see'] as const) {
          const reach = await tableReachSliced(ruleset, state, kind, {}, () => Promise.resolve());
          expect(reach!.units.map((u) => u.unit)).toStrictEqual(state.units.map((u) => u.id));
          reach!.units.forEach((r, i) => {
            const unit = state.units[i]!;
            const all = state.units
              .filter((e) => e.side !== unit.side)
              .map((e) => ({ enemy: e.id, a: answerOf(askPair(ruleset, state, kind, unit, e)) }));
            const expected = all.some((x) => x.a === 'yes')
              ? 'yes'
              : all.some((x) => x.a === 'borderline')
                ? 'borderline'
                : 'no';
            expect(r.answer, `${id} ${seed} ${kind} ${unit.id}`).toBe(expected);
            // The enemy named gave that answer, asked alone.
            if (expected !== 'no') expect(all.find((x) => x.enemy === r.enemy)?.a).toBe(expected);
            seen[`${kind}:${expected}`] = (seen[`${kind}:${expected}`] ?? 0) + 1;
          });
        }
      }
      console.log(id, 'whole table', seen);
      expect(seen['shoot:yes'] ?? 0).toBeGreaterThan(0);
      expect((seen['shoot:no'] ?? 0) + (seen['see:no'] ?? 0)).toBeGreaterThan(0);
    });
  }

  it('a sliced view stops when cancelled', async () => {
    const state = buildTableState(randomTable(RECIPES['black-powder']!, 1).scenario);
    let steps = 0;
    const out = await threatsOfUnitSliced(
      getRuleset('black-powder'),
      state,
      state.units[0]!.id,
      {},
      () => Promise.resolve(void steps++),
      () => steps >= 3,
    );
    expect(out).toBeNull();
    expect(steps).toBe(3);
  });

  it('Campaigns of Montrose answers none of shoot, charge, see: an empty view, not an error', () => {
    const state = buildTableState(randomTable(RECIPES['black-powder']!, 1).scenario);
    const view = threatsOfUnit(getRuleset('montrose'), state, state.units[0]!.id);
    expect(view.kinds).toStrictEqual([]);
    expect(view.asked).toBe(0);
  });
});
