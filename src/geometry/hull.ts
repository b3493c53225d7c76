import type { Polygon } from './polygon.ts';
import { sortStable } from './sort-stable.ts';
import type { Vec2 } from './vec.ts';

const byXThenY = (a: Vec2, b: Vec2): number => a.x - b.x || a.y - b.y;

const cross = (o: Vec2, a: Vec2, b: Vec2): number => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

/** Convex hull of points, counter-clockwise, collinear points dropped (Andrew's monotone chain). */
export function convexHull(points: readonly Vec2[]): Polygon {
  const pts = sortStable([...points], byXThenY);
  if (pts.length < 3) return pts;
  const lower: Vec2[] = [];
  for (const p of pts) {
    while (
      lower.length >= 2 &&
      cross(lower[lower.length - 2] as Vec2, lower[lower.length - 1] as Vec2, p) <= 0
    )
      lower.pop();
    lower.push(p);
  }
  const upper: Vec2[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i] as Vec2;
    while (
      upper.length >= 2 &&
      cross(upper[upper.length - 2] as Vec2, upper[upper.length - 1] as Vec2, p) <= 0
    )
      upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return [...lower, ...upper];
}

/** Whether a simple polygon is convex (every turn the same way; straight runs allowed). */
export function isConvex(poly: Polygon): boolean {
  let sign = 0;
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const c = cross(poly[i] as Vec2, poly[(i + 1) % n] as Vec2, poly[(i + 2) % n] as Vec2);
    if (c === 0) continue;
    if (sign === 0) sign = Math.sign(c);
    else if (Math.sign(c) !== sign) return false;
  }
  return n >= 3;
}
