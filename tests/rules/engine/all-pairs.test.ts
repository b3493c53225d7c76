import { describe, expect, it } from 'vitest';
import { movedUnit, rng } from '../../../bench/rules-scenario.ts';
import { getRuleset } from '../../../src/rules/index.ts';
import {
  AllPairs,
  allPairVerdicts,
  askPair,
  pairKindsOf,
  type PairAnswer,
  type PairVerdicts,
} from '../../../src/rules/engine/all-pairs.ts';
import type { Ruleset } from '../../../src/rules/engine/ruleset.ts';
import { buildTableState, type TableState } from '../../../src/table/table-state.ts';
import type { TableUnit } from '../../../src/table/table-unit.ts';
import { randomScenario as bpScenario } from '../black-powder/random-table.ts';
import { randomTable, RECIPES } from '../perturbation/random-tables.ts';

/**
 * The all-pairs answers must be the one-at-a-time answers, verdict by verdict: every public
 * field (answer, lean, margins, moves, reasons, facts, the whole tree of checks), compared with
 * toStrictEqual, no tolerance. The reference is each pair asked alone on a fresh table, with no
 * memo active. Small random tables with terrain (the one-at-a-time path costs tens of ms a pair).
 */

/** Each ordered pair asked alone, in table order. */
function oneAtATime(ruleset: Ruleset, state: TableState, kind: 'shoot' | 'charge' | 'see'): PairAnswer[] {
  const out: PairAnswer[] = [];
  for (const a of state.units)
    for (const b of state.units) if (a !== b) out.push(askPair(ruleset, state, kind, a, b));
  return out;
}

function listed(p: PairVerdicts, kind: 'shoot' | 'charge' | 'see'): PairAnswer[] {
  const out: PairAnswer[] = [];
  for (let i = 0; i < p.n; i++)
    for (let j = 0; j < p.n; j++) if (i !== j) out.push(p.at(kind, i, j) as PairAnswer);
  return out;
}

/** How many of each answer, so a test shows it is not comparing only "no"s. */
function tally(answers: readonly PairAnswer[], into: Record<string, number>): void {
  for (const a of answers) {
    const k = 'verdict' in a ? a.verdict.answer : 'refused';
    into[k] = (into[k] ?? 0) + 1;
  }
}

/** A unit to move and where: seeded, up to 8" and 90°. */
function someMove(
  state: TableState,
  seed: number,
): { unit: TableUnit; dx: number; dy: number; turn: number } {
  const r = rng(seed);
  const unit = state.units[Math.floor(r() * state.units.length)] as TableUnit;
  return { unit, dx: (r() - 0.5) * 400, dy: (r() - 0.5) * 400, turn: (r() - 0.5) * 180 };
}

describe('all-pairs verdicts equal the one-at-a-time verdicts', () => {
  it('Black Powder random tables with terrain, then units moved one by one (each update equals one at a time)', () => {
    const bp = getRuleset('black-powder');
    const counts: Record<string, number> = {};
    let kept = 0;
    let askedAgain = 0;
    for (let seed = 1; seed <= 8; seed++) {
      let scenario = bpScenario(seed, 7 + (seed % 4));
      let state = buildTableState(scenario);
      const session = new AllPairs(bp);
      const all = session.full(state);
      for (const kind of pairKindsOf(bp)) {
        const plain = oneAtATime(bp, state, kind);
        tally(plain, counts);
        expect(listed(all, kind), `seed ${seed} ${kind}`).toStrictEqual(plain);
      }
      // The same table again: nothing moved, nothing asked again.
      const same = session.update(buildTableState(scenario));
      expect(session.lastAsked).toBe(0);
      for (const kind of pairKindsOf(bp)) expect(listed(same, kind)).toStrictEqual(listed(all, kind));
      for (let step = 0; step < 3; step++) {
        const m = someMove(state, seed * 10 + step);
        scenario = movedUnit(scenario, m.unit.id, m.dx, m.dy, m.turn);
        state = buildTableState(scenario);
        const updated = session.update(state);
        const pairs = state.units.length * (state.units.length - 1) * pairKindsOf(bp).length;
        askedAgain += session.lastAsked;
        kept += pairs - session.lastAsked;
        for (const kind of pairKindsOf(bp))
          expect(listed(updated, kind), `seed ${seed} ${kind} after moving ${m.unit.id}`).toStrictEqual(
            oneAtATime(bp, state, kind),
          );
      }
      const fresh = allPairVerdicts(bp, state);
      for (const kind of pairKindsOf(bp))
        expect(listed(fresh, kind)).toStrictEqual(oneAtATime(bp, state, kind));
    }
    // Not a vacuous comparison: every answer occurs, and updates both kept and re-asked pairs.
    expect(counts.yes).toBeGreaterThan(20);
    expect(counts.no).toBeGreaterThan(100);
    expect(counts.borderline).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(100);
    expect(askedAgain).toBeGreaterThan(100);
  });

  it('every other ruleset answering shoot, charge or see, on its random tables', () => {
    for (const id of ['prestonpans', 'd3', 'oer-the-sea']) {
      const recipe = RECIPES[id];
      if (!recipe) throw new Error(`no recipe for ${id}`);
      const ruleset = getRuleset(id);
      const counts: Record<string, number> = {};
      for (let seed = 1; seed <= 3; seed++) {
        const scenario = randomTable(recipe, seed).scenario;
        const state = buildTableState(scenario);
        const session = new AllPairs(ruleset);
        const all = session.full(state);
        expect(all.kinds.length).toBeGreaterThan(0);
        for (const kind of all.kinds) {
          const plain = oneAtATime(ruleset, state, kind);
          tally(plain, counts);
          expect(listed(all, kind), `${id} seed ${seed} ${kind}`).toStrictEqual(plain);
        }
        const m = someMove(state, 100 + seed);
        const after = buildTableState(movedUnit(scenario, m.unit.id, m.dx, m.dy, m.turn));
        const updated = session.update(after);
        for (const kind of all.kinds)
          expect(listed(updated, kind), `${id} seed ${seed} ${kind} moved`).toStrictEqual(
            oneAtATime(ruleset, after, kind),
          );
      }
      expect(counts.no, id).toBeGreaterThan(0);
      expect((counts.yes ?? 0) + (counts.borderline ?? 0), id).toBeGreaterThan(0);
    }
  });
});
