import { containsPoint, type Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/**
 * A polygon pivoting about a point (a unit turning on a corner) meets a static one when a corner
 * of either comes onto an edge of the other. Both kinds of event are the crossing of a circle
 * (the path of a corner round the pivot) with a segment, so every contact angle is found in closed
 * form; between two events the polygons either overlap or they do not, which one test at the
 * middle of each interval settles. Exact, up to floating point.
 */

const TAU = 2 * Math.PI;

/** Angles (about c, absolute) where the circle of radius r round c crosses segment [a, b]. */
function circleSegmentAngles(c: Vec2, r: number, a: Vec2, b: Vec2): number[] {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const fx = a.x - c.x;
  const fy = a.y - c.y;
  const A = dx * dx + dy * dy;
  if (A === 0) return [];
  const B = 2 * (fx * dx + fy * dy);
  const C = fx * fx + fy * fy - r * r;
  const disc = B * B - 4 * A * C;
  if (disc < 0) return [];
  const sq = Math.sqrt(disc);
  const out: number[] = [];
  for (const s of [(-B - sq) / (2 * A), (-B + sq) / (2 * A)])
    if (s >= -1e-12 && s <= 1 + 1e-12) out.push(Math.atan2(fy + dy * s, fx + dx * s));
  return out;
}

/** Rotates p about c by t radians (counter-clockwise). */
export function rotateAbout(p: Vec2, c: Vec2, t: number): Vec2 {
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const x = p.x - c.x;
  const y = p.y - c.y;
  return { x: c.x + x * cos - y * sin, y: c.y + x * sin + y * cos };
}

function properCross(a1: Vec2, a2: Vec2, b1: Vec2, b2: Vec2): boolean {
  const o = (p: Vec2, q: Vec2, r: Vec2) => (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
  const eps = 1e-9;
  const d1 = o(a1, a2, b1);
  const d2 = o(a1, a2, b2);
  const d3 = o(b1, b2, a1);
  const d4 = o(b1, b2, a2);
  return (
    ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps)) &&
    ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
  );
}

/** Whether two simple polygons share interior (touching along an edge or at a corner does not count). */
export function interiorsOverlap(p: Polygon, q: Polygon): boolean {
  for (let i = 0; i < p.length; i++)
    for (let j = 0; j < q.length; j++)
      if (
        properCross(p[i] as Vec2, p[(i + 1) % p.length] as Vec2, q[j] as Vec2, q[(j + 1) % q.length] as Vec2)
      )
        return true;
  // No edges cross: one is inside the other, or they are apart (or only touch).
  const mid = (poly: Polygon): Vec2 => {
    const a = poly[0] as Vec2;
    const b = poly[1] as Vec2;
    const c = poly[2] as Vec2;
    return { x: (a.x + b.x + c.x) / 3, y: (a.y + b.y + c.y) / 3 };
  };
  return (p.length >= 3 && containsPoint(q, mid(p))) || (q.length >= 3 && containsPoint(p, mid(q)));
}

/**
 * The first angle (radians, same sign as `turn`, |angle| ≤ |turn|) at which `moving` turned about
 * `pivot` shares interior with `obstacle`; undefined when the whole turn stays clear. 0 when they
 * already overlap.
 */
export function firstContactAngle(
  moving: Polygon,
  pivot: Vec2,
  turn: number,
  obstacle: Polygon,
): number | undefined {
  if (turn === 0) return interiorsOverlap(moving, obstacle) ? 0 : undefined;
  const dir = Math.sign(turn);
  const span = Math.abs(turn);
  // Events as |t| in (0, span].
  const events: number[] = [];
  const push = (t: number) => {
    let u = dir * t;
    u = ((u % TAU) + TAU) % TAU;
    if (u > 1e-12 && u <= span + 1e-12) events.push(Math.min(u, span));
  };
  for (const v of moving) {
    const r = hypot(v.x - pivot.x, v.y - pivot.y);
    const a0 = Math.atan2(v.y - pivot.y, v.x - pivot.x);
    for (let j = 0; j < obstacle.length; j++)
      for (const ang of circleSegmentAngles(
        pivot,
        r,
        obstacle[j] as Vec2,
        obstacle[(j + 1) % obstacle.length] as Vec2,
      ))
        push(ang - a0);
  }
  for (const w of obstacle) {
    const r = hypot(w.x - pivot.x, w.y - pivot.y);
    const a0 = Math.atan2(w.y - pivot.y, w.x - pivot.x);
    for (let i = 0; i < moving.length; i++)
      for (const ang of circleSegmentAngles(
        pivot,
        r,
        moving[i] as Vec2,
        moving[(i + 1) % moving.length] as Vec2,
      ))
        push(a0 - ang);
  }
  events.sort((a, b) => a - b);
  const at = (u: number) => moving.map((p) => rotateAbout(p, pivot, dir * u));
  if (interiorsOverlap(moving, obstacle)) return 0;
  let prev = 0;
  for (const e of [...events, span]) {
    if (e <= prev) continue;
    if (interiorsOverlap(at((prev + e) / 2), obstacle)) return dir * prev;
    prev = e;
  }
  return undefined;
}
