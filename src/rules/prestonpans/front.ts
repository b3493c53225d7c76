import { possessive } from '../engine/measure.ts';
import { degToRad } from '../../geometry/angle.ts';
import { minBearingToPolygons } from '../../geometry/bearing.ts';
import { conePolygon } from '../../geometry/cone.ts';
import { corridorPolygon } from '../../geometry/corridor.ts';
import { pointToPolygonSet } from '../../geometry/distance.ts';
import { frontCentre } from '../../geometry/faced-box.ts';
import { toTable } from '../../geometry/frame.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { quarterPolygon, ZONE_REACH } from '../../geometry/quarters.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { Verdict } from '../engine/verdict.ts';
import { anyPartQuantity, zoneReading } from '../engine/zone-share.ts';
import { thresholdVerdict, type PpContext } from './context.ts';
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
 * Is `target` in front of `shooter`? Yes when some of its area lies in the zone. How far it would
 * have to move to change that is exact: the gap to the zone, or the push that takes it out.
 */
export function inFrontVerdict(
  ctx: PpContext,
  shooter: TableUnit,
  target: TableUnit,
  reading: PpOptions['inFront'] = ctx.options.inFront,
): Verdict {
  const zone = frontZone(ctx, shooter, reading);
  const r = zoneReading(target.bodyPolygons, zone);
  const apex = frontCentre(shooter.box);
  const near = pointToPolygonSet(apex, target.bodyPolygons);
  const sigma = Math.hypot(
    shooter.sigmaMm,
    target.sigmaMm,
    near.distance * degToRad(shooter.sigmaHeadingDeg),
  );
  const facts: Record<string, string | number | boolean> = { reading, share: r.share };
  if (reading === 'cone')
    facts.minBearingDeg = minBearingToPolygons(apex, shooter.box.frame.front, target.bodyPolygons).deg;
  const where = READING_WORDS[reading];
  return thresholdVerdict(
    ctx,
    {
      question: 'inFront',
      asked: `is ${target.name} in front of ${shooter.name}?`,
      reasons: [
        r.share > 0
          ? `${(r.share * 100).toFixed(0)}% of ${target.name} lies in ${possessive(shooter.name)} ${where}`
          : `no part of ${target.name} is in ${possessive(shooter.name)} ${where}`,
      ],
      options: {
        inFront: reading,
        ...(reading === 'quarter' ? { quarterReading: ctx.options.quarterReading } : {}),
      },
      facts,
      between: r.between,
    },
    // F2 is Black Powder's quarter, whose rays are a boundary (spec §5.3, PP-E3).
    anyPartQuantity(r, sigma, reading === 'quarter'),
    'moreThan',
    0,
  );
}
