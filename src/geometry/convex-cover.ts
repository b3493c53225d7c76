import { isConvex } from './hull.ts';
import type { Vec2 } from './vec.ts';
import { boxOf, type Box } from './box.ts';
import { signedArea, type Polygon } from './polygon.ts';

/**
 * Whether a convex polygon holds every vertex of the given polygons (on its boundary counts):
 * then it holds all of them, since each lies within the convex hull of its vertices. Undefined
 * answer for a concave `cover`: false.
 */
export function convexCovers(cover: Polygon, polys: readonly Polygon[]): boolean {
  return cover.length >= 3 && isConvex(cover) && convexPolygonCovers(cover, polys);
}

/** convexCovers for a cover already known to be convex (isConvex). */
export function convexPolygonCovers(cover: Polygon, polys: readonly Polygon[]): boolean {
  return convexPolygonCoversMoved(cover, polys, 0, 0);
}

/**
 * convexPolygonCovers of the polygons moved by (dx, dy), without building the moved copy: each
 * vertex is moved as the copy would be (q.x + dx, q.y + dy) and tested the same way. Probes of a
 * hidden target mostly end here.
 */
export function convexPolygonCoversMoved(
  cover: Polygon,
  polys: readonly Polygon[],
  dx: number,
  dy: number,
): boolean {
  const n = cover.length;
  if (n < 3) return false;
  let twice = 0;
  for (let i = 0; i < n; i++) {
    const a = cover[i] as Polygon[number];
    const b = cover[(i + 1) % n] as Polygon[number];
    twice += a.x * b.y - b.x * a.y;
  }
  if (twice === 0) return false;
  const orient = Math.sign(twice);
  for (let i = 0; i < n; i++) {
    const a = cover[i] as Polygon[number];
    const b = cover[(i + 1) % n] as Polygon[number];
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    for (const p of polys)
      for (const q of p) {
        const x = q.x + dx;
        const y = q.y + dy;
        if ((ex * (y - a.y) - ey * (x - a.x)) * orient < 0) return false;
      }
  }
  return true;
}

/**
 * A vertex this far (mm) outside a convex cover's box is outside the cover by far more than any
 * rounding of the side test, unless a corner of the cover is a needle under ~1e-12 rad.
 */
const OUTSIDE_BOX_MM = 1;

/**
 * convexPolygonCoversMoved, first settled by the cover's box (`coverBox`, its boxOf): a moved
 * vertex more than OUTSIDE_BOX_MM beyond it cannot be held, and most covers a probe tries are
 * nowhere near the target.
 */
export function convexPolygonCoversMovedIn(
  cover: Polygon,
  coverBox: Box,
  polys: readonly Polygon[],
  dx: number,
  dy: number,
): boolean {
  const minX = coverBox.minX - OUTSIDE_BOX_MM;
  const minY = coverBox.minY - OUTSIDE_BOX_MM;
  const maxX = coverBox.maxX + OUTSIDE_BOX_MM;
  const maxY = coverBox.maxY + OUTSIDE_BOX_MM;
  for (const p of polys)
    for (const q of p) {
      const x = q.x + dx;
      const y = q.y + dy;
      if (x < minX || x > maxX || y < minY || y > maxY) return false;
    }
  return convexPolygonCoversMoved(cover, polys, dx, dy);
}

/** The part of a convex polygon on the left of a → b (right when `left` is false), Sutherland–Hodgman. */
function clipSide(poly: Polygon, a: Vec2, b: Vec2, left: boolean): Vec2[] {
  const out: Vec2[] = [];
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const n = poly.length;
  let p = poly[n - 1] as Vec2;
  let sp = ex * (p.y - a.y) - ey * (p.x - a.x);
  if (!left) sp = -sp;
  for (let k = 0; k < n; k++) {
    const q = poly[k] as Vec2;
    let sq = ex * (q.y - a.y) - ey * (q.x - a.x);
    if (!left) sq = -sq;
    if (sp >= 0 !== sq >= 0) {
      const t = sp / (sp - sq);
      out.push({ x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t });
    }
    if (sq >= 0) out.push(q);
    p = q;
    sp = sq;
  }
  return out;
}

/** Most pieces a target is cut into before `unionCovers` gives up (and the caller sweeps). */
const MAX_PIECES = 48;

/**
 * Whether convex polygons together hold every convex polygon of a target: each target piece
 * not held whole by one cover (`convexCovers`) is cut by a cover it meets into the convex parts
 * outside it (one per edge), and those go on to the next covers. True only when every part is
 * held whole by some cover, so the target has no seen part; false means "not shown" (parts left,
 * a concave piece, or too many parts), never "seen".
 */
export function unionCovers(covers: readonly Polygon[], target: readonly Polygon[]): boolean {
  const convex = covers.filter((c) => c.length >= 3 && isConvex(c));
  if (convex.length < 2 || !target.every((p) => isConvex(p))) return false;
  let pieces: Polygon[] = [...target];
  for (const c of convex) {
    const n = c.length;
    let twice = 0;
    for (let i = 0; i < n; i++) {
      const a = c[i] as Vec2;
      const b = c[(i + 1) % n] as Vec2;
      twice += a.x * b.y - b.x * a.y;
    }
    const ccw = twice > 0;
    const cb = boxOf(c);
    const next: Polygon[] = [];
    for (const p of pieces) {
      const pb = boxOf(p);
      if (pb.minX > cb.maxX || cb.minX > pb.maxX || pb.minY > cb.maxY || cb.minY > pb.maxY) {
        next.push(p);
        continue;
      }
      if (convexCovers(c, [p])) continue;
      // What is left of p outside c: outside edge i, inside edges before it.
      let rest: Polygon = p;
      for (let i = 0; i < n && rest.length >= 3; i++) {
        const a = c[i] as Vec2;
        const b = c[(i + 1) % n] as Vec2;
        const outside = clipSide(rest, a, b, !ccw);
        // Parts of no area (a line along the cover's edge) hide nothing and are dropped.
        if (outside.length >= 3 && signedArea(outside) !== 0) next.push(outside);
        rest = clipSide(rest, a, b, ccw);
      }
      if (next.length > MAX_PIECES) return false;
    }
    pieces = next;
    if (pieces.length === 0) return true;
  }
  return false;
}
