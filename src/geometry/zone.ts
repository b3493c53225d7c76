import { areaInsideConvex } from './convex-clip.ts';
import { polygonSetSeparation } from './distance.ts';
import { polygonArea, signedArea, type Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/**
 * A unit against a convex zone (a front quarter, a cone of fire, the strip straight ahead): the
 * share of it inside, and how far it would have to move to change a "some of it is inside" or
 * "all of it is inside" answer. Exact for convex pieces (bases), by the separating axis theorem.
 */
export interface ZoneReading {
  /** Share of the pieces' area inside the zone, [0, 1]. */
  readonly share: number;
  /** Area inside the zone, mm². */
  readonly insideArea: number;
  /**
   * How far the pieces must move to change "some part is inside": when none is, the gap to the
   * zone; when some is, the shortest push that takes every piece out of it.
   */
  readonly anyMoveMm: number;
  /**
   * How far they must move to change "all of it is inside": when all is, the least depth of any
   * corner inside the zone; when not all is, the shortest push that brings every corner inside
   * (the distance of the farthest corner outside, along the zone's edges' normals).
   */
  readonly allMoveMm: number;
  /** The two points the gap or depth runs between (piece, zone), for drawing. */
  readonly between: readonly [Vec2, Vec2];
}

/** Outward unit normals of a convex polygon's edges, with each edge's start point. */
function edgeNormals(poly: Polygon): Array<{ n: Vec2; at: Vec2 }> {
  const ccw = signedArea(poly) >= 0;
  const out: Array<{ n: Vec2; at: Vec2 }> = [];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i] as Vec2;
    const b = poly[(i + 1) % poly.length] as Vec2;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = hypot(dx, dy);
    if (len === 0) continue;
    // Outward: right of the edge for a counter-clockwise polygon.
    const n = ccw ? { x: dy / len, y: -dx / len } : { x: -dy / len, y: dx / len };
    out.push({ n, at: a });
  }
  return out;
}

/** The least and greatest of the points' projections on n. */
export const spanAlong = (pts: readonly Vec2[], n: Vec2): [number, number] => {
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of pts) {
    const d = p.x * n.x + p.y * n.y;
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  return [lo, hi];
};

/**
 * Shortest translation taking every piece out of a convex zone: over the separating axes (the
 * zone's edge normals and the pieces'), the least push along one that clears them all.
 */
function escapeDistance(pieces: readonly Polygon[], zone: Polygon): number {
  const axes = [...edgeNormals(zone), ...pieces.flatMap((p) => edgeNormals(p))].map((e) => e.n);
  const spans = (n: Vec2) => pieces.map((p) => spanAlong(p, n));
  /** Least push s ≥ 0 along n after which no piece's span overlaps the zone's [lo, hi]. */
  const push = (ps: ReadonlyArray<[number, number]>, lo: number, hi: number): number => {
    let s = 0;
    for (let changed = true; changed;) {
      changed = false;
      for (const [plo, phi] of ps)
        if (phi + s > lo && plo + s < hi && hi - plo > s) {
          s = hi - plo;
          changed = true;
        }
    }
    return s;
  };
  let best = Infinity;
  for (const n of axes) {
    const [zlo, zhi] = spanAlong(zone, n);
    const ps = spans(n);
    best = Math.min(
      best,
      push(ps, zlo, zhi),
      push(
        ps.map(([a, b]) => [-b, -a] as [number, number]),
        -zhi,
        -zlo,
      ),
    );
  }
  return best;
}

export function zoneReading(pieces: readonly Polygon[], zone: Polygon): ZoneReading {
  const whole = pieces.reduce((s, p) => s + polygonArea(p), 0);
  const insideArea = areaInsideConvex(pieces, zone);
  const share = whole === 0 ? 0 : Math.min(1, insideArea / whole);
  const edges = edgeNormals(zone);
  // Signed depth of each corner inside the zone: the least distance to an edge line (negative outside).
  let minDepth = Infinity;
  let minAt: Vec2 | undefined;
  let maxOut = 0;
  let maxOutAt: Vec2 | undefined;
  for (const p of pieces)
    for (const v of p) {
      let depth = Infinity;
      let outside = 0;
      for (const e of edges) {
        const d = (e.at.x - v.x) * e.n.x + (e.at.y - v.y) * e.n.y;
        depth = Math.min(depth, d);
        if (d < 0) outside = Math.max(outside, -d);
      }
      if (depth < minDepth) {
        minDepth = depth;
        minAt = v;
      }
      if (outside > maxOut) {
        maxOut = outside;
        maxOutAt = v;
      }
    }
  const sep = polygonSetSeparation(pieces, [zone]);
  const someInside = insideArea > 0 || sep.distance === 0;
  const anyMoveMm = someInside ? escapeDistance(pieces, zone) : sep.distance;
  const allInside = minDepth >= 0;
  const allMoveMm = allInside ? minDepth : maxOut;
  const at = allInside ? minAt : maxOutAt;
  return {
    share,
    insideArea,
    anyMoveMm,
    allMoveMm,
    between: someInside ? [at ?? sep.onA, at ?? sep.onB] : [sep.onA, sep.onB],
  };
}
