import type { TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { askPair, pairKindsOf, type AllPairsSettings, type PairAnswer, type PairKind } from './all-pairs.ts';
import { PairCache, withPairCache } from './pair-cache.ts';
import type { Ruleset } from './ruleset.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * One picked unit's threat view: what it can do to every enemy unit (shoot, charge, see: its row
 * of the all-pairs table) and, reversed, which enemies can shoot it (its column). Only that row
 * and column are asked, each pair through the ruleset's own `ask` (askPair), under one pair cache
 * (pair-cache.ts) for the table, so shoot, charge and see of the same pair share their geometry
 * and target priority assesses each shooter–target pair once.
 *
 * `threatsOfUnit` answers in one go; `threatsOfUnitSliced` yields to the caller's scheduler
 * between pairs so a server answering it never holds its event loop for more than one verdict.
 */

export interface ThreatPair {
  /** The enemy unit's id. */
  readonly enemy: string;
  /** The picked unit asking about this enemy, per kind the ruleset answers. */
  readonly from: Partial<Record<PairKind, PairAnswer>>;
  /** This enemy shooting the picked unit (undefined when the ruleset does not answer shoot). */
  readonly shotBy?: PairAnswer;
}

export interface UnitThreats {
  readonly unit: string;
  readonly kinds: readonly PairKind[];
  /** Enemies in table order. */
  readonly pairs: readonly ThreatPair[];
  /** Verdicts asked (for figures). */
  readonly asked: number;
}

/** One question of the view: a kind, who asks, about whom. */
interface Step {
  readonly kind: PairKind;
  readonly subject: TableUnit;
  readonly object: TableUnit;
  readonly store: (a: PairAnswer) => void;
}

function plan(ruleset: Ruleset, state: TableState, unitId: string, settings: AllPairsSettings) {
  const unit = state.units.find((u) => u.id === unitId);
  if (!unit) throw new Error(`no unit ${unitId} on the table`);
  const answered = pairKindsOf(ruleset);
  const kinds = (settings.kinds ?? answered).filter((k) => answered.includes(k));
  const enemies = state.units.filter((u) => u.side !== unit.side);
  const pairs = enemies.map((e) => ({
    enemy: e.id,
    from: {} as Partial<Record<PairKind, PairAnswer>>,
    shotBy: undefined as PairAnswer | undefined,
  }));
  const steps: Step[] = [];
  enemies.forEach((e, i) => {
    const pair = pairs[i]!;
    for (const kind of kinds)
      steps.push({ kind, subject: unit, object: e, store: (a) => (pair.from[kind] = a) });
    if (kinds.includes('shoot'))
      steps.push({ kind: 'shoot', subject: e, object: unit, store: (a) => (pair.shotBy = a) });
  });
  const result = (): UnitThreats => ({
    unit: unitId,
    kinds,
    pairs: pairs.map((p) => (p.shotBy === undefined ? { enemy: p.enemy, from: p.from } : p)),
    asked: steps.length,
  });
  return { steps, result };
}

/** What one request remembers about its table: pair results; `run` makes them active. */
function tableMemo(state: TableState): <T>(fn: () => T) => T {
  const cache = new PairCache();
  cache.reset(state);
  return (fn) => withPairCache(cache, fn);
}

/** The picked unit's row and column, answered at once. */
export function threatsOfUnit(
  ruleset: Ruleset,
  state: TableState,
  unitId: string,
  settings: AllPairsSettings = {},
): UnitThreats {
  const { steps, result } = plan(ruleset, state, unitId, settings);
  const run = tableMemo(state);
  run(() => {
    for (const s of steps) s.store(askPair(ruleset, state, s.kind, s.subject, s.object, settings));
  });
  return result();
}

/**
 * The same answers, one pair at a time with `pause()` awaited between them (a server passes
 * `setImmediate` so frames keep flowing); `cancelled()` stops early (a newer request superseded
 * this one) and the promise resolves to null.
 */
export async function threatsOfUnitSliced(
  ruleset: Ruleset,
  state: TableState,
  unitId: string,
  settings: AllPairsSettings,
  pause: () => Promise<void>,
  cancelled: () => boolean = () => false,
): Promise<UnitThreats | null> {
  const { steps, result } = plan(ruleset, state, unitId, settings);
  const run = tableMemo(state);
  for (const s of steps) {
    if (cancelled()) return null;
    s.store(run(() => askPair(ruleset, state, s.kind, s.subject, s.object, settings)));
    await pause();
  }
  return result();
}

/** One unit in the whole-table view: the best answer it gets against any enemy, and from which. */
export interface UnitReach {
  readonly unit: string;
  /** yes if any enemy is a yes, else borderline if any is, else no (refusals count as no). */
  readonly answer: 'yes' | 'borderline' | 'no';
  /** The enemy that gave that answer (the nearest such), absent when none was asked. */
  readonly enemy?: string;
  readonly best?: PairAnswer;
}

export interface TableReach {
  readonly kind: PairKind;
  readonly units: readonly UnitReach[];
  readonly asked: number;
}

const rank = (a: PairAnswer): number =>
  'verdict' in a ? (a.verdict.answer === 'yes' ? 2 : a.verdict.answer === 'borderline' ? 1 : 0) : 0;

/**
 * The whole table for one kind: for every unit, can it (shoot, charge, see) any enemy? Enemies are
 * asked nearest first (front centre to front centre) and a unit stops at its first yes, so a
 * crowded table where most units have a target costs far less than every pair; the answer does
 * not depend on the order (yes if any pair is yes). `pause` and `cancelled` as above.
 */
export async function tableReachSliced(
  ruleset: Ruleset,
  state: TableState,
  kind: PairKind,
  settings: AllPairsSettings,
  pause: () => Promise<void>,
  cancelled: () => boolean = () => false,
): Promise<TableReach | null> {
  if (!pairKindsOf(ruleset).includes(kind)) return { kind, units: [], asked: 0 };
  const run = tableMemo(state);
  const units: UnitReach[] = [];
  let asked = 0;
  for (const unit of state.units) {
    const enemies = state.units
      .filter((u) => u.side !== unit.side)
      .sort(
        (p, q) =>
          hypot(p.leader.x - unit.leader.x, p.leader.y - unit.leader.y) -
          hypot(q.leader.x - unit.leader.x, q.leader.y - unit.leader.y),
      );
    let best: { enemy: string; answer: PairAnswer } | undefined;
    for (const enemy of enemies) {
      if (cancelled()) return null;
      const answer = run(() => askPair(ruleset, state, kind, unit, enemy, settings));
      asked++;
      await pause();
      if (!best || rank(answer) > rank(best.answer)) best = { enemy: enemy.id, answer };
      if (rank(answer) === 2) break;
    }
    const score = best ? rank(best.answer) : 0;
    units.push({
      unit: unit.id,
      answer: score === 2 ? 'yes' : score === 1 ? 'borderline' : 'no',
      ...(best ? { enemy: best.enemy, best: best.answer } : {}),
    });
  }
  return { kind, units, asked };
}
