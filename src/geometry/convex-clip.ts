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
  let out: Vec2[] = [...subject];
  const n = convex.length;
  for (let i = 0; i < n && out.length > 0; i++) {
    const a = convex[i] as Vec2;
    const b = convex[(i + 1) % n] as Vec2;
    const side = (p: Vec2) => {
      const s = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
      return ccw ? s : -s;
    };
    const input = out;
    out = [];
    for (let k = 0; k < input.length; k++) {
      const p = input[k] as Vec2;
      const q = input[(k + 1) % input.length] as Vec2;
      const sp = side(p);
      const sq = side(q);
      if (sp >= 0) out.push(p);
      if (sp >= 0 !== sq >= 0) {
        const t = sp / (sp - sq);
        out.push({ x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t });
      }
    }
  }
  return out;
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
