import { bearingDeg, conePolygon, type Cone } from '../../geometry/cone.ts';
import { polygonSetSeparation } from '../../geometry/distance.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import { zoneReading } from '../../geometry/zone.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { pointName } from '../engine/parts.ts';
import type { Verdict } from '../engine/verdict.ts';
import { bpVerdict, inStr, lengthVerdict, mmOf, type BpContext, poss } from './context.ts';
import { groundHeight, unitsCrossed } from './sight.ts';
import { cannonBand, DEAD_GROUND, type CannonBand, type Weapon } from './tables.ts';
import type { Measured } from './context.ts';
import { hypot } from '../../geometry/hypot.ts';

/** Guns, howitzers, machine guns and rockets fire into a cone 45° either side of the barrel. */
export const ARC_HALF_ANGLE_DEG = 45;

export function gunCone(gun: TableUnit): Cone | undefined {
  if (!gun.barrel) return undefined;
  return { apex: gun.barrel.tip, axis: gun.barrel.axis, halfAngleDeg: ARC_HALF_ANGLE_DEG };
}

/** Whether any part of the target is in the gun's arc, and the share of it that is (exact: convex clipping). */
export function arcShare(gun: TableUnit, target: TableUnit): { any: boolean; share: number } {
  const cone = gunCone(gun);
  if (!cone) return { any: false, share: 0 };
  const r = zoneReading(target.bodyPolygons, conePolygon(cone));
  return { any: r.share > 0 || r.anyMoveMm === 0, share: r.share };
}

/** Bearing of a point off the barrel axis, degrees. */
export const offAxisDeg = (gun: TableUnit, p: Vec2): number =>
  gun.barrel ? bearingDeg(gun.barrel.tip, gun.barrel.axis, p) : 180;

export function bandOf(weapon: Weapon, rangeIn: number): CannonBand {
  return cannonBand(weapon.max, rangeIn);
}

/** Howitzers, mortars and rockets may not shoot at targets nearer than 6". */
export function minimumRangeVerdict(ctx: BpContext, weapon: Weapon, range: Measured): Verdict | undefined {
  if (weapon.min === undefined) return undefined;
  return lengthVerdict(
    ctx,
    {
      question: 'minimumRange',
      asked: `is the target beyond the ${poss(weapon.name)} ${weapon.min}" minimum range?`,
      reasons: [`${inStr(range.mm)} against the ${weapon.min}" minimum`],
      options: { howitzerCloseAtSix: ctx.options.howitzerCloseAtSix },
    },
    range,
    ctx.options.howitzerCloseAtSix ? 'atLeast' : 'moreThan',
    weapon.min,
  );
}

/**
 * Cannon overhead fire: only from or at higher ground, every unit fired over more than 6" from
 * the gun and from the target, and never at short range (canister).
 */
export function overheadVerdict(
  ctx: BpContext,
  gun: TableUnit,
  target: TableUnit,
  aimPoint: Vec2,
  band: CannonBand,
): Verdict {
  const tip = gun.barrel?.tip ?? gun.leader;
  const crossed = unitsCrossed(ctx, tip, aimPoint, new Set([gun.id, target.id]));
  const reasons: string[] = [];
  const checks: Verdict[] = [];
  let ok = true;
  let borderline = false;
  const elevated = groundHeight(ctx.state, tip) > 0 || groundHeight(ctx.state, aimPoint) > 0;
  if (ctx.options.overheadNeedsHeight && !elevated) {
    ok = false;
    reasons.push('neither the gun nor the target stands on higher ground, so it cannot fire over units');
  }
  if (band === 'short') {
    ok = false;
    reasons.push('canister (short range) is never fired overhead');
  }
  for (const u of crossed) {
    for (const [what, other] of [
      ['gun', gun],
      ['target', target],
    ] as const) {
      const sep = polygonSetSeparation(u.bodyPolygons, other.bodyPolygons);
      const r = lengthVerdict(
        ctx,
        {
          question: 'deadGround',
          asked: `is ${u.name} more than 6" from the ${what}?`,
          reasons: [`${u.name} is ${inStr(sep.distance)} from the ${what}`],
        },
        {
          mm: sep.distance,
          sigmaMm: hypot(u.sigmaMm, other.sigmaMm),
          from: sep.onA,
          to: sep.onB,
          fromName: pointName(u, sep.onA),
          toName: pointName(other, sep.onB),
        },
        'moreThan',
        DEAD_GROUND,
      );
      if (r.answer === 'no') ok = false;
      if (r.answer === 'borderline') borderline = true;
      checks.push(r);
      if (r.lean === 'no')
        reasons.push(`${u.name} is only ${inStr(sep.distance)} from the ${what}: inside the 6" dead ground`);
    }
  }
  const answer = !ok ? 'no' : borderline ? 'borderline' : 'yes';
  return bpVerdict({
    question: 'overhead',
    asked: `may ${gun.name} fire over ${crossed.map((u) => u.name).join(', ') || 'nothing'}?`,
    answer,
    lean: ok ? 'yes' : 'no',
    reasons:
      reasons.length > 0
        ? reasons
        : [`fires over ${crossed.map((u) => u.name).join(', ')} from higher ground, −1 to hit`],
    options: { overheadNeedsHeight: ctx.options.overheadNeedsHeight },
    facts: { firedOver: crossed.map((u) => u.name).join(', ') },
    checks,
  });
}

/** Artillery must shoot the closest target if any visible target is within half its range. */
export const halfRangeMm = (weapon: Weapon): number => mmOf(weapon.max / 2);
