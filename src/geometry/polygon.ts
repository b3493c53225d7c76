import { cross, sub, type Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/** A simple polygon as its vertices in order; the closing edge is implied. */
export type Polygon = readonly Vec2[];

export function edges(poly: Polygon): Array<[Vec2, Vec2]> {
  return poly.map((p, i) => [p, poly[(i + 1) % poly.length] as Vec2]);
}

/** Even-odd point-in-polygon test; points on the boundary may go either way. */
export function containsPoint(poly: Polygon, p: Vec2): boolean {
  let inside = false;
  const n = poly.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = poly[j] as Vec2;
    const b = poly[i] as Vec2;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

export function signedArea(poly: Polygon): number {
  // Edge by edge as edges(poly) gives them, written out (no pair per edge: clipping asks it of
  // every convex zone it cuts to).
  let sum = 0;
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const a = poly[i] as Vec2;
    const b = poly[(i + 1) % n] as Vec2;
    sum += a.x * b.y - a.y * b.x;
  }
  return sum / 2;
}

export function centroid(points: readonly Vec2[]): Vec2 {
  if (points.length === 0) throw new Error('centroid of no points');
  let x = 0;
  let y = 0;
  for (const p of points) {
    x += p.x;
    y += p.y;
  }
  return { x: x / points.length, y: y / points.length };
}

const orient = (o: Vec2, p: Vec2, q: Vec2): number => (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);
const within = (p: Vec2, q: Vec2, r: Vec2): boolean =>
  Math.min(p.x, q.x) <= r.x &&
  r.x <= Math.max(p.x, q.x) &&
  Math.min(p.y, q.y) <= r.y &&
  r.y <= Math.max(p.y, q.y);

/** True when the two closed segments share at least one point. */
export function segmentsIntersect(a1: Vec2, a2: Vec2, b1: Vec2, b2: Vec2): boolean {
  const d1 = orient(a1, a2, b1);
  const d2 = orient(a1, a2, b2);
  const d3 = orient(b1, b2, a1);
  const d4 = orient(b1, b2, a2);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && within(a1, a2, b1)) ||
    (d2 === 0 && within(a1, a2, b2)) ||
    (d3 === 0 && within(b1, b2, a1)) ||
    (d4 === 0 && within(b1, b2, a2))
  );
}

/** Unsigned area of a simple polygon. */
export const polygonArea = (poly: Polygon): number => Math.abs(signedArea(poly));

/** Signed distance-free side test: > 0 when p is left of the directed line a→b. */
export const sideOfLine = (a: Vec2, b: Vec2, p: Vec2): number => cross(sub(b, a), sub(p, a));

/** Point in polygon or within `tolerance` of its boundary. */
export function containsPointOrNear(poly: Polygon, p: Vec2, tolerance: number): boolean {
  if (containsPoint(poly, p)) return true;
  for (const [a, b] of edges(poly)) {
    const ab = sub(b, a);
    const len2 = ab.x * ab.x + ab.y * ab.y;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / len2));
    if (hypot(a.x + ab.x * t - p.x, a.y + ab.y * t - p.y) <= tolerance) return true;
  }
  return false;
}
