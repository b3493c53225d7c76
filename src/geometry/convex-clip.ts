import { polygonArea, signedArea, type Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/*
 * The passes of the clipping read and write two pairs of coordinate buffers reused between calls
 * (with, per point, the index of the subject point it is, or −1 for a point a pass made): only
 * the result's new points are objects. Making every pass's points and arrays as objects was a
 * tenth of what an all-pairs run allocated (docs/rules-engine.md, eighth round).
 */
let room = 256;
let AX = new Float64Array(room);
let AY = new Float64Array(room);
let AS = new Int32Array(room);
let BX = new Float64Array(room);
let BY = new Float64Array(room);
let BS = new Int32Array(room);

/** Room for `n` points in every buffer (what they hold is kept). */
function reserve(n: number): void {
  if (n <= room) return;
  const r = Math.max(n, 2 * room);
  const grow = <T extends Float64Array | Int32Array>(a: T, make: (k: number) => T): T => {
    const b = make(r);
    b.set(a);
    return b;
  };
  AX = grow(AX, (k) => new Float64Array(k));
  AY = grow(AY, (k) => new Float64Array(k));
  AS = grow(AS, (k) => new Int32Array(k));
  BX = grow(BX, (k) => new Float64Array(k));
  BY = grow(BY, (k) => new Float64Array(k));
  BS = grow(BS, (k) => new Int32Array(k));
  room = r;
}

/**
 * Clips a polygon by a convex polygon (Sutherland–Hodgman). Exact for convex subjects; for a
 * concave subject the result may carry zero-width slivers, which do not change its area.
 * Unlike a general boolean engine it cannot fail on touching edges or vertices lying on an
 * edge — the cases a quarter ray through a base corner produces. The result keeps the subject's
 * own point objects where a point was not cut.
 */
export function clipToConvex(subject: Polygon, convex: Polygon): Vec2[] {
  const ccw = signedArea(convex) >= 0;
  const n = convex.length;
  let m = subject.length;
  reserve(m);
  for (let k = 0; k < m; k++) {
    const q = subject[k] as Vec2;
    AX[k] = q.x;
    AY[k] = q.y;
    AS[k] = k;
  }
  let cut = false;
  // The side test is written out inline (no closure per edge: under tsx every closure made is
  // also named, which cost more than the clipping on the all-pairs table).
  for (let i = 0; i < n && m > 0; i++) {
    const a = convex[i] as Vec2;
    const b = convex[(i + 1) % n] as Vec2;
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    // Every point on the inner side (or on the edge): the pass below would copy the polygon
    // point for point (most edges of a window or a target's box leave a shadow piece whole).
    let all = true;
    for (let k = 0; k < m && all; k++) {
      const s = ex * ((AY[k] as number) - a.y) - ey * ((AX[k] as number) - a.x);
      if (!((ccw ? s : -s) >= 0)) all = false;
    }
    if (all) continue;
    cut = true;
    // At most two points out for each point in.
    reserve(2 * m);
    let out = 0;
    let px = AX[0] as number;
    let py = AY[0] as number;
    let ps = AS[0] as number;
    let s = ex * (py - a.y) - ey * (px - a.x);
    let sp = ccw ? s : -s;
    for (let k = 0; k < m; k++) {
      const j = (k + 1) % m;
      const qx = AX[j] as number;
      const qy = AY[j] as number;
      const qs = AS[j] as number;
      s = ex * (qy - a.y) - ey * (qx - a.x);
      const sq = ccw ? s : -s;
      if (sp >= 0) {
        BX[out] = px;
        BY[out] = py;
        BS[out] = ps;
        out++;
      }
      if (sp >= 0 !== sq >= 0) {
        const t = sp / (sp - sq);
        BX[out] = px + (qx - px) * t;
        BY[out] = py + (qy - py) * t;
        BS[out] = -1;
        out++;
      }
      px = qx;
      py = qy;
      ps = qs;
      sp = sq;
    }
    // The pass's output is the next pass's input.
    const tx = AX;
    const ty = AY;
    const ts = AS;
    AX = BX;
    AY = BY;
    AS = BS;
    BX = tx;
    BY = ty;
    BS = ts;
    m = out;
  }
  if (!cut) return [...subject];
  const result: Vec2[] = new Array<Vec2>(m);
  for (let k = 0; k < m; k++) {
    const from = AS[k] as number;
    result[k] = from >= 0 ? (subject[from] as Vec2) : { x: AX[k] as number, y: AY[k] as number };
  }
  return result;
}

/** Area of the part of the polygons (assumed not to overlap each other, like a unit's bases) inside a convex zone. */
export function areaInsideConvex(polygons: readonly Polygon[], convex: Polygon): number {
  let total = 0;
  for (const p of polygons) {
    const c = clipToConvex(p, convex);
    if (c.length >= 3) total += polygonArea(c);
  }
  return total;
}

/** Share (0…1) of the polygons' total area inside a convex zone. */
export function shareInsideConvex(polygons: readonly Polygon[], convex: Polygon): number {
  const whole = polygons.reduce((s, p) => s + polygonArea(p), 0);
  return whole === 0 ? 0 : Math.min(1, areaInsideConvex(polygons, convex) / whole);
}
