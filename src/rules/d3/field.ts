import { degToRad } from '../../geometry/angle.ts';
import { maxBearingToPolygon, minBearingToPolygons } from '../../geometry/bearing.ts';
import { bearingDeg, conePolygon } from '../../geometry/cone.ts';
import { pointToPolygonSet } from '../../geometry/distance.ts';
import { quarterPolygon } from '../../geometry/quarters.ts';
import { zoneReading } from '../../geometry/zone.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { possessive } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import type { Quantity } from '../engine/threshold.ts';
import type { Verdict } from '../engine/verdict.ts';
import { anyPartQuantity, wholeQuantity } from '../engine/zone-share.ts';
import { frontCentreOf, thresholdVerdict, type D3Context } from './context.ts';
import { FIELD_OF_FIRE_DEG } from './tables.ts';

/** Half-angle of the field of fire under the option in force. */
export const fieldHalfAngle = (ctx: D3Context): number =>
  ctx.options.arc === 'total45' ? FIELD_OF_FIRE_DEG / 2 : FIELD_OF_FIRE_DEG;

/**
 * Field of fire: the target must lie within 45° of the shooter's frontal facing. Value: the
 * target's bearing off the facing (smallest over it, at its nearest point, or largest, by option
 * arcPart), limit: the half-angle. The margin in degrees is turned into the distance the target
 * would have to move to cross the edge of the field, exactly: the gap to the cone (or the push
 * out of it) for "any part", the depth of its deepest corner for "all of it", the nearest point's
 * distance to the cone's edge for "the nearest point". Its sigma: both units, and the shooter's
 * heading error swinging the field over the range.
 */
export function fieldOfFireVerdict(ctx: D3Context, shooter: TableUnit, target: TableUnit): Verdict {
  const apex = frontCentreOf(shooter);
  const axis = shooter.barrel?.axis ?? shooter.facing;
  const half = fieldHalfAngle(ctx);
  const asked = `is ${target.name} within ${possessive(shooter.name)} field of fire?`;
  const options = pick(ctx.options, 'arc', 'arcApex', 'arcPart');
  const nearest = pointToPolygonSet(apex, target.bodyPolygons);
  const sigmaMm = Math.hypot(
    shooter.sigmaMm,
    target.sigmaMm,
    nearest.distance * degToRad(shooter.sigmaHeadingDeg),
  );
  if (ctx.options.arcApex === 'frontCorners') {
    const zone = quarterPolygon(shooter.box, 'front', 'bisector');
    const r = zoneReading(target.bodyPolygons, zone);
    const whole = ctx.options.arcPart === 'wholeUnit';
    return thresholdVerdict(
      ctx,
      {
        question: 'fieldOfFire',
        asked,
        reasons: [
          `${(r.share * 100).toFixed(0)}% of ${target.name} lies between the 45° rays from ${possessive(shooter.name)} front corners`,
        ],
        options,
        facts: { share: r.share },
        between: r.between,
      },
      whole ? wholeQuantity(r, sigmaMm) : anyPartQuantity(r, sigmaMm),
      whole ? 'atLeast' : 'moreThan',
      whole ? 100 : 0,
    );
  }
  const cone = conePolygon({ apex, axis, halfAngleDeg: half });
  const minB = minBearingToPolygons(apex, axis, target.bodyPolygons);
  const maxB = Math.max(...target.bodyPolygons.map((p) => maxBearingToPolygon(apex, axis, p).deg));
  const nearestDeg = bearingDeg(apex, axis, nearest.onB);
  let value: number;
  let moveMm: number;
  if (ctx.options.arcPart === 'anyPart') {
    value = minB.deg;
    moveMm = zoneReading(target.bodyPolygons, cone).anyMoveMm;
  } else if (ctx.options.arcPart === 'nearestPoint') {
    value = nearestDeg;
    const r = zoneReading([[nearest.onB]], cone);
    moveMm = value <= half ? r.allMoveMm : r.anyMoveMm;
  } else {
    value = maxB;
    moveMm = zoneReading(target.bodyPolygons, cone).allMoveMm;
  }
  const q: Quantity = {
    value,
    unit: 'deg',
    perMm: moveMm > 0 ? Math.abs(value - half) / moveMm : 0,
    sigmaMm,
    moveMm,
  };
  return thresholdVerdict(
    ctx,
    {
      question: 'fieldOfFire',
      asked,
      reasons: [
        `${target.name} lies ${value.toFixed(1)}° off ${possessive(shooter.name)} facing (${ctx.options.arcPart === 'anyPart' ? 'its nearest edge to the axis' : ctx.options.arcPart === 'nearestPoint' ? 'its nearest point' : 'all of it'}); the field reaches ${half}° either side`,
      ],
      options,
      facts: { minBearingDeg: minB.deg, nearestBearingDeg: nearestDeg, maxBearingDeg: maxB },
      between: [apex, ctx.options.arcPart === 'anyPart' ? minB.at : nearest.onB],
    },
    q,
    'atMost',
    half,
  );
}
