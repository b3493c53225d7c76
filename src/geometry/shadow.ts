import type { Box } from './box.ts';
import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/**
 * Shadows: the part of the table a polygon hides from an eye, as convex pieces cut to a window.
 * A point p is hidden by a simple polygon P (eye outside P) when the segment eye → p crosses P's
 * inside; that happens exactly when p lies beyond an edge of P that faces the eye, inside the
 * wedge the edge subtends. Each such edge gives one convex piece: the window cut by the edge's
 * line and the wedge's two sides. Union them with P itself for the full shadow.
 */

/**
 * Keeps the part of a convex polygon where side(p) ≥ 0 (Sutherland–Hodgman, one plane), with
 * side(p) = sign · ((ux)(p.y − oy) − (uy)(p.x − ox)): the cross product of o→u and o→p, the same
 * arithmetic as `cross` below, written out so that no closure is made per edge (shadows were the
 * largest allocation of an all-pairs run).
 */
function clipHalfPlane(poly: Vec2[], ox: number, oy: number, ux: number, uy: number, sign: number): Vec2[] {
  const out: Vec2[] = [];
  const n = poly.length;
  if (n === 0) return out;
  let a = poly[0] as Vec2;
  let sa = sign * (ux * (a.y - oy) - uy * (a.x - ox));
  const first = sa;
  for (let i = 0; i < n; i++) {
    const b = poly[(i + 1) % n] as Vec2;
    const sb = i + 1 === n ? first : sign * (ux * (b.y - oy) - uy * (b.x - ox));
    if (sa >= 0) out.push(a);
    if (sa >= 0 !== sb >= 0) {
      const t = sa / (sa - sb);
      out.push({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
    }
    a = b;
    sa = sb;
  }
  return out;
}

const cross = (o: Vec2, a: Vec2, p: Vec2): number => (a.x - o.x) * (p.y - o.y) - (a.y - o.y) * (p.x - o.x);

/** The pieces of the shadow `poly` casts from `eye` inside `window` (the polygon itself not included). */
export function shadowPieces(eye: Vec2, poly: Polygon, window: Box): Polygon[] {
  const rect: Vec2[] = [
    { x: window.minX, y: window.minY },
    { x: window.maxX, y: window.minY },
    { x: window.maxX, y: window.maxY },
    { x: window.minX, y: window.maxY },
  ];
  const out: Polygon[] = [];
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const a = poly[i] as Vec2;
    const b = poly[(i + 1) % n] as Vec2;
    const eyeSide = cross(a, b, eye);
    if (Math.abs(eyeSide) < 1e-9 * (1 + hypot(b.x - a.x, b.y - a.y) ** 2)) continue; // eye on the edge's line: no area hidden
    // Beyond the edge (the side away from the eye), between the rays eye→a and eye→b.
    let piece = clipHalfPlane(rect, a.x, a.y, b.x - a.x, b.y - a.y, -Math.sign(eyeSide));
    const wedge = Math.sign(cross(eye, a, b));
    piece = clipHalfPlane(piece, eye.x, eye.y, a.x - eye.x, a.y - eye.y, wedge);
    piece = clipHalfPlane(piece, eye.x, eye.y, b.x - eye.x, b.y - eye.y, -wedge);
    if (piece.length >= 3) out.push(piece);
  }
  return out;
}
