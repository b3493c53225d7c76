import { polygonArea, signedArea, type Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/**
 * Clips a polygon by a convex polygon (Sutherland–Hodgman). Exact for convex subjects; for a
 * concave subject the result may carry zero-width slivers, which do not change its area.
 * Unlike a general boolean engine it cannot fail on touching edges or vertices lying on an
 * edge — the cases a quarter ray through a base corner produces.
 */
export function clipToConvex(subject: Polygon, convex: Polygon): Vec2[] {
  const ccw = signedArea(convex) >= 0;
  let out: readonly Vec2[] = subject;
  const n = convex.length;
  // The side test is written out inline (no closure per edge: under tsx every closure made is
  // also named, which cost more than the clipping on the all-pairs table).
  for (let i = 0; i < n && out.length > 0; i++) {
    const a = convex[i] as Vec2;
    const b = convex[(i + 1) % n] as Vec2;
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    const input = out;
    const m = input.length;
    // Every point on the inner side (or on the edge): the pass below would copy the polygon
    // point for point (most edges of a window or a target's box leave a shadow piece whole).
    let all = true;
    for (let k = 0; k < m && all; k++) {
      const q = input[k] as Vec2;
      const s = ex * (q.y - a.y) - ey * (q.x - a.x);
      if (!((ccw ? s : -s) >= 0)) all = false;
    }
    if (all) continue;
    const next: Vec2[] = [];
    out = next;
    let p = input[0] as Vec2;
    let s = ex * (p.y - a.y) - ey * (p.x - a.x);
    let sp = ccw ? s : -s;
    for (let k = 0; k < m; k++) {
      const q = input[(k + 1) % m] as Vec2;
      s = ex * (q.y - a.y) - ey * (q.x - a.x);
      const sq = ccw ? s : -s;
      if (sp >= 0) next.push(p);
      if (sp >= 0 !== sq >= 0) {
        const t = sp / (sp - sq);
        next.push({ x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t });
      }
      p = q;
      sp = sq;
    }
  }
  return out === subject ? [...subject] : (out as Vec2[]);
}

/** Area of the part of the polygons (assumed not to overlap each other, like a unit's bases) inside a convex zone. */
export function areaInsideConvex(polygons: readonly Polygon[], convex: Polygon): number {
  let total = 0;
  for (const p of polygons) {
    const c = clipToConvex(p, convex);
    if (c.length >= 3) total += polygonArea(c);
  }
  return total;
}

/** Share (0…1) of the polygons' total area inside a convex zone. */
export function shareInsideConvex(polygons: readonly Polygon[], convex: Polygon): number {
  const whole = polygons.reduce((s, p) => s + polygonArea(p), 0);
  return whole === 0 ? 0 : Math.min(1, areaInsideConvex(polygons, convex) / whole);
}
