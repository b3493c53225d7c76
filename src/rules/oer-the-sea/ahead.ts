import { degToRad } from '../../geometry/angle.ts';
import { corridorPolygon } from '../../geometry/corridor.ts';
import { pointToPolygonSet } from '../../geometry/distance.ts';
import { frameFromHeading, toLocal, type Frame } from '../../geometry/frame.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { ZONE_REACH } from '../../geometry/quarters.ts';
import { zoneReading } from '../../geometry/zone.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { possessive } from '../engine/measure.ts';
import type { Verdict } from '../engine/verdict.ts';
import { cm, thresholdVerdict, type OtsContext } from './context.ts';
import type { OtsOptions } from './options.ts';

/**
 * "All fire is directly ahead, there is no arc": a target is ahead when some of it lies in the
 * strip straight ahead of the shooter (option ahead: its frontage, the line ahead of its centre,
 * or any front stand's own strip). The verdict measures a width, in centimetres: how far the
 * target reaches into the strip across it (0 when it does not), and how far it would have to
 * move to change the answer, exactly (the gap to the strip, or the push that takes it out).
 */
interface Strip {
  readonly frame: Frame;
  readonly xMin: number;
  readonly xMax: number;
}

function strips(unit: TableUnit, reading: OtsOptions['ahead']): Strip[] {
  if (reading === 'standCorridors') {
    const tol = Math.max(2, 0.25 * Math.min(...unit.bases.map((b) => b.footprint.depth)));
    return unit.bases
      .filter((b) => Math.max(...b.polygon.map((p) => toLocal(unit.box.frame, p).y)) >= -tol)
      .map((b) => {
        const f = b.footprint;
        const base = frameFromHeading(f.center, f.headingDeg);
        // The stand's own strip, from its front edge.
        const front = {
          x: f.center.x + base.front.x * (f.depth / 2),
          y: f.center.y + base.front.y * (f.depth / 2),
        };
        return { frame: { ...base, origin: front }, xMin: -f.width / 2, xMax: f.width / 2 };
      });
  }
  const w = reading === 'centreRay' ? 0 : unit.box.width / 2;
  return [{ frame: unit.box.frame, xMin: -w, xMax: w }];
}

/** How far (mm) the pieces reach into a strip across it: the overlap of their x-extent ahead of its start with the strip. */
function widthInside(pieces: readonly Polygon[], s: Strip): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of pieces)
    for (const q of p) {
      const l = toLocal(s.frame, q);
      if (l.y < 0) continue;
      lo = Math.min(lo, l.x);
      hi = Math.max(hi, l.x);
    }
  if (!(hi >= lo)) return 0;
  const a = Math.max(lo, s.xMin);
  const b = Math.min(hi, s.xMax);
  return s.xMin === s.xMax
    ? lo <= s.xMin && hi >= s.xMin
      ? Math.min(s.xMin - lo, hi - s.xMin)
      : 0
    : Math.max(0, b - a);
}

export function aheadVerdict(
  ctx: OtsContext,
  shooter: TableUnit,
  target: TableUnit,
  reading: OtsOptions['ahead'] = ctx.options.ahead,
): Verdict {
  const zs = strips(shooter, reading);
  let best: { width: number; move: number; inside: boolean } = { width: 0, move: Infinity, inside: false };
  for (const s of zs) {
    // A line (centre ray) is a strip of no width: widen it a hair for the zone arithmetic.
    const half = s.xMin === s.xMax ? 1e-6 : 0;
    const zone = corridorPolygon(
      { frame: s.frame, xMin: s.xMin - half, xMax: s.xMax + half, yMin: 0, yMax: Infinity },
      ZONE_REACH,
    );
    const r = zoneReading(target.bodyPolygons, zone);
    const inside = r.share > 0;
    const width = inside ? widthInside(target.bodyPolygons, s) : 0;
    // Inside any strip: the answer changes only when it leaves every one (the largest push); outside all: the nearest.
    if (inside && (!best.inside || r.anyMoveMm > best.move)) best = { width, move: r.anyMoveMm, inside };
    else if (!inside && !best.inside && r.anyMoveMm < best.move)
      best = { width: 0, move: r.anyMoveMm, inside };
  }
  const apex = shooter.leader;
  const near = pointToPolygonSet(apex, target.bodyPolygons);
  const sigmaMm = Math.hypot(
    shooter.sigmaMm,
    target.sigmaMm,
    near.distance * degToRad(shooter.sigmaHeadingDeg),
  );
  const where =
    reading === 'corridor'
      ? `the strip ahead of ${possessive(shooter.name)} frontage`
      : reading === 'centreRay'
        ? `the line straight ahead of ${possessive(shooter.name)} centre`
        : `the strips ahead of ${possessive(shooter.name)} front stands`;
  return thresholdVerdict(
    ctx,
    {
      question: 'ahead',
      asked: `is ${target.name} directly ahead of ${shooter.name}?`,
      reasons: [
        best.inside
          ? `${target.name} reaches ${cm(best.width).toFixed(1)} cm into ${where}`
          : `${target.name} is not in ${where}`,
      ],
      options: { ahead: reading },
      facts: { widthCm: cm(best.width) },
    },
    { value: cm(best.width), unit: 'cm', perMm: 0.1, sigmaMm, moveMm: best.move },
    best.inside ? 'atLeast' : 'moreThan',
    0,
  );
}
