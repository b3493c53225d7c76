import { boxOf, type Box } from './box.ts';
import { booleanPieces } from './region-area.ts';
import { convexHull, isConvex } from './hull.ts';
import { PerEyeCache } from './per-eye-cache.ts';
import type { Polygon } from './polygon.ts';
import { shadowPieces } from './shadow.ts';
import type { Vec2 } from './vec.ts';

/**
 * What a screen hides from an eye (its shadow, with the screen itself for a solid one), built
 * once per eye and screen and cut to each sight window afterwards: every target an eye looks at
 * shares its shadows. The shadows are built in a square `REACH` mm round the eye (no table is
 * that large); a window reaching outside it is built on its own (`hiddenIn` with that window).
 * Depends on the eye and the screen's outline and kind only, so a sight is the same whichever
 * pair asked first.
 */
const REACH = 20_000;

/** Kinds whose hidden region does not depend on the window (woods' depth shadows do). */
export type ShadowKind = 'solid' | 'screen';

/**
 * The hidden polygons of a solid or screen outline seen from `eye` (outside it) within `window`:
 * - solid, convex: one convex polygon, the outline and its shadow together (a segment from the
 *   eye that meets it at two ends meets it between them), or none when it casts no shadow;
 * - solid, concave: the outline and its shadow's convex pieces;
 * - screen: the shadow without the outline itself (what stands on it is seen), as convex pieces.
 */
export function hiddenIn(eye: Vec2, polygon: Polygon, kind: ShadowKind, window: Box): Polygon[] {
  const pieces = shadowPieces(eye, polygon, window);
  if (pieces.length === 0) return kind === 'solid' ? [polygon] : [];
  if (kind === 'screen') return booleanPieces(pieces, [polygon], 'difference').pieces;
  if (isConvex(polygon)) return [convexHull(hullPoints(polygon, pieces))];
  return [polygon, ...pieces];
}

/**
 * The outline's corners and the shadow pieces' other corners (where they leave the window). The
 * pieces repeat the outline's corners as computed copies a rounding error away; a hull fed both
 * can keep two such near twins, and the direction between them (rounding noise) then stops it
 * from removing points that lie inside (a monotone chain only pops against its last edge).
 */
function hullPoints(polygon: Polygon, pieces: readonly Polygon[]): Vec2[] {
  const out: Vec2[] = [...polygon];
  const box = boxOf(polygon);
  const tol = 1e-9 * (1 + Math.max(box.maxX - box.minX, box.maxY - box.minY));
  for (const piece of pieces)
    for (const q of piece) {
      let twin = false;
      for (const p of out)
        if (Math.abs(p.x - q.x) <= tol && Math.abs(p.y - q.y) <= tol) {
          twin = true;
          break;
        }
      if (!twin) out.push(q);
    }
  return out;
}

/** Hidden polygons with their boxes (same order). */
export interface BoxedPolygons {
  readonly polygons: readonly Polygon[];
  readonly boxes: readonly Box[];
}

const boxed = (polygons: readonly Polygon[]): BoxedPolygons => ({ polygons, boxes: polygons.map(boxOf) });

/** Per kind, screen outline, eye x and eye y: its hidden polygons in the square round the eye. */
const byEye = {
  solid: new PerEyeCache<BoxedPolygons>(),
  screen: new PerEyeCache<BoxedPolygons>(),
};

/**
 * hiddenIn for the square round the eye (remembered per outline object and eye), or for `window`
 * itself when the window reaches outside that square, with each polygon's box (every target of
 * the eye tests them against its own box). The polygons may reach outside `window`: cut them to it.
 */
export function eyeHiddenBoxed(eye: Vec2, polygon: Polygon, kind: ShadowKind, window: Box): BoxedPolygons {
  const wide: Box = { minX: eye.x - REACH, minY: eye.y - REACH, maxX: eye.x + REACH, maxY: eye.y + REACH };
  if (
    window.minX < wide.minX ||
    window.minY < wide.minY ||
    window.maxX > wide.maxX ||
    window.maxY > wide.maxY
  )
    return boxed(hiddenIn(eye, polygon, kind, window));
  return byEye[kind].get(polygon, eye, () => boxed(hiddenIn(eye, polygon, kind, wide)));
}

/** eyeHiddenBoxed's polygons alone. */
export const eyeHidden = (eye: Vec2, polygon: Polygon, kind: ShadowKind, window: Box): readonly Polygon[] =>
  eyeHiddenBoxed(eye, polygon, kind, window).polygons;
