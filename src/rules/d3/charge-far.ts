import { degToRad } from '../../geometry/angle.ts';
import { grownConvex } from '../../geometry/convex-offset.ts';
import { polygonSetSeparation } from '../../geometry/distance.ts';
import { facedBoxPolygon } from '../../geometry/faced-box.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { possessive } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { pointName } from '../engine/parts.ts';
import type { Verdict } from '../engine/verdict.ts';
import { pivotFor } from './charge-line.ts';
import { leverAbout } from './charge-run.ts';
import { D3, inches, inStr, lengthVerdict, mmOf, type D3Context } from './context.ts';
import { CHARGE_TURN_DEG } from './tables.ts';

/** Far beyond the rounding of a table's coordinates, mm. */
const ROUNDING_MM = 0.01;

/** How far the charger's box is from the target, and the most a turn swings any point of it, mm. */
export interface FarGap {
  readonly gapMm: number;
  readonly swingMm: number;
  /** The nearest points: on the charger's box, on the target. */
  readonly from: Vec2;
  readonly to: Vec2;
}

/**
 * Whether no D3 charge line can come within one move of the target by more than any reading that
 * makes a charge too close to call could close (charge.ts): whatever the turn, the target moved up
 * to `bandMm` across or grown by it all round, what stops the turn moved (the turn stays within
 * 45°), or the runs narrowed. The gap and the swing when so.
 *
 * Why it holds: every point of the charger's box, turned up to 45° about either pivot, lies within
 * 2R·sin(22.5°) of where it stood (R: the box's farthest corner from the pivot). The straight run
 * to first contact joins a point of the turned front edge to a point of the target (or is 0 where
 * they overlap), so it is at least their gap: the gap between the box as it stands and the target,
 * less that swing. A target moved a band is at most a band nearer; a grown one is measured grown.
 */
export function beyondEveryTurn(
  ctx: D3Context,
  charger: TableUnit,
  target: TableUnit,
  moveMm: number,
  bandMm: number,
): FarGap | undefined {
  if (target.bodyPolygons.length === 0 || !(bandMm >= 0)) return undefined;
  const box = facedBoxPolygon(charger.box);
  const lever = Math.max(
    leverAbout(charger.box, pivotFor(ctx, charger.box, 1)),
    leverAbout(charger.box, pivotFor(ctx, charger.box, -1)),
  );
  const swingMm = 2 * lever * Math.sin(degToRad(CHARGE_TURN_DEG) / 2);
  const short = moveMm + swingMm + ROUNDING_MM;
  const gap = polygonSetSeparation([box], target.bodyPolygons);
  if (gap.distance - bandMm <= short) return undefined;
  const grown = target.bodyPolygons.map((p) => grownConvex(p, bandMm));
  if (polygonSetSeparation([box], grown).distance <= short) return undefined;
  return { gapMm: gap.distance, swingMm, from: gap.onA, to: gap.onB };
}

/**
 * The reach of a charge at a target beyond every turn (above), with the band of the least sure
 * unit on the table (whatever could stop a turn or stand in a run): a firm no, read off the gap
 * against one move and the turn's swing. Searching its best line, and every reading that could
 * make it too close to call, would only say no again, at many times the cost (a 60-unit table's
 * charges took over a minute). Undefined when the target is nearer: the line is searched then.
 */
export function farReach(
  ctx: D3Context,
  charger: TableUnit,
  target: TableUnit,
  move: number,
): Verdict | undefined {
  const leastSure = ctx.state.units.reduce((s, u) => Math.max(s, u.sigmaMm), 0);
  const band = D3.bandMm(ctx, Math.hypot(charger.sigmaMm, target.sigmaMm, leastSure));
  const far = beyondEveryTurn(ctx, charger, target, mmOf(move), band);
  if (!far) return undefined;
  const C = charger.name;
  const T = target.name;
  const toName = pointName(target, far.to);
  return lengthVerdict(
    ctx,
    {
      question: 'reach',
      asked: `can ${C} reach ${T} straight ahead after one turn of up to ${CHARGE_TURN_DEG}°?`,
      reasons: [
        `${inStr(far.gapMm)} from ${possessive(C)} formation to ${toName}; one move is ${move}", and a turn of up to ${CHARGE_TURN_DEG}° swings its front at most ${inStr(far.swingMm)}`,
        `no turn of up to ${CHARGE_TURN_DEG}° brings ${C} within one move of ${T}, whatever stands in the way`,
      ],
      options: pick(ctx.options, 'chargePivot'),
    },
    {
      mm: far.gapMm,
      sigmaMm: Math.hypot(charger.sigmaMm, target.sigmaMm),
      from: far.from,
      to: far.to,
      fromName: `${possessive(C)} formation`,
      toName,
    },
    'atMost',
    move + inches(far.swingMm),
  );
}
