import { degToRad } from '../../geometry/angle.ts';
import { grownConvex } from '../../geometry/convex-offset.ts';
import { polygonSetSeparation } from '../../geometry/distance.ts';
import { facedBoxPolygon } from '../../geometry/faced-box.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { pivotFor } from './charge-line.ts';
import type { D3Context } from './context.ts';
import { CHARGE_TURN_DEG } from './tables.ts';

/** Far beyond the rounding of a table's coordinates, mm. */
const ROUNDING_MM = 0.01;

/**
 * Whether a D3 charge falls short by more than any reading that makes a charge too close to call
 * can close (charge.ts): whatever the turn, the target moved up to `bandMm` across or grown by it
 * all round, what stops the turn moved (the turn stays within 45°), or the runs narrowed. Those
 * readings each search the best line again, many times a charge; a target this far off is no on
 * the reading as it stands, and every one of them is a firm no too.
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
): boolean {
  if (target.bodyPolygons.length === 0 || !(bandMm >= 0)) return false;
  const box = facedBoxPolygon(charger.box);
  let lever = 0;
  for (const sign of [1, -1]) {
    const pivot = pivotFor(ctx, charger.box, sign);
    for (const p of box) lever = Math.max(lever, Math.hypot(p.x - pivot.x, p.y - pivot.y));
  }
  const swing = 2 * lever * Math.sin(degToRad(CHARGE_TURN_DEG) / 2);
  const short = moveMm + swing + ROUNDING_MM;
  if (polygonSetSeparation([box], target.bodyPolygons).distance - bandMm <= short) return false;
  const grown = target.bodyPolygons.map((p) => grownConvex(p, bandMm));
  return polygonSetSeparation([box], grown).distance > short;
}
