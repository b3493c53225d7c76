import { possessive } from '../engine/measure.ts';
import { shareInsideConvex } from '../../geometry/convex-clip.ts';
import { minBearingToPolygons } from '../../geometry/bearing.ts';
import { conePolygon } from '../../geometry/cone.ts';
import { corridorPolygon } from '../../geometry/corridor.ts';
import { polygonSetSeparation } from '../../geometry/distance.ts';
import { frontCentre } from '../../geometry/faced-box.ts';
import { toTable } from '../../geometry/frame.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { quarterPolygon, ZONE_REACH } from '../../geometry/quarters.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { epsilonFor } from '../engine/threshold.ts';
import type { Verdict } from '../engine/verdict.ts';
import { inches, ppVerdict, type PpContext } from './context.ts';
import type { PpOptions } from './options.ts';

const READING_WORDS: Record<PpOptions['inFront'], string> = {
  quarter: 'front quarter',
  corridor: 'frontage corridor',
  cone: '45° cone from the front centre',
  halfPlane: 'half-plane beyond the front edge',
};

/** The zone called "in front" of a unit under one reading, as a polygon on the table. */
export function frontZone(
  ctx: PpContext,
  unit: TableUnit,
  reading: PpOptions['inFront'] = ctx.options.inFront,
): Polygon {
  const box = unit.box;
  switch (reading) {
    case 'quarter':
      return quarterPolygon(box, 'front', ctx.options.quarterReading);
    case 'corridor':
      return corridorPolygon(
        { frame: box.frame, xMin: -box.width / 2, xMax: box.width / 2, yMin: 0, yMax: Infinity },
        ZONE_REACH,
      );
    case 'cone':
      return conePolygon({ apex: frontCentre(box), axis: box.frame.front, halfAngleDeg: 45 }, ZONE_REACH);
    case 'halfPlane':
      return [
        { x: -ZONE_REACH, y: 0 },
        { x: ZONE_REACH, y: 0 },
        { x: ZONE_REACH, y: ZONE_REACH },
        { x: -ZONE_REACH, y: ZONE_REACH },
      ].map((p) => toTable(box.frame, p));
  }
}

/**
 * Is `target` in front of `shooter`? Yes when some of its area lies in the zone; when none does
 * but it touches the zone's edge (or comes within the borderline band of it), too close to call.
 */
export function inFrontVerdict(
  ctx: PpContext,
  shooter: TableUnit,
  target: TableUnit,
  reading: PpOptions['inFront'] = ctx.options.inFront,
): Verdict {
  const zone = frontZone(ctx, shooter, reading);
  // Every zone here is convex: clip each base to it (robust when a corner sits on a ray).
  const share = shareInsideConvex(target.bodyPolygons, zone);
  const gap = polygonSetSeparation(target.bodyPolygons, [zone]);
  const eps = epsilonFor(ctx.policy, inches(Math.hypot(shooter.sigmaMm, target.sigmaMm)));
  const gapIn = inches(gap.distance);
  const touching = share <= 1e-9 && gapIn <= Math.max(eps, 1e-6);
  const facts: Record<string, string | number | boolean> = { reading, share };
  if (reading === 'cone')
    facts.minBearingDeg = minBearingToPolygons(
      frontCentre(shooter.box),
      shooter.box.frame.front,
      target.bodyPolygons,
    ).deg;
  const where = READING_WORDS[reading];
  return ppVerdict({
    question: 'inFront',
    asked: `is ${target.name} in front of ${shooter.name}?`,
    answer: share > 1e-9 ? 'yes' : touching ? 'borderline' : 'no',
    lean: share > 1e-9 ? 'yes' : 'no',
    reasons: [
      share > 1e-9
        ? `${(share * 100).toFixed(0)}% of ${target.name} lies in ${possessive(shooter.name)} ${where}`
        : touching
          ? `${target.name} only touches the edge of ${possessive(shooter.name)} ${where}: too close to call`
          : `no part of ${target.name} is in ${possessive(shooter.name)} ${where} (${gapIn.toFixed(2)} in outside it)`,
    ],
    options: {
      inFront: reading,
      ...(reading === 'quarter' ? { quarterReading: ctx.options.quarterReading } : {}),
    },
    facts,
  });
}
