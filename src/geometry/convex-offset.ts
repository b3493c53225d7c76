import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/**
 * A convex polygon with every edge moved `d` mm outward (a base grown all round): the corners are
 * where the moved edges meet, so a corner reaches d/sin(θ/2) out rather than the round d of a true
 * buffer (√2·d at a right angle): never less than every point within d. Either winding. A
 * negative d shrinks it (edges moved in), for d short of half its least width.
 */
export function grownConvex(poly: Polygon, d: number): Polygon {
  const n = poly.length;
  if (n < 3 || d === 0) return [...poly];
  let area2 = 0;
  for (let i = 0; i < n; i++) {
    const a = poly[i] as Vec2;
    const b = poly[(i + 1) % n] as Vec2;
    area2 += a.x * b.y - b.x * a.y;
  }
  // Outward normal of edge a→b: to its right for a counter-clockwise polygon, to its left else.
  const sign = area2 > 0 ? 1 : -1;
  const lines = poly.map((a, i) => {
    const b = poly[(i + 1) % n] as Vec2;
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const nx = (sign * (b.y - a.y)) / len;
    const ny = (sign * -(b.x - a.x)) / len;
    return { p: { x: a.x + nx * d, y: a.y + ny * d }, dir: { x: b.x - a.x, y: b.y - a.y } };
  });
  return lines.map((cur, i) => {
    const prev = lines[(i - 1 + n) % n] as (typeof lines)[number];
    const den = prev.dir.x * cur.dir.y - prev.dir.y * cur.dir.x;
    // Parallel neighbours (a repeated corner): the moved corner itself.
    if (Math.abs(den) < 1e-12) return cur.p;
    const t = ((cur.p.x - prev.p.x) * cur.dir.y - (cur.p.y - prev.p.y) * cur.dir.x) / den;
    return { x: prev.p.x + prev.dir.x * t, y: prev.p.y + prev.dir.y * t };
  });
}
