import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/** A polygon's extent across a segment within the strip the segment spans along itself. */
export interface StripExtent {
  /** Least and greatest distance across (to the segment's left positive), mm. */
  readonly lo: number;
  readonly hi: number;
  /** Where on the polygon's outline they are reached. */
  readonly loAt: Vec2;
  readonly hiAt: Vec2;
}

/**
 * The part of a polygon lying beside the segment a → b (between the perpendiculars at its ends),
 * as its extent across the segment. Undefined when the polygon lies wholly before a or beyond b.
 * These are also the sideways shifts s at which the segment, moved s mm across itself, meets the
 * polygon: exact for a convex polygon; for a concave one, the interval round every such shift.
 *
 * Why not the polygon's whole extent across the infinite line: a long unit crossing the line of
 * fire near its end (a column slanting past the target's corner) reaches far to both sides, yet a
 * shift of a few millimetres takes the segment's end past it; and a unit behind the eye that the
 * line's backward extension splits has a side only by what lies beside the segment.
 */
export function stripExtent(a: Vec2, b: Vec2, polygon: Polygon): StripExtent | undefined {
  const len = hypot(b.x - a.x, b.y - a.y);
  if (!(len > 0)) return undefined;
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  let lo = Infinity;
  let hi = -Infinity;
  let loAt: Vec2 = a;
  let hiAt: Vec2 = a;
  const take = (v: number, at: () => Vec2) => {
    if (v < lo) [lo, loAt] = [v, at()];
    if (v > hi) [hi, hiAt] = [v, at()];
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
    if (pu >= 0 && pu <= len) take(pv, () => p);
    // Where the edge crosses either end of the strip.
    for (const edge of [0, len])
      if ((pu - edge) * (qu - edge) < 0) {
        const t = (edge - pu) / (qu - pu);
        take(pv + (qv - pv) * t, () => ({ x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t }));
      }
  }
  return lo <= hi ? { lo, hi, loAt, hiAt } : undefined;
}

/** The sideways shifts at which the segment meets the polygon (`stripExtent` without its points). */
export function shiftInterval(a: Vec2, b: Vec2, polygon: Polygon): { lo: number; hi: number } | undefined {
  const e = stripExtent(a, b, polygon);
  return e && { lo: e.lo, hi: e.hi };
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
