import { gapAlongLine, type Gap } from '../../geometry/gap.ts';
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
import { pointToPolygon } from '../../geometry/distance.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { gapObstacles } from './sight.ts';
import { GAP_CANNON, GAP_SMALL_ARMS, type Weapon } from './tables.ts';
import { hypot } from '../../geometry/hypot.ts';

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
): { gap?: Gap; checks: Verdict[] } {
  const S = shooter.name;
  const minGap = gun && weapon.kind === 'cannon' ? GAP_CANNON : GAP_SMALL_ARMS;
  const obstacles = gapObstacles(ctx, new Set([shooter.id, target.id]));
  const along = (to: Vec2) =>
    gapAlongLine(eye, to, obstacles, Math.max(shooter.frontage, mmOf(minGap)) + 1, ctx.options.gapReading);
  const narrow = (x: Gap | undefined) => x !== undefined && x.width < mmOf(minGap);
  const g = along(range.to);
  const other = otherAim(eye, range, seenParts, BP.bandMm(ctx, range.sigmaMm), (to) => {
    const o = along(to);
    return narrow(o) !== narrow(g) ? { gap: o } : undefined;
  });
  const why = 'another part of the target seen about as near is reached by a line of fire';
  if (!g) {
    if (!other?.found.gap) return { checks: [] };
    const w = other.found.gap;
    return {
      checks: [
        bpVerdict({
          question: 'gap',
          asked: `is the gap wide enough for ${S} to shoot through?`,
          answer: 'borderline',
          lean: 'yes',
          moveMm: other.extraMm,
          bandMm: BP.bandMm(ctx, range.sigmaMm),
          reasons: [
            `the line of fire passes no gap; too close to call: ${why} through a ${inStr(w.width)} gap between ${w.left.label} and ${w.right.label} (${inStr(other.extraMm)} further), and ${gun ? 'a gun' : 'infantry and cavalry'} need ${minGap}"`,
          ],
          options: pick(ctx.options, 'gapReading'),
        }),
      ],
    };
  }
  // A flank within the band of the line of fire may as well stand on it: a block, not a side of
  // the gap (the line then threads whatever flanks it without that one). Not one that hides part
  // of the target: the line runs to the part seen, which ends at that one's shadow, so it grazes
  // it wherever it stands.
  const band = BP.bandMm(ctx, range.sigmaMm);
  const flankDoubts = (
    [
      [g.left, g.leftPerp],
      [g.right, g.rightPerp],
    ] as const
  )
    .filter(([o, perp]) => perp < band && !hiders.has(o.id))
    .map(([o, perp]) => {
      const without = obstacles.filter((x) => x.id !== o.id);
      const w = gapAlongLine(
        eye,
        range.to,
        without,
        Math.max(shooter.frontage, mmOf(minGap)) + 1,
        ctx.options.gapReading,
      );
      return { gap: w, switchMm: perp, why: `${o.label} stands ${inStr(perp)} from the line of fire` };
    });
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
  const flankWhy = (d: (typeof flankDoubts)[number]) =>
    `${d.why}, and without it ${d.gap ? `the line passes a ${inStr(d.gap.width)} gap` : 'it passes no gap'}`;
  const frontageLean = (w: Gap | undefined): 'yes' | 'no' =>
    w === undefined || w.width >= shooter.frontage ? 'yes' : 'no';
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
          ...flankDoubts.map((d) => ({
            lean: narrow(d.gap) ? ('no' as const) : ('yes' as const),
            switchMm: d.switchMm,
            why: flankWhy(d),
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
        flankDoubts.map((d) => ({ lean: frontageLean(d.gap), switchMm: d.switchMm, why: flankWhy(d) })),
        band,
        'in',
      ),
    ],
  };
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
