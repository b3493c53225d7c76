import { intersectionArea, regionArea, regionDifferenceArea } from './boolean.ts';
import { booleanArea, booleanPieces } from './region-area.ts';
import { eyeHiddenBoxed } from './eye-shadow.ts';
import { boxesMeet, boxOf, boxOfAll, type Box } from './box.ts';
import { areaInsideConvex, clipToConvex } from './convex-clip.ts';
import {
  convexCovers,
  convexPolygonCoversMoved,
  convexPolygonCoversMovedIn,
  unionCovers,
} from './convex-cover.ts';
import { depthShadowNear } from './depth-shadow.ts';
import { isConvex } from './hull.ts';
import { pointToPolygonSet } from './distance.ts';
import { containsPoint, type Polygon } from './polygon.ts';
import { sortStable } from './sort-stable.ts';
import { piecesApart } from './target-pieces.ts';
import type { Vec2 } from './vec.ts';

/**
 * The exact part of a target seen from an eye: the target's footprint minus everything that
 * hides it, each hider's hidden region built as polygons and cut away with polygon booleans.
 * Three kinds of hider:
 * - `solid`: its own footprint and its shadow (another unit's base: nothing is seen through or
 *   under it; an eye inside one sees nothing);
 * - `screen`: its shadow but not its own inside (a building, a hill lying between: what stands
 *   on or in it is seen; an eye inside one is not hidden by it);
 * - `wood`: what lies behind more than `depthMm` of it (`depthShadow`); depth 0 makes it a screen
 *   that also hides its own inside;
 * - `area`: only its own inside (cover: a unit in a wood is covered, one behind it is not).
 */
export type ScreenKind = 'solid' | 'screen' | 'wood' | 'area';

export interface SightScreen {
  readonly id: string;
  readonly label: string;
  readonly polygon: Polygon;
  readonly box: Box;
  readonly kind: ScreenKind;
  /** Woods: how far a sight line may run inside before it is blocked, mm. */
  readonly depthMm?: number;
}

export const sightScreen = (
  id: string,
  label: string,
  polygon: Polygon,
  kind: ScreenKind,
  depthMm?: number,
): SightScreen => ({
  id,
  label,
  polygon,
  box: boxOf(polygon),
  kind,
  ...(depthMm === undefined ? {} : { depthMm }),
});

/** What one hider hides, as polygons (within a window). */
export interface Hidden {
  readonly screen: SightScreen;
  readonly polygons: readonly Polygon[];
  /**
   * Each polygon's box and convexity (same order), when the builder worked them out
   * (`hiddenRegions` does): every probe of the sight tests the same polygons.
   */
  readonly facts?: readonly PolygonFacts[];
}

export interface PolygonFacts {
  readonly box: Box;
  /** isConvex of the polygon. */
  readonly convex: boolean;
}

/**
 * A seen share below this is floating-point dust, not a part of the target: the booleans leave
 * slivers of 10⁻¹¹ of a target where shadows meet its outline exactly (O'er the Sea plain table
 * 9048: a perturbed table's target "2.6·10⁻⁹ % in sight" past a wood, so seen). Far below any
 * share a move within the band makes (a band of millimetres shows square millimetres).
 */
export const DUST_SHARE = 1e-9;

/** A seen area as a share of the target: dust is none, and no share is more than the whole. */
export const shareSeen = (seenArea: number, targetArea: number): number => {
  const share = seenArea / targetArea;
  return share < DUST_SHARE ? 0 : Math.min(1, share);
};

const factsOf = (p: Polygon, box: Box = boxOf(p)): PolygonFacts => ({ box, convex: isConvex(p) });

/**
 * A box that misses another by more than this (mm) on some axis still misses it after a polygon
 * inside it is clipped: the clipped corners are interpolated along its edges, a few ulps at most
 * outside it. So the clipping can be skipped.
 */
const MISS_MM = 1e-6;

const apart = (a: Box, b: Box): boolean =>
  a.maxX < b.minX - MISS_MM ||
  b.maxX < a.minX - MISS_MM ||
  a.maxY < b.minY - MISS_MM ||
  b.maxY < a.minY - MISS_MM;

export interface VisibleRegion {
  /**
   * The part of the target seen, as pieces whose union it is (trapezoids from the slab sweep of
   * region-area.ts, or the target's own outlines when nothing cuts it): for distances and the
   * nearest point, not for drawing outlines.
   */
  readonly polygons: readonly Polygon[];
  /** Seen area over the target's area, [0, 1]. */
  readonly share: number;
  readonly targetArea: number;
  /** Hiders that cut into the target, with the share of the target each hides (largest first). */
  readonly hiddenBy: ReadonlyArray<{ readonly id: string; readonly label: string; readonly share: number }>;
  /** The point of the seen part nearest the eye. */
  readonly nearest?: Vec2;
  /** Whether the eye stands inside a solid hider (it sees nothing). */
  readonly blind?: string;
}

/**
 * Hidden polygons cut to a box round the target (which it contains): the convex ones exactly, by
 * Sutherland–Hodgman, so the booleans that follow see a few short outlines instead of shadows
 * running across the table; concave ones (a wood's depth shadow) are passed whole.
 */
export function cutToBox(polys: readonly Polygon[], b: Box, facts?: readonly PolygonFacts[]): Polygon[] {
  const m = 1;
  const rect: Polygon = [
    { x: b.minX - m, y: b.minY - m },
    { x: b.maxX + m, y: b.minY - m },
    { x: b.maxX + m, y: b.maxY + m },
    { x: b.minX - m, y: b.maxY + m },
  ];
  const out: Polygon[] = [];
  for (let i = 0; i < polys.length; i++) {
    const p = polys[i] as Polygon;
    const f = facts?.[i];
    if (!boxesMeet(f ? f.box : boxOf(p), b)) continue;
    if (!(f ? f.convex : isConvex(p))) out.push(p);
    else {
      const c = clipToConvex(p, rect);
      if (c.length >= 3) out.push(c);
    }
  }
  return out;
}

/** The box of the eye and the target, grown by `margin`: shadows are cut to it. */
export function sightWindow(eye: Vec2, targetBox: Box, margin: number): Box {
  return {
    minX: Math.min(targetBox.minX, eye.x) - margin,
    minY: Math.min(targetBox.minY, eye.y) - margin,
    maxX: Math.max(targetBox.maxX, eye.x) + margin,
    maxY: Math.max(targetBox.maxY, eye.y) + margin,
  };
}

/** The window as a polygon, to cut convex hidden polygons to. */
const windowRect = (w: Box): Polygon => [
  { x: w.minX, y: w.minY },
  { x: w.maxX, y: w.minY },
  { x: w.maxX, y: w.maxY },
  { x: w.minX, y: w.maxY },
];

/**
 * The regions each screen hides from the eye within `window`, keeping only those that reach
 * `near` (a box round the target). Returns `blind` when the eye is inside a solid screen.
 * Shadows of solids and screens are built once per eye (`eyeHidden`) and cut to the window here;
 * a wood's depth shadow is built for the window.
 */
export function hiddenRegions(
  eye: Vec2,
  screens: readonly SightScreen[],
  window: Box,
  near: Box,
): { hidden: Hidden[]; blind?: SightScreen } {
  const hidden: Hidden[] = [];
  let rect: Polygon | undefined;
  const eyeBox: Box = { minX: eye.x, minY: eye.y, maxX: eye.x, maxY: eye.y };
  for (const s of screens) {
    if (!boxesMeet(s.box, window)) continue;
    // An eye outside the screen's box (by more than rounding) is not inside it.
    const inside = !apart(s.box, eyeBox) && containsPoint(s.polygon, eye);
    if (s.kind === 'solid' && inside) return { hidden: [], blind: s };
    // Made when something reaches the target (most screens in a window hide nothing of it).
    let reaching: Polygon[] | undefined;
    let facts: PolygonFacts[] | undefined;
    if (s.kind === 'area') {
      if (boxesMeet(s.box, near)) {
        reaching = [s.polygon];
        facts = [factsOf(s.polygon, s.box)];
      }
    } else if (s.kind === 'wood') {
      for (const p of depthShadowNear(eye, s.polygon, s.depthMm ?? 0, window, near)) {
        (reaching ??= []).push(p);
        (facts ??= []).push(factsOf(p));
      }
    } else if (!inside) {
      const shadows = eyeHiddenBoxed(eye, s.polygon, s.kind, window);
      for (let i = 0; i < shadows.polygons.length; i++) {
        // Most of an eye's shadows miss this target whole: not cut to the window (their cut
        // part would miss it too; three in four cuts were thrown away).
        if (apart(shadows.boxes[i] as Box, near)) continue;
        const p = shadows.polygons[i] as Polygon;
        rect ??= windowRect(window);
        // A concave solid's own outline is kept whole; every other hidden polygon is convex.
        const cut = p === s.polygon ? p : clipToConvex(p, rect);
        if (cut.length < 3) continue;
        const box = boxOf(cut);
        if (boxesMeet(box, near)) {
          (reaching ??= []).push(cut);
          (facts ??= []).push(factsOf(cut, box));
        }
      }
    }
    if (reaching && facts) hidden.push({ screen: s, polygons: reaching, facts });
  }
  return { hidden };
}

/**
 * The area of the target under the polygons: by clipping when they are one convex polygon and the
 * target's outlines are apart (`piecesApart`), else by the slab sweep.
 */
function areaUnder(target: readonly Polygon[], polys: readonly Polygon[], apart: boolean): number {
  if (polys.length === 1 && apart && isConvex(polys[0] as Polygon))
    return areaInsideConvex(target, polys[0] as Polygon);
  return intersectionArea(target, polys);
}

/**
 * The part of `target` outside the hidden polygons `all` (cut to its box): its area, and its
 * pieces when asked. Nothing is swept when one convex polygon, or their union, holds it whole.
 * What visibleGiven and visibleShare both read the share from.
 */
export function seenOutside(
  target: readonly Polygon[],
  all: readonly Polygon[],
  withPieces: boolean,
): { pieces: Polygon[]; area: number } {
  if (all.some((p) => convexCovers(p, target)) || unionCovers(all, target)) return { pieces: [], area: 0 };
  return withPieces
    ? booleanPieces(target, all, 'difference')
    : { pieces: [], area: booleanArea(target, all, 'difference') };
}

/** The seen part of `target` given what hides it (from `hiddenRegions`). */
export function visibleGiven(
  eye: Vec2,
  target: readonly Polygon[],
  hidden: readonly Hidden[],
  targetArea = regionArea(target),
  apart = piecesApart(target),
): VisibleRegion {
  const tb = boxOfAll(target);
  // Only the polygons that reach the target's box go to the (costly) booleans.
  const cutting = hidden
    .map((h) => ({ screen: h.screen, polygons: cutToBox(h.polygons, tb, h.facts) }))
    .filter((h) => h.polygons.length > 0);
  if (cutting.length === 0 || targetArea === 0) {
    const polygons = target.map((p) => [...p]);
    return {
      polygons,
      share: targetArea === 0 ? 0 : 1,
      targetArea,
      hiddenBy: [],
      ...(polygons.length ? { nearest: pointToPolygonSet(eye, polygons).onB } : {}),
    };
  }
  const all: Polygon[] = [];
  for (const h of cutting) for (const p of h.polygons) all.push(p);
  const coveredBy = (polys: readonly Polygon[]) => polys.some((p) => convexCovers(p, target));
  const swept = seenOutside(target, all, true);
  const share = shareSeen(swept.area, targetArea);
  // Dust seen is nothing seen: no piece of it is a part to range to.
  const seen = share === 0 ? { pieces: [], area: 0 } : swept;
  const hiddenBy =
    cutting.length === 1
      ? [
          {
            id: (cutting[0] as Hidden).screen.id,
            label: (cutting[0] as Hidden).screen.label,
            share: 1 - share,
          },
        ]
      : sortStable(
          cutting
            .map((h) => ({
              id: h.screen.id,
              label: h.screen.label,
              share: coveredBy(h.polygons)
                ? 1
                : Math.min(1, areaUnder(target, h.polygons, apart) / targetArea),
            }))
            .filter((h) => h.share > 1e-12),
          (a, b) => b.share - a.share,
        );
  return {
    polygons: seen.pieces,
    share,
    targetArea,
    hiddenBy: hiddenBy.filter((h) => h.share > 1e-12),
    ...(seen.pieces.length ? { nearest: pointToPolygonSet(eye, seen.pieces).onB } : {}),
  };
}

/**
 * Only the seen share of `target` given what hides it: what probes need, the target moved a
 * little each time. Hidden polygons are kept one by one when their box meets the target's, and
 * neither outlines nor each hider's part are built.
 */
export function seenShareGiven(
  target: readonly Polygon[],
  hidden: readonly Hidden[],
  targetArea = regionArea(target),
  apart = piecesApart(target),
): number {
  if (targetArea === 0 || heldByWholeHider(target, 0, 0, hidden)) return 0;
  return shareNotWhollyCovered(target, hidden, targetArea, apart);
}

/**
 * Whether one whole hidden polygon, convex, holds the target moved by (dx, dy). Most probes of a
 * hidden target stay inside one hider's convex shadow: tried on the whole polygons before any is
 * cut to the target's box (the cut part holds the target when the whole does, the target being
 * inside that box; the same up to rounding at the boundary).
 */
function heldByWholeHider(
  target: readonly Polygon[],
  dx: number,
  dy: number,
  hidden: readonly Hidden[],
): boolean {
  for (const h of hidden)
    for (let i = 0; i < h.polygons.length; i++) {
      const f = h.facts?.[i];
      const p = h.polygons[i] as Polygon;
      const convex = f ? f.convex : p.length >= 3 && isConvex(p);
      if (
        convex &&
        (f
          ? convexPolygonCoversMovedIn(p, f.box, target, dx, dy)
          : convexPolygonCoversMoved(p, target, dx, dy))
      )
        return true;
    }
  return false;
}

/**
 * seenShareGiven of the target moved by (dx, dy) (each vertex q at q.x + dx, q.y + dy): the
 * moved copy is built only when no whole hidden polygon holds it (two in three probes end there).
 */
export function seenShareGivenMoved(
  target: readonly Polygon[],
  dx: number,
  dy: number,
  hidden: readonly Hidden[],
  targetArea: number,
  apart: boolean,
): number {
  if (targetArea === 0 || heldByWholeHider(target, dx, dy, hidden)) return 0;
  const at = target.map((p) => p.map((q) => ({ x: q.x + dx, y: q.y + dy })));
  return shareNotWhollyCovered(at, hidden, targetArea, apart);
}

/** seenShareGiven once no whole hidden polygon holds the target. */
function shareNotWhollyCovered(
  target: readonly Polygon[],
  hidden: readonly Hidden[],
  targetArea: number,
  apart: boolean,
): number {
  const tb = boxOfAll(target);
  const cutting: Polygon[] = [];
  for (const h of hidden) cutting.push(...cutToBox(h.polygons, tb, h.facts));
  if (cutting.length === 0) return 1;
  if (cutting.some((p) => convexCovers(p, target)) || unionCovers(cutting, target)) return 0;
  const seen =
    cutting.length === 1 && apart && isConvex(cutting[0] as Polygon)
      ? targetArea - areaInsideConvex(target, cutting[0] as Polygon)
      : regionDifferenceArea(target, cutting);
  return shareSeen(seen, targetArea);
}

/** The exact part of `target` seen from `eye` past the screens. */
export function visibleRegion(
  eye: Vec2,
  target: readonly Polygon[],
  screens: readonly SightScreen[],
): VisibleRegion {
  const tb = boxOfAll(target);
  const { hidden, blind } = hiddenRegions(eye, screens, sightWindow(eye, tb, 1), tb);
  if (blind)
    return {
      polygons: [],
      share: 0,
      targetArea: regionArea(target),
      hiddenBy: [{ id: blind.id, label: blind.label, share: 1 }],
      blind: blind.label,
    };
  return visibleGiven(eye, target, hidden);
}
