import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/** A stretch of a segment, as parameters 0 ≤ t0 < t1 ≤ 1 along it. */
export interface SegmentInterval {
  readonly t0: number;
  readonly t1: number;
}

/**
 * The stretches of segment [a, b] that lie inside a simple polygon (convex or not). A segment
 * that only grazes a corner or runs along an edge yields nothing: touching is not crossing.
 */
export function segmentInsidePolygon(a: Vec2, b: Vec2, poly: Polygon): SegmentInterval[] {
  // Vectors as pairs of numbers: no object per edge (this runs for every sight line into a wood).
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const ts: number[] = [0, 1];
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const p = poly[i] as Vec2;
    const q = poly[(i + 1) % n] as Vec2;
    const ex = q.x - p.x;
    const ey = q.y - p.y;
    const denom = dx * ey - dy * ex;
    if (denom === 0) continue;
    const wx = p.x - a.x;
    const wy = p.y - a.y;
    const t = (wx * ey - wy * ex) / denom;
    const u = (wx * dy - wy * dx) / denom;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) {
      // Kept in order as they come (an insertion sort: the few crossings of a segment with one
      // polygon; Array.prototype.sort copied them into a work array every call). No −0 or NaN
      // can be among them, so the order is the one a stable sort by value gives.
      let k = ts.length - 1;
      ts.push(t);
      while (k >= 0 && (ts[k] as number) > t) {
        ts[k + 1] = ts[k] as number;
        k--;
      }
      ts[k + 1] = t;
    }
  }
  const out: SegmentInterval[] = [];
  for (let i = 0; i + 1 < ts.length; i++) {
    const t0 = ts[i] as number;
    const t1 = ts[i + 1] as number;
    if (t1 - t0 < 1e-12) continue;
    const tm = (t0 + t1) / 2;
    if (containsXY(poly, a.x + dx * tm, a.y + dy * tm)) {
      const last = out[out.length - 1];
      if (last && Math.abs(last.t1 - t0) < 1e-12) out[out.length - 1] = { t0: last.t0, t1 };
      else out.push({ t0, t1 });
    }
  }
  return out;
}

/** Scratch for segmentEntersPolygon's crossing parameters (grown on demand). */
let scratch = new Float64Array(64);

/** Even-odd inside test on raw coordinates; the same arithmetic as containsPoint. */
function containsXY(poly: Polygon, x: number, y: number): boolean {
  let inside = false;
  const n = poly.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = poly[j] as Vec2;
    const b = poly[i] as Vec2;
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** A stretch found by firstStretchInside (reused by the caller; never kept by this module). */
export interface MutableInterval {
  t0: number;
  t1: number;
}

/**
 * The first stretch of segment [a, b] inside the polygon, written into `out`; false when there is
 * none. The same numbers as `segmentInsidePolygon(a, b, poly)[0]` (adjacent stretches merged the
 * same way), without building the list. Sight lines ask this of every blocker near them, so it
 * allocates nothing and first rejects polygons lying wholly on one side of the segment's line.
 */
export function firstStretchInside(a: Vec2, b: Vec2, poly: Polygon, out: MutableInterval): boolean {
  const n = poly.length;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let left = 0;
  let right = 0;
  for (let i = 0; i < n; i++) {
    const p = poly[i] as Vec2;
    const s = dx * (p.y - a.y) - dy * (p.x - a.x);
    if (s > 0) left++;
    else if (s < 0) right++;
  }
  if (left === n || right === n) return false;
  if (scratch.length < n + 2) scratch = new Float64Array(2 * (n + 2));
  const ts = scratch;
  ts[0] = 0;
  ts[1] = 1;
  let m = 2;
  for (let i = 0; i < n; i++) {
    const p = poly[i] as Vec2;
    const q = poly[(i + 1) % n] as Vec2;
    const ex = q.x - p.x;
    const ey = q.y - p.y;
    const denom = dx * ey - dy * ex;
    if (denom === 0) continue;
    const wx = p.x - a.x;
    const wy = p.y - a.y;
    const t = (wx * ey - wy * ex) / denom;
    const u = (wx * dy - wy * dx) / denom;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) ts[m++] = t;
  }
  // Insertion sort: a handful of values.
  for (let i = 1; i < m; i++) {
    const v = ts[i] as number;
    let j = i - 1;
    while (j >= 0 && (ts[j] as number) > v) {
      ts[j + 1] = ts[j] as number;
      j--;
    }
    ts[j + 1] = v;
  }
  let found = false;
  for (let i = 0; i + 1 < m; i++) {
    const t0 = ts[i] as number;
    const t1 = ts[i + 1] as number;
    if (t1 - t0 < 1e-12) continue;
    const tm = (t0 + t1) / 2;
    const inside = containsXY(poly, a.x + dx * tm, a.y + dy * tm);
    if (!found) {
      if (inside) {
        found = true;
        out.t0 = t0;
        out.t1 = t1;
      }
    } else if (inside && Math.abs(out.t1 - t0) < 1e-12) out.t1 = t1;
    else break;
  }
  return found;
}

const probe: MutableInterval = { t0: 0, t1: 0 };

/** Whether the segment [a, b] passes through the polygon's inside (`segmentInsidePolygon(…).length > 0`). */
export const segmentEntersPolygon = (a: Vec2, b: Vec2, poly: Polygon): boolean =>
  firstStretchInside(a, b, poly, probe);
