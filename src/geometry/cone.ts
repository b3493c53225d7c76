import { radToDeg, degToRad } from './angle.ts';
import { rotate, type Vec2 } from './vec.ts';
import type { Polygon } from './polygon.ts';
import { hypot } from './hypot.ts';

/** A cone (arc of fire): an apex, the axis it is centred on, and its half-angle. */
export interface Cone {
  readonly apex: Vec2;
  /** Unit vector of the axis. */
  readonly axis: Vec2;
  readonly halfAngleDeg: number;
}

/** Unsigned angle, degrees in [0, 180], between the axis and the direction apex → p. */
export function bearingDeg(apex: Vec2, axis: Vec2, p: Vec2): number {
  const dx = p.x - apex.x;
  const dy = p.y - apex.y;
  if (dx === 0 && dy === 0) return 0;
  const cosine = (dx * axis.x + dy * axis.y) / (hypot(dx, dy) * hypot(axis.x, axis.y));
  return radToDeg(Math.acos(Math.max(-1, Math.min(1, cosine))));
}

export const inCone = (cone: Cone, p: Vec2): boolean =>
  bearingDeg(cone.apex, cone.axis, p) <= cone.halfAngleDeg;

/**
 * The cone as a polygon reaching `reach` from the apex along its edges (for area work).
 * Half-angles up to 90° only: wider cones are not convex wedges.
 */
export function conePolygon(cone: Cone, reach = 1e5): Polygon {
  if (cone.halfAngleDeg >= 90) throw new Error('conePolygon supports half-angles below 90°');
  const half = degToRad(cone.halfAngleDeg);
  const len = hypot(cone.axis.x, cone.axis.y);
  const a = { x: cone.axis.x / len, y: cone.axis.y / len };
  const left = rotate(a, half);
  const right = rotate(a, -half);
  return [
    cone.apex,
    { x: cone.apex.x + right.x * reach, y: cone.apex.y + right.y * reach },
    { x: cone.apex.x + left.x * reach, y: cone.apex.y + left.y * reach },
  ];
}

/** Whether any point of the polygon lies in the cone (vertex inside, or an edge crossing it). */
export function coneTouchesPolygon(cone: Cone, poly: Polygon): boolean {
  if (poly.some((p) => inCone(cone, p))) return true;
  // An edge may cross the cone with both ends outside: test the axis-side rays against edges.
  const wedge = conePolygon(cone);
  const [apex, r, l] = wedge as [Vec2, Vec2, Vec2];
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const a = poly[i] as Vec2;
    const b = poly[(i + 1) % n] as Vec2;
    if (segmentsCross(apex, r, a, b) || segmentsCross(apex, l, a, b)) return true;
  }
  return false;
}

function segmentsCross(a1: Vec2, a2: Vec2, b1: Vec2, b2: Vec2): boolean {
  const c = (o: Vec2, p: Vec2, q: Vec2) => (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);
  const d1 = c(a1, a2, b1);
  const d2 = c(a1, a2, b2);
  const d3 = c(b1, b2, a1);
  const d4 = c(b1, b2, a2);
  return d1 * d2 <= 0 && d3 * d4 <= 0;
}
