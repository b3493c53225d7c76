import { bearingDeg } from './cone.ts';
import { containsPoint, type Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/** The smallest bearing off an axis of any point of a polygon, and the point it is found at. */
export interface PolygonBearing {
  /** Degrees in [0, 180]; 0 when the axis ray (or the apex itself) meets the polygon. */
  readonly deg: number;
  readonly at: Vec2;
}

/** Where the ray apex + t·axis (t ≥ 0) first meets segment [a, b], if it does. */
function rayHitsSegment(apex: Vec2, axis: Vec2, a: Vec2, b: Vec2): Vec2 | undefined {
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const denom = axis.x * ey - axis.y * ex;
  if (denom === 0) return undefined;
  const wx = a.x - apex.x;
  const wy = a.y - apex.y;
  const t = (wx * ey - wy * ex) / denom;
  const u = (wx * axis.y - wy * axis.x) / denom;
  if (t < 0 || u < 0 || u > 1) return undefined;
  return { x: apex.x + axis.x * t, y: apex.y + axis.y * t };
}

/**
 * Minimum bearing (unsigned angle off `axis`, seen from `apex`) over every point of a polygon.
 * Seen from a point off its line, the direction along a straight edge turns one way only, so on
 * each edge the smallest bearing is at an end, unless the edge crosses the axis ray (bearing 0).
 * This is the number a "within N degrees of the facing, any part of the target" rule compares.
 */
export function minBearingToPolygon(apex: Vec2, axis: Vec2, poly: Polygon): PolygonBearing {
  if (poly.length >= 3 && containsPoint(poly, apex)) return { deg: 0, at: apex };
  let best: PolygonBearing = { deg: Infinity, at: apex };
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const a = poly[i] as Vec2;
    const d = bearingDeg(apex, axis, a);
    if (d < best.deg) best = { deg: d, at: a };
    if (n > 1) {
      const hit = rayHitsSegment(apex, axis, a, poly[(i + 1) % n] as Vec2);
      if (hit) return { deg: 0, at: hit };
    }
  }
  return best;
}

/** Maximum bearing over the polygon's vertices (the whole polygon lies within it, for convex shapes seen from outside). */
export function maxBearingToPolygon(apex: Vec2, axis: Vec2, poly: Polygon): PolygonBearing {
  let best: PolygonBearing = { deg: -Infinity, at: apex };
  for (const p of poly) {
    const d = bearingDeg(apex, axis, p);
    if (d > best.deg) best = { deg: d, at: p };
  }
  return best;
}

/** Minimum bearing over a set of polygons (a unit's bases). */
export function minBearingToPolygons(apex: Vec2, axis: Vec2, polys: readonly Polygon[]): PolygonBearing {
  let best: PolygonBearing = { deg: Infinity, at: apex };
  for (const p of polys) {
    const b = minBearingToPolygon(apex, axis, p);
    if (b.deg < best.deg) best = b;
  }
  return best;
}
