import { gapAlongLine, type Gap, type GapObstacle } from '../../geometry/gap.ts';
import { segmentInsidePolygon } from '../../geometry/segment-clip.ts';
import { stripExtent } from '../../geometry/segment-shift.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { pick } from '../engine/options.ts';
import type { Verdict } from '../engine/verdict.ts';
import {
  BP,
  bpVerdict,
  inches,
  inStr,
  lengthVerdict,
  mmOf,
  poss,
  type BpContext,
  type Measured,
} from './context.ts';
import { withAlternatives } from '../engine/alternatives.ts';
import { firstChange } from '../engine/probe.ts';
import { pointToPolygon } from '../../geometry/distance.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { gapObstacles } from './sight.ts';
import type { OtherReading } from './range.ts';
import { GAP_CANNON, GAP_SMALL_ARMS, type Weapon } from './tables.ts';
import { hypot } from '../../geometry/hypot.ts';
import { lengthWords } from '../engine/words.ts';

/**
 * The gap the line of fire (eye → the nearest part of the target in range) passes through, if any,
 * with its two checks: wide enough to shoot through at all (the least gap for a cannon, or for
 * other shooters), and as wide as the shooter's frontage (a clear-target test).
 *
 * The nearest part seen decides the line; another part of `seenParts` within the band as near
 * could as well be the nearest (the seen part moves as hiders and the target do), so when its line
 * passes a gap too narrow and this one does not, or the other way round, whether the gap stops the
 * shot is too close to call.
 */
export function gapChecks(
  ctx: BpContext,
  shooter: TableUnit,
  target: TableUnit,
  eye: Vec2,
  range: Measured,
  gun: boolean,
  weapon: Weapon,
  seenParts: readonly Polygon[],
  hiders: ReadonlySet<string> = new Set(),
  otherRanges: readonly OtherReading[] = [],
): { gap?: Gap; checks: Verdict[] } {
  const S = shooter.name;
  const minGap = gun && weapon.kind === 'cannon' ? GAP_CANNON : GAP_SMALL_ARMS;
  const obstacles = gapObstacles(ctx, new Set([shooter.id, target.id]));
  const band = BP.bandMm(ctx, range.sigmaMm);
  // Gaps up to a band wider than either limit are read too: one only just wide enough is too close
  // to call (apart 45562: a 6.05" gap fell outside the search and the shot read clear of gaps; a
  // hair's move of either flank made it 5.99").
  const wideEnough = Math.max(shooter.frontage, mmOf(minGap)) + 1;
  const searchWidth = wideEnough + band;
  const along = (to: Vec2) => gapAlongLine(eye, to, obstacles, searchWidth, ctx.options.gapReading);
  const narrow = (x: Gap | undefined) => x !== undefined && x.width < mmOf(minGap);
  // One wider than both limits by the band is no gap to the rules, as when beyond the search.
  const found = along(range.to);
  const g =
    found &&
    found.width > wideEnough &&
    found.width - mmOf(minGap) >= band &&
    found.width - shooter.frontage >= band
      ? undefined
      : found;
  const frontageLean = (w: Gap | undefined): 'yes' | 'no' =>
    w === undefined || w.width >= shooter.frontage ? 'yes' : 'no';
  const readingOf = (w: Gap | undefined) => `${narrow(w)} ${frontageLean(w)}`;
  const stepped = endStep(
    (from, to) => gapAlongLine(from, to, obstacles, searchWidth, ctx.options.gapReading),
    eye,
    range.to,
    band,
    (w) => readingOf(w) !== readingOf(g),
  );
  const stepWhy = (st: NonNullable<typeof stepped>) =>
    `with the line of fire ${lengthWords(st.stepMm, 'in')} ${st.longer ? 'longer' : 'shorter'} at its ends (a flank's corner only just ${st.longer ? 'misses' : 'reaches'} beside it), it passes ${st.gap ? `a ${inStr(st.gap.width)} gap` : 'no gap'}`;
  // The same step at the ends of another line of fire `movedMm` from being the one read.
  const endStepDoubt = (to: Vec2, movedMm: number, prefix: string): GapDoubt[] => {
    const st = endStep(
      (from, end) => gapAlongLine(from, end, obstacles, searchWidth, ctx.options.gapReading),
      eye,
      to,
      band - movedMm,
      (w) => readingOf(w) !== readingOf(g),
    );
    return st ? [{ gap: st.gap, switchMm: movedMm + st.stepMm, why: `${prefix}${stepWhy(st)}` }] : [];
  };
  const other = otherAim(eye, range, seenParts, band, (to) => {
    const o = along(to);
    return narrow(o) !== narrow(g) ? { gap: o } : undefined;
  });
  const why = 'another part of the target seen about as near is reached by a line of fire';
  // A flank within the band of a line of fire may as well stand on it: a block, not a side of the
  // gap (the line then threads whatever flanks it without that one). Not one that hides part of
  // the target: the line runs to the part seen, which ends at that one's shadow, so it grazes it
  // wherever it stands. `movedMm`: how far the line itself is from being the one read.
  const flankDoubtsOn = (to: Vec2, w: Gap | undefined, movedMm: number, prefix: string): GapDoubt[] =>
    w === undefined
      ? []
      : (
          [
            [w.left, w.leftPerp],
            [w.right, w.rightPerp],
          ] as const
        )
          .filter(([o, perp]) => movedMm + perp < band && !hiders.has(o.id))
          .map(([o, perp]) => {
            const without = obstacles.filter((x) => x.id !== o.id);
            const gw = gapAlongLine(eye, to, without, searchWidth, ctx.options.gapReading);
            return {
              gap: gw,
              switchMm: movedMm + perp,
              why: `${prefix}${o.label} stands ${lengthWords(perp, 'in')} from the line of fire, and without it ${gw ? `the line passes a ${inStr(gw.width)} gap` : 'it passes no gap'}`,
            };
          });
  // Other readings of the gap: an obstacle the line only just cuts set beside it, and the lines
  // to the range's other readings with their own doubts.
  const lineDoubts = [
    ...crossedBesideReadings(eye, range.to, obstacles, band, hiders, (without) =>
      gapAlongLine(eye, range.to, without, searchWidth, ctx.options.gapReading),
    ),
    ...otherRangeLines(otherRanges, range, band, along, (to, w, movedMm, prefix) => [
      ...flankDoubtsOn(to, w, movedMm, prefix),
      ...endStepDoubt(to, movedMm, prefix),
    ]),
  ];
  if (!g) {
    const checks: Verdict[] = [];
    // No gap on this line, but one on another as near (or a step longer or shorter) too narrow.
    const closeGap = (moveMm: number, doubt: string) =>
      bpVerdict({
        question: 'gap',
        asked: `is the gap wide enough for ${S} to shoot through?`,
        answer: 'borderline',
        lean: 'yes',
        moveMm,
        bandMm: band,
        reasons: [`the line of fire passes no gap; too close to call: ${doubt}`],
        options: pick(ctx.options, 'gapReading'),
      });
    const w = other?.found.gap;
    if (other && w)
      checks.push(
        closeGap(
          other.extraMm,
          `${why} through a ${inStr(w.width)} gap between ${w.left.label} and ${w.right.label} (${inStr(other.extraMm)} further), and ${gun ? 'a gun' : 'infantry and cavalry'} need ${minGap}"`,
        ),
      );
    else if (stepped && narrow(stepped.gap)) checks.push(closeGap(stepped.stepMm, stepWhy(stepped)));
    else {
      const c = lineDoubts.find((x) => narrow(x.gap));
      if (c) checks.push(closeGap(c.switchMm, c.why));
    }
    // A narrower gap a step longer or shorter, or with an obstacle the line only just cuts beside it.
    const narrowerDoubt = lineDoubts.find((x) => frontageLean(x.gap) === 'no');
    const frontageDoubt =
      stepped && frontageLean(stepped.gap) === 'no'
        ? { moveMm: stepped.stepMm, why: stepWhy(stepped) }
        : narrowerDoubt && { moveMm: narrowerDoubt.switchMm, why: narrowerDoubt.why };
    if (frontageDoubt)
      checks.push(
        bpVerdict({
          question: 'gapFrontage',
          asked: `is the gap at least as wide as ${poss(S)} frontage?`,
          role: 'modifier',
          answer: 'borderline',
          lean: 'yes',
          moveMm: frontageDoubt.moveMm,
          bandMm: band,
          reasons: [`the line of fire passes no gap; too close to call: ${frontageDoubt.why}`],
        }),
      );
    return { checks };
  }
  const flankDoubts = flankDoubtsOn(range.to, g, 0, '');
  const doubts = [
    ...flankDoubts,
    ...lineDoubts,
    ...(stepped ? [{ gap: stepped.gap, switchMm: stepped.stepMm, why: stepWhy(stepped) }] : []),
  ];
  const width: Measured = {
    mm: g.width,
    sigmaMm: hypot(shooter.sigmaMm, target.sigmaMm),
    from: g.onLeft,
    to: g.onRight,
    fromName: g.left.label,
    toName: g.right.label,
  };
  const gapCheck = lengthVerdict(
    ctx,
    {
      question: 'gap',
      asked: `is the gap wide enough for ${S} to shoot through?`,
      reasons: [
        `the line of fire passes a ${inStr(g.width)} gap between ${g.left.label} and ${g.right.label}; ${gun ? 'a gun' : 'infantry and cavalry'} need ${minGap}"`,
      ],
      options: pick(ctx.options, 'gapReading'),
      facts: { gapIn: inches(g.width) },
    },
    width,
    'atLeast',
    minGap,
  );
  return {
    gap: g,
    checks: [
      withAlternatives(
        gapCheck,
        [
          ...(other
            ? [
                {
                  lean: narrow(g) ? ('yes' as const) : ('no' as const),
                  switchMm: other.extraMm,
                  why: `${why} ${other.found.gap ? `through a ${inStr(other.found.gap.width)} gap` : 'clear of gaps'}`,
                },
              ]
            : []),
          ...doubts.map((d) => ({
            lean: narrow(d.gap) ? ('no' as const) : ('yes' as const),
            switchMm: d.switchMm,
            why: d.why,
          })),
        ],
        band,
        'in',
      ),
      withAlternatives(
        lengthVerdict(
          ctx,
          {
            question: 'gapFrontage',
            asked: `is the gap at least as wide as ${poss(S)} frontage?`,
            role: 'modifier',
            reasons: [
              `seen through a ${inStr(g.width)} gap against ${poss(S)} ${inStr(shooter.frontage)} frontage`,
            ],
          },
          width,
          'atLeast',
          inches(shooter.frontage),
        ),
        doubts.map((d) => ({ lean: frontageLean(d.gap), switchMm: d.switchMm, why: d.why })),
        band,
        'in',
      ),
    ],
  };
}

/**
 * The line of fire to the nearest part of another reading of the range within the band (the
 * leader on another base it may as well stand on, the part seen as a hider or the target steps):
 * that reading may as well be the range, and its line passes its own gap, or none (apart 83531: a
 * 2.0" gap read a firm no where a hider's step makes another part the nearest, and the line to it
 * passes no gap).
 */
function otherRangeLines(
  others: readonly OtherReading[],
  range: Measured,
  bandMm: number,
  along: (to: Vec2) => Gap | undefined,
  doubtsOn: (to: Vec2, w: Gap | undefined, movedMm: number, prefix: string) => GapDoubt[],
): GapDoubt[] {
  return others
    .filter((o) => o.switchMm < bandMm && hypot(o.to.x - range.to.x, o.to.y - range.to.y) > 1)
    .flatMap((o) => {
      const gap = along(o.to);
      const passes = gap ? `a ${inStr(gap.width)} gap` : 'no gap';
      const prefix = `${o.why}; on the line of fire to the part that reading runs to, `;
      return [
        {
          gap,
          switchMm: o.switchMm,
          why: `${o.why}, and the line of fire to the part that reading runs to passes ${passes}`,
        },
        // That line's own doubts: a flank within the band of it, a step at its ends (apart 64632:
        // the line to the part the leader's other base ranges to passes the same 5.3" gap, and
        // 0.6 mm shorter, none).
        ...doubtsOn(o.to, gap, o.switchMm, prefix),
      ];
    });
}

/** Another reading of the gap within the band: the gap then (or none), how far off, and why. */
interface GapDoubt {
  readonly gap: Gap | undefined;
  readonly switchMm: number;
  readonly why: string;
}

/**
 * The mirror of a flank within the band of the line of fire: an obstacle the line cuts by less
 * than the band (its part within the segment's strip reaches less than that across the line on one
 * side) may as well stand beside it, a side of the gap rather than a block (plain table 15089: a
 * line cutting a friend's corner by 0.97 mm threaded a 5.1" gap beyond it; the friend 1.5 mm
 * aside flanks it, and the gap is 1.0"). Each such obstacle is moved off the line to its nearer
 * side and the gap read again. Not one that hides part of the target: the line runs to the part
 * seen, which ends at that one's shadow.
 */
function crossedBesideReadings(
  eye: Vec2,
  to: Vec2,
  obstacles: readonly GapObstacle[],
  bandMm: number,
  hiders: ReadonlySet<string>,
  gapWith: (obstacles: readonly GapObstacle[]) => Gap | undefined,
): Array<{ gap: Gap | undefined; switchMm: number; why: string }> {
  const len = hypot(to.x - eye.x, to.y - eye.y);
  if (!(len > 0) || !(bandMm > 0)) return [];
  // The left normal of the line (stripExtent measures across it so).
  const left = { x: -(to.y - eye.y) / len, y: (to.x - eye.x) / len };
  const out: Array<{ gap: Gap | undefined; switchMm: number; why: string }> = [];
  obstacles.forEach((o, k) => {
    if (hiders.has(o.id) || segmentInsidePolygon(eye, to, o.polygon).length === 0) return;
    const e = stripExtent(eye, to, o.polygon);
    if (!e || !(e.lo < 0 && e.hi > 0)) return;
    // Off to the left it must move −lo, off to the right hi: the nearer side, and a hundredth of a
    // millimetre more so that it clears the line past rounding.
    const toLeft = -e.lo <= e.hi;
    const clearMm = toLeft ? -e.lo : e.hi;
    if (!(clearMm < bandMm)) return;
    const shift = (toLeft ? 1 : -1) * (clearMm + 0.01);
    const aside = {
      ...o,
      polygon: o.polygon.map((p) => ({ x: p.x + shift * left.x, y: p.y + shift * left.y })),
    };
    const gap = gapWith(obstacles.map((x, i) => (i === k ? aside : x)));
    out.push({
      gap,
      switchMm: clearMm,
      why: `the line of fire cuts ${o.label} by ${lengthWords(clearMm, 'in')}, and with it beside the line ${gap ? `the line passes a ${inStr(gap.width)} gap` : 'it passes no gap'}`,
    });
  });
  return out;
}

/**
 * The first point of the seen parts (nearest first) within `bandMm` as near the eye as the range's
 * and more than a millimetre from it, for which `differs` finds something: with how much further it is.
 */
function otherAim<T>(
  eye: Vec2,
  range: Measured,
  seenParts: readonly Polygon[],
  bandMm: number,
  differs: (to: Vec2) => T | undefined,
): { found: T; extraMm: number } | undefined {
  const d0 = hypot(range.to.x - eye.x, range.to.y - eye.y);
  // Each part's nearest point, and the corners about as near (a near edge square to the line of
  // fire is as near all along: its far end may as well be the nearest).
  const points: Array<{ at: Vec2; distance: number }> = [];
  for (const part of seenParts) {
    const s = pointToPolygon(eye, part);
    points.push({ at: s.onB, distance: s.distance });
    for (const v of part) points.push({ at: v, distance: hypot(v.x - eye.x, v.y - eye.y) });
  }
  const near = points
    .filter((p) => p.distance - d0 <= bandMm && hypot(p.at.x - range.to.x, p.at.y - range.to.y) > 1)
    .sort((a, b) => a.distance - b.distance);
  for (const p of near) {
    const found = differs(p.at);
    if (found !== undefined) return { found, extraMm: Math.max(0, p.distance - d0) };
  }
  return undefined;
}

/**
 * The line of fire lengthened or shortened a step at both ends (the shooter or the target a step
 * along it): a flank whose corner only just reaches beside it, or only just misses, comes or goes.
 * The least step within the band for which `changes` holds of the gap it then passes (narrowed
 * down by bisection), or undefined.
 */
function endStep(
  gapOf: (from: Vec2, to: Vec2) => Gap | undefined,
  eye: Vec2,
  to: Vec2,
  bandMm: number,
  changes: (g: Gap | undefined) => boolean,
): { gap: Gap | undefined; stepMm: number; longer: boolean } | undefined {
  const len = hypot(to.x - eye.x, to.y - eye.y);
  if (!(len > 0) || !(bandMm > 0)) return undefined;
  const u = { x: (to.x - eye.x) / len, y: (to.y - eye.y) / len };
  for (const longer of [true, false]) {
    // Shortened, the line keeps at least a millimetre.
    const most = longer ? bandMm : Math.min(bandMm, (len - 1) / 2);
    if (!(most > 0)) continue;
    const s = longer ? 1 : -1;
    const at = (e: number) =>
      gapOf(
        { x: eye.x - s * e * u.x, y: eye.y - s * e * u.y },
        { x: to.x + s * e * u.x, y: to.y + s * e * u.y },
      );
    const r = firstChange(at, changes, most, 1, 6);
    if (r.found) return { gap: r.value, stepMm: r.offsetMm, longer };
  }
  return undefined;
}
