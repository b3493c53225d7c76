import { isConvex } from './hull.ts';
import type { Polygon } from './polygon.ts';

/**
 * Whether a convex polygon holds every vertex of the given polygons (on its boundary counts):
 * then it holds all of them, since each lies within the convex hull of its vertices. Undefined
 * answer for a concave `cover`: false.
 */
export function convexCovers(cover: Polygon, polys: readonly Polygon[]): boolean {
  const n = cover.length;
  if (n < 3 || !isConvex(cover)) return false;
  let twice = 0;
  for (let i = 0; i < n; i++) {
    const a = cover[i] as Polygon[number];
    const b = cover[(i + 1) % n] as Polygon[number];
    twice += a.x * b.y - b.x * a.y;
  }
  if (twice === 0) return false;
  const orient = Math.sign(twice);
  for (let i = 0; i < n; i++) {
    const a = cover[i] as Polygon[number];
    const b = cover[(i + 1) % n] as Polygon[number];
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    for (const p of polys)
      for (const q of p) if ((ex * (q.y - a.y) - ey * (q.x - a.x)) * orient < 0) return false;
  }
  return true;
}
