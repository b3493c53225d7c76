import type { Vec2 } from '../../geometry/vec.ts';
import type { Commander } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { rulesKit } from '../engine/context.ts';
import { fromPoint, possessive, separation, type Measured } from '../engine/measure.ts';
import { pointName } from '../engine/parts.ts';
import type { RulesContext } from '../engine/ruleset.ts';
import { DEFAULT_POLICY } from '../engine/threshold.ts';
import { leaderAtTurnStart } from '../engine/turn-start.ts';
import { pointToUnit } from '../unit-distance.ts';
import { PP_OPTION_SPECS, type PpOptions } from './options.ts';
import { MOVE_BODY, MOVE_SHEET, type PpTroop } from './tables.ts';

export const RULESET_ID = 'prestonpans';
export type PpContext = RulesContext<PpOptions>;

/** The Prestonpans core, and the plumbing every file shares (context, verdicts, inches). */
export const PP = rulesKit<PpOptions>({
  id: RULESET_ID,
  unit: 'in',
  optionSpecs: PP_OPTION_SPECS,
  defaultPolicy: DEFAULT_POLICY,
});
export const {
  context: ppContext,
  verdict: ppVerdict,
  lengthVerdict,
  thresholdVerdict,
  toUnit: inches,
  toMm: mmOf,
  lengthStr: inStr,
} = PP;

/** What a unit is in this game: cannons are artillery; dragoons are cavalry. */
export const troopOf = (u: Pick<TableUnit, 'type'>): PpTroop => (u.type === 'artillery' ? 'cannon' : u.type);

/** Normal and charge move, inches, by the movement table in force. */
export function movesOf(ctx: PpContext, troop: PpTroop): { normal: number; charge: number } {
  return (ctx.options.movementTable === 'sheet' ? MOVE_SHEET : MOVE_BODY)[troop];
}

/** Distance between two units as this ruleset measures it (option measureFrom), both ends named. */
export function unitGap(ctx: PpContext, from: TableUnit, to: TableUnit): Measured {
  const m =
    ctx.options.measureFrom === 'frontCentre'
      ? fromPoint(from.leader, from.sigmaMm, to.bases)
      : separation(from.bases, to.bases);
  return {
    ...m,
    fromName:
      ctx.options.measureFrom === 'frontCentre'
        ? `${possessive(from.name)} front centre`
        : pointName(from, m.from),
    toName: pointName(to, m.to),
  };
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
  const start = leaderAtTurnStart(ctx.state, charger);
  if (ctx.options.faceFrom === 'leader') return start.point;
  // The centre where the charger stood at the start of the turn: from the recorded table when
  // there is one; else the current box moved with its leader (the scenario gives only the leader).
  const then =
    start.from === 'history' ? ctx.state.turnStart?.units.find((u) => u.id === charger.id) : undefined;
  const b = (then ?? charger).box;
  const shift =
    start.from === 'scenario'
      ? { x: start.point.x - charger.leader.x, y: start.point.y - charger.leader.y }
      : { x: 0, y: 0 };
  return {
    x: b.frame.origin.x - (b.frame.front.x * b.depth) / 2 + shift.x,
    y: b.frame.origin.y - (b.frame.front.y * b.depth) / 2 + shift.y,
  };
}
