import type { Polygon } from '../../geometry/polygon.ts';
import type { SeenShare } from '../engine/sight-share.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { BP, type BpContext } from './context.ts';
import { asReading, measureFrom, type OtherReading } from './range.ts';
import { seen, type SightOptions } from './sight.ts';
import { partsAcross } from '../../geometry/piece-width.ts';

/**
 * Readings of the range to the part of a target seen past a wood, with the eye or the target
 * moved one band across and along the sight line.
 *
 * A wood hides what lies more than its depth behind its edge along each sight line. A line that
 * grazes a corner of the wood runs a short chord through it, and that chord grows fast as either
 * end moves: the edge of what is seen can jump many times further than the eye moved (a shot
 * measured 19.6" to the nearest part seen read 17.8" with every base moved within its sigma). The
 * sight's sigma models a hider's edge, whose shadow moves in proportion; a depth boundary does
 * not, so its range is read again with the ends moved, and each reading is an alternative
 * (alternatives.ts): one that answers otherwise within the band makes the range too close to call.
 */
export function seenPastWoodReadings(
  ctx: BpContext,
  shooter: TableUnit,
  gun: boolean,
  target: TableUnit,
  eye: Vec2,
  eyeSigmaMm: number,
  view: SeenShare,
  sightOpts: SightOptions,
  rangePart: (seenPolys: readonly Polygon[]) => readonly Polygon[],
  toWords: string | undefined,
): OtherReading[] {
  const region = view.region;
  if (!(region.share > 0 && region.share < 1) || !hiddenByWood(ctx, region.hiddenBy)) return [];
  const S = shooter.name;
  const T = target.name;
  const across = view.across;
  const along = { x: across.y, y: -across.x };
  const readings: OtherReading[] = [];
  const reading = (polys: readonly Polygon[], switchMm: number, why: string) => {
    if (polys.length === 0) return;
    readings.push(
      asReading(measureFrom(ctx, shooter, gun, target, rangePart(polys), toWords), switchMm, why),
    );
  };
  // The eye moved: the whole sight again from there (its shadows differ).
  const eyeBand = BP.bandMm(ctx, eyeSigmaMm);
  for (const d of [across, along])
    for (const sign of [1, -1]) {
      const moved = { x: eye.x + sign * eyeBand * d.x, y: eye.y + sign * eyeBand * d.y };
      const v = seen(ctx, moved, eyeSigmaMm, target, { ...sightOpts, keep: false });
      reading(
        v.region.share < 1 ? v.region.polygons : target.bodyPolygons,
        eyeBand,
        `the part of ${T} seen past the wood changes as ${S} moves`,
      );
    }
  // The target moved: the same shadows cut it elsewhere.
  const targetBand = BP.bandMm(ctx, target.sigmaMm);
  for (const k of [0, 1] as const)
    for (const sign of [1, -1]) {
      const { seen: polys, offset } = view.seenAt(k, sign * targetBand);
      // Measured to the moved part put back where the target stands: the target's own move is
      // already in the range's band.
      reading(
        polys.map((p) => p.map((q) => ({ x: q.x - offset.x, y: q.y - offset.y }))),
        targetBand,
        `the part of ${T} seen past the wood changes as ${T} moves`,
      );
    }
  return readings;
}

/** Whether a wood (depth-limited sight) is among what hides the target. */
function hiddenByWood(ctx: BpContext, hiddenBy: readonly { readonly id: string }[]): boolean {
  return hiddenBy.some((h) => ctx.state.terrain.some((t) => t.id === h.id && t.kind === 'wood'));
}

/**
 * The range with the narrow parts seen left out. A part seen through a gap narrower than the
 * sight's band across the line closes when a hider moves that far (sight-share.ts caps "some is
 * seen" the same way); when the nearest part seen is one, the range may as well run to the next
 * part, further off. One reading, with every narrow part closed (the widest of them the move).
 */
export function narrowPartReadings(
  ctx: BpContext,
  shooter: TableUnit,
  gun: boolean,
  target: TableUnit,
  view: SeenShare,
  rangePart: (seenPolys: readonly Polygon[]) => readonly Polygon[],
  toWords: string | undefined,
): OtherReading[] {
  const region = view.region;
  if (!(region.share > 0 && region.share < 1)) return [];
  const band = BP.bandMm(ctx, view.sigmaMm);
  const parts = partsAcross(region.polygons, view.across);
  const narrow = parts.filter((p) => p.width < band);
  if (narrow.length === 0 || narrow.length === parts.length) return [];
  const rest = parts.filter((p) => p.width >= band).flatMap((p) => p.pieces);
  return [
    asReading(
      measureFrom(ctx, shooter, gun, target, rangePart(rest), toWords),
      Math.max(...narrow.map((p) => p.width)),
      `part of ${target.name} is seen only through a narrow gap`,
    ),
  ];
}
