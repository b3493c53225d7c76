import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/**
 * The sideways shifts s at which the segment a → b, moved s mm across itself (to its left for
 * s > 0), meets a polygon: the polygon's extent across the line, taken only within the strip the
 * segment spans along it. Exact for a convex polygon (the shifted segments that meet it form one
 * interval); for a concave one it is the interval round every such shift. Undefined when the
 * polygon lies wholly before a or beyond b.
 *
 * Why not the polygon's whole extent across the infinite line: a long unit crossing the line of
 * fire near its end (a column slanting past the target's corner) reaches far to both sides, yet a
 * shift of a few millimetres takes the segment's end past it.
 */
export function shiftInterval(a: Vec2, b: Vec2, polygon: Polygon): { lo: number; hi: number } | undefined {
  const len = hypot(b.x - a.x, b.y - a.y);
  if (!(len > 0)) return undefined;
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  let lo = Infinity;
  let hi = -Infinity;
  const take = (v: number) => {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  };
  const n = polygon.length;
  for (let i = 0; i < n; i++) {
    const p = polygon[i] as Vec2;
    const q = polygon[(i + 1) % n] as Vec2;
    // Along (u) and across (v, to the left) the segment, from a.
    const pu = (p.x - a.x) * ux + (p.y - a.y) * uy;
    const pv = (p.y - a.y) * ux - (p.x - a.x) * uy;
    const qu = (q.x - a.x) * ux + (q.y - a.y) * uy;
    const qv = (q.y - a.y) * ux - (q.x - a.x) * uy;
    if (pu >= 0 && pu <= len) take(pv);
    // Where the edge crosses either end of the strip.
    for (const edge of [0, len])
      if ((pu - edge) * (qu - edge) < 0) take(pv + ((qv - pv) * (edge - pu)) / (qu - pu));
  }
  return lo <= hi ? { lo, hi } : undefined;
}

/**
 * The least sideways shift, either way, that leaves the segment a → b clear of every polygon
 * (bases in contact count as one body: overlapping or touching intervals join). 0 when no
 * polygon's interval holds 0 (the segment is clear already).
 */
export function shiftToClear(a: Vec2, b: Vec2, polygons: readonly Polygon[]): number {
  const spans = polygons
    .map((p) => shiftInterval(a, b, p))
    .filter((s): s is { lo: number; hi: number } => s !== undefined);
  // The run of intervals round 0, grown until no other interval touches it.
  let lo = 0;
  let hi = 0;
  let inside = false;
  for (let grew = true; grew;) {
    grew = false;
    for (const s of spans)
      if (s.lo <= hi && s.hi >= lo && (!inside || s.lo < lo || s.hi > hi)) {
        inside = true;
        lo = Math.min(lo, s.lo);
        hi = Math.max(hi, s.hi);
        grew = true;
      }
  }
  return inside ? Math.min(hi, -lo) : 0;
}
