import type { Polygon } from '../../geometry/polygon.ts';
import type { SeenShare } from '../engine/sight-share.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { BP, type BpContext, type Measured } from './context.ts';
import { asReading, measureFrom, type OtherReading } from './range.ts';
import { firstChange } from '../engine/probe.ts';
import { boxOfAll } from '../../geometry/box.ts';
import { seen, type SightOptions } from './sight.ts';
import { partsAcross } from '../../geometry/piece-width.ts';

/** A range to the part of a target seen, as the shot measures it: from whom, to what, in words. */
export interface RangeToSeen {
  readonly ctx: BpContext;
  readonly shooter: TableUnit;
  readonly gun: boolean;
  readonly target: TableUnit;
  readonly view: SeenShare;
  /** The part of the seen polygons the range runs to (the front quarter's, by option). */
  readonly rangePart: (seenPolys: readonly Polygon[]) => readonly Polygon[];
  readonly toWords: string | undefined;
}

/** The range to `polys` (seen), as the shot measures it. */
const rangeTo = (r: RangeToSeen, polys: readonly Polygon[]): Measured =>
  measureFrom(r.ctx, r.shooter, r.gun, r.target, r.rangePart(polys), r.toWords);

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
  r: RangeToSeen,
  eye: Vec2,
  eyeSigmaMm: number,
  sightOpts: SightOptions,
): OtherReading[] {
  const { ctx, shooter, target, view } = r;
  const region = view.region;
  if (!(region.share > 0 && region.share < 1) || !hiddenByWood(ctx, region.hiddenBy)) return [];
  const S = shooter.name;
  const T = target.name;
  const across = view.across;
  const along = { x: across.y, y: -across.x };
  const readings: OtherReading[] = [];
  const reading = (polys: readonly Polygon[], switchMm: number, why: string) => {
    if (polys.length === 0) return;
    readings.push(asReading(rangeTo(r, polys), switchMm, why));
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
      reading(
        seenPutBack(view, k, sign * targetBand),
        targetBand,
        `the part of ${T} seen past the wood changes as ${T} moves`,
      );
    }
  return readings;
}

/**
 * The target stepped along the sight line, a quarter band at a time, against a range limit, when
 * a wood hides some of it: the wood's depth boundary cuts the target elsewhere as it moves along,
 * and the sliver seen can vanish before the full band while another shows further on (a carbine's
 * nearest part seen read 5.7" as reported, 11.1" from the leader with the target 1.6 mm further
 * off, and none a full band on). Across, seenPartAcrossReadings steps it already.
 */
export function seenPastWoodAlongReadings(r: RangeToSeen, limitMm: number): OtherReading[] {
  const { ctx, target, view } = r;
  if (!hiddenByWood(ctx, view.region.hiddenBy)) return [];
  return seenPartReadings(
    r,
    limitMm,
    [(offsetMm) => seenPutBack(view, 1, offsetMm)],
    `the part of ${target.name} seen past the wood changes as ${target.name} moves`,
  );
}

/**
 * The part seen with the target moved `offsetMm` across (k = 0) or along (k = 1) the sight line,
 * put back where the target stands: a range to it is measured as if the target had not moved (its
 * own move is already in the range's band), so only the shadows' cut of it changes.
 */
function seenPutBack(view: SeenShare, k: 0 | 1, offsetMm: number): readonly Polygon[] {
  const { seen: polys, offset } = view.seenAt(k, offsetMm);
  return polys.map((p) => p.map((q) => ({ x: q.x - offset.x, y: q.y - offset.y })));
}

/** Whether a wood (depth-limited sight) is among what hides the target. */
function hiddenByWood(ctx: BpContext, hiddenBy: readonly { readonly id: string }[]): boolean {
  return hiddenBy.some((h) => ctx.state.terrain.some((t) => t.id === h.id && t.kind === 'wood'));
}

/**
 * The range to the part seen with the target moved across the sight line, for any target partly
 * hidden. The part seen ends where a shadow's edge crosses the target; where that edge meets the
 * target's outline at a slant (a line of bases seen past a unit at a shallow angle), a step across
 * slides the nearest point seen along the outline many times as far, and the range with it. The
 * sight's band is how far the edge may stand otherwise against the target: a step within it that
 * takes the range across `limitMm` is narrowed down by bisection and is a reading of the range.
 */
export function seenPartAcrossReadings(r: RangeToSeen, limitMm: number): OtherReading[] {
  const { view, target } = r;
  return seenPartReadings(
    r,
    limitMm,
    [(offsetMm) => seenPutBack(view, 0, offsetMm)],
    `the part of ${target.name} seen changes as a shadow's edge crosses it`,
  );
}

/**
 * The range to the part seen with each unit that hides some of the target moved across the sight
 * line (its shadow cast again): a unit near the eye swings its shadow's edge along the target many
 * times as far as it moves, and the nearest part seen can jump with it.
 */
export function seenPartHiderReadings(r: RangeToSeen, limitMm: number): OtherReading[] {
  const moves = r.view.hiderMovedSeen?.() ?? [];
  return moves.length
    ? seenPartReadings(
        r,
        limitMm,
        moves,
        `the part of ${r.target.name} seen changes as a unit that hides it moves`,
      )
    : [];
}

/**
 * Readings of the range to the part seen as `seenAt` (one function per way of moving) steps out to
 * the sight's band each way: a step that takes the range across `limitMm` is narrowed down by
 * bisection and is a reading of the range, that far off.
 */
function seenPartReadings(
  r: RangeToSeen,
  limitMm: number,
  seenAt: ReadonlyArray<(offsetMm: number) => readonly Polygon[]>,
  why: string,
): OtherReading[] {
  const { ctx, shooter, gun, target, view, toWords } = r;
  const region = view.region;
  if (!(region.share > 0 && region.share < 1)) return [];
  const band = BP.bandMm(ctx, view.sigmaMm);
  if (!(band > 0)) return [];
  // Only where the limit falls across the target can any part seen answer otherwise.
  const whole = measureFrom(ctx, shooter, gun, target, target.bodyPolygons, toWords).mm;
  const b = boxOfAll(target.bodyPolygons);
  if (whole > limitMm || whole + Math.hypot(b.maxX - b.minX, b.maxY - b.minY) < limitMm) return [];
  const m0 = rangeTo(r, region.polygons);
  const within = (m: { readonly mm: number }) => m.mm <= limitMm;
  const lean0 = within(m0);
  const flipped = (m: Measured | undefined): m is Measured => m !== undefined && within(m) !== lean0;
  const out: OtherReading[] = [];
  for (const at of seenAt) {
    for (const sign of [1, -1]) {
      // Each offset is measured once: the two searches below step through the same ones.
      const readings = new Map<number, Measured | undefined>();
      let hid = false;
      const measured = (offsetMm: number) => {
        if (readings.has(offsetMm)) return readings.get(offsetMm);
        const polys = at(sign * offsetMm);
        const m = polys.length === 0 ? undefined : rangeTo(r, polys);
        if (!m) hid = true;
        readings.set(offsetMm, m);
        return m;
      };
      // Stepped out a quarter band at a time: a step further may hide the target whole, and a
      // hidden end says nothing of the range between.
      let found = firstChange(measured, flipped, band, 4, 4);
      // But the last part seen before the target goes may be past the limit: a near corner slips
      // behind the hider first, and the part left is further (plain 17887: 1.7" to a corner seen
      // by 1.6 mm, 6.0" to the next base, hidden whole a quarter band on). Where a step hid it,
      // the first step that hides it or crosses the limit is narrowed down.
      if (!found.found && hid)
        found = firstChange(measured, (m) => m === undefined || flipped(m), band, 4, 6);
      if (found.found && found.value) out.push(asReading(found.value, found.offsetMm, why));
    }
  }
  return out;
}

/**
 * The range with the narrow parts seen left out. A part seen through a gap narrower than the
 * sight's band across the line closes when a hider moves that far (sight-share.ts caps "some is
 * seen" the same way); when the nearest part seen is one, the range may as well run to the next
 * part, further off. One reading, with every narrow part closed (the widest of them the move).
 */
export function narrowPartReadings(r: RangeToSeen): OtherReading[] {
  const { ctx, target, view } = r;
  const region = view.region;
  if (!(region.share > 0 && region.share < 1)) return [];
  const band = BP.bandMm(ctx, view.sigmaMm);
  const parts = partsAcross(region.polygons, view.across);
  const narrow = parts.filter((p) => p.width < band);
  if (narrow.length === 0 || narrow.length === parts.length) return [];
  const rest = parts.filter((p) => p.width >= band).flatMap((p) => p.pieces);
  return [
    asReading(
      rangeTo(r, rest),
      Math.max(...narrow.map((p) => p.width)),
      `part of ${target.name} is seen only through a narrow gap`,
    ),
  ];
}
