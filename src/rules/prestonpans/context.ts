import type { Vec2 } from '../../geometry/vec.ts';
import { fromMm, toMm } from '../../table/length-unit.ts';
import type { Commander, TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { lengthVerdict as measureVerdict, type Measured } from '../engine/measure.ts';
import { resolveOptions } from '../engine/options.ts';
import type { RulesContext } from '../engine/ruleset.ts';
import { DEFAULT_POLICY, type Comparison, type ThresholdPolicy } from '../engine/threshold.ts';
import { verdict, type OptionValue, type Verdict, type VerdictInit } from '../engine/verdict.ts';
import { pointToUnit, unitSeparation } from '../unit-distance.ts';
import { PP_OPTION_SPECS, type PpOptions } from './options.ts';
import { MOVE_BODY, MOVE_SHEET, type PpTroop } from './tables.ts';

export const RULESET_ID = 'prestonpans';
export type PpContext = RulesContext<PpOptions>;

export function ppContext(
  state: TableState,
  options: Readonly<Record<string, OptionValue>> = {},
  policy: ThresholdPolicy = DEFAULT_POLICY,
): PpContext {
  return { state, options: resolveOptions(PP_OPTION_SPECS, options), policy };
}

export const inches = (mm: number): number => fromMm(mm, 'in');
export const mmOf = (inchesValue: number): number => toMm(inchesValue, 'in');
export const inStr = (mm: number): string => `${inches(mm).toFixed(1)} in`;

export const ppVerdict = (init: Omit<VerdictInit, 'ruleset'>): Verdict =>
  verdict({ ...init, ruleset: RULESET_ID });

export function lengthVerdict(
  ctx: PpContext,
  init: Omit<
    VerdictInit,
    'ruleset' | 'answer' | 'value' | 'limit' | 'margin' | 'epsilon' | 'unit' | 'between'
  >,
  m: Measured,
  comparison: Comparison,
  limitIn: number,
): Verdict {
  return measureVerdict(
    { ruleset: RULESET_ID, unit: 'in', policy: ctx.policy },
    init,
    m,
    comparison,
    limitIn,
  );
}

/** What a unit is in this game: cannons are artillery; dragoons are cavalry. */
export const troopOf = (u: Pick<TableUnit, 'type'>): PpTroop => (u.type === 'artillery' ? 'cannon' : u.type);

/** Normal and charge move, inches, by the movement table in force. */
export function movesOf(ctx: PpContext, troop: PpTroop): { normal: number; charge: number } {
  return (ctx.options.movementTable === 'sheet' ? MOVE_SHEET : MOVE_BODY)[troop];
}

/** Distance between two units as this ruleset measures it (option measureFrom). */
export function unitGap(ctx: PpContext, from: TableUnit, to: TableUnit): Measured {
  if (ctx.options.measureFrom === 'frontCentre') {
    const s = pointToUnit(from.leader, from.sigmaMm, to.bases);
    return { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
  }
  const s = unitSeparation(from.bases, to.bases);
  return { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
}

/** Commanders within `attachWithinIn` of the unit's bases, on its side: they are with the unit. */
export function attachedCommanders(ctx: PpContext, unit: TableUnit): Commander[] {
  const limit = mmOf(ctx.options.attachWithinIn);
  return ctx.state.commanders.filter(
    (k) => k.side === unit.side && pointToUnit(k.head, 0, unit.bases).distance <= limit,
  );
}

/** The point of a charger that decides which face it strikes. */
export function facePoint(ctx: PpContext, charger: TableUnit): Vec2 {
  if (ctx.options.faceFrom === 'leader') return charger.leaderAtTurnStart ?? charger.leader;
  const b = charger.box;
  return {
    x: b.frame.origin.x - (b.frame.front.x * b.depth) / 2,
    y: b.frame.origin.y - (b.frame.front.y * b.depth) / 2,
  };
}
