import { containsPoint, segmentsIntersect, type Polygon } from './polygon.ts';
import { boxGap, boxOf, type Box } from './box.ts';
import { add, distance, dot, scale, sub, type Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/** A measured separation and the two points it was measured between (on A and on B). */
export interface Separation {
  readonly distance: number;
  readonly onA: Vec2;
  readonly onB: Vec2;
}

/** The point of segment [a, b] closest to p. */
export function closestPointOnSegment(p: Vec2, a: Vec2, b: Vec2): Vec2 {
  const ab = sub(b, a);
  const len2 = dot(ab, ab);
  if (len2 === 0) return a;
  const t = Math.max(0, Math.min(1, dot(sub(p, a), ab) / len2));
  return add(a, scale(ab, t));
}

function segmentSeparation(a1: Vec2, a2: Vec2, b1: Vec2, b2: Vec2): Separation {
  if (segmentsIntersect(a1, a2, b1, b2)) {
    // Crossing segments touch somewhere; report the crossing point on both.
    const r = sub(a2, a1);
    const s = sub(b2, b1);
    const denom = r.x * s.y - r.y * s.x;
    const t = denom === 0 ? 0 : ((b1.x - a1.x) * s.y - (b1.y - a1.y) * s.x) / denom;
    const p = add(a1, scale(r, Math.max(0, Math.min(1, t))));
    return { distance: 0, onA: p, onB: p };
  }
  const candidates: Separation[] = [
    { onA: a1, onB: closestPointOnSegment(a1, b1, b2), distance: 0 },
    { onA: a2, onB: closestPointOnSegment(a2, b1, b2), distance: 0 },
    { onA: closestPointOnSegment(b1, a1, a2), onB: b1, distance: 0 },
    { onA: closestPointOnSegment(b2, a1, a2), onB: b2, distance: 0 },
  ].map((c) => ({ ...c, distance: distance(c.onA, c.onB) }));
  return candidates.reduce((best, c) => (c.distance < best.distance ? c : best));
}

/**
 * Minimum distance from point p to polygon B (0 inside), with the nearest point of B. Written out
 * without allocation per edge (it runs for every hider of every sight): the same arithmetic, in
 * the same order, as closestPointOnSegment and distance, so the same numbers.
 */
export function pointToPolygon(p: Vec2, poly: Polygon): Separation {
  if (containsPoint(poly, p)) return { distance: 0, onA: p, onB: p };
  let best = Infinity;
  let bx = p.x;
  let by = p.y;
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const a = poly[i] as Vec2;
    const b = poly[(i + 1) % n] as Vec2;
    const abx = b.x - a.x;
    const aby = b.y - a.y;
    const len2 = abx * abx + aby * aby;
    let qx = a.x;
    let qy = a.y;
    if (len2 !== 0) {
      const t = Math.max(0, Math.min(1, ((p.x - a.x) * abx + (p.y - a.y) * aby) / len2));
      qx = a.x + abx * t;
      qy = a.y + aby * t;
    }
    const d = hypot(p.x - qx, p.y - qy);
    if (d < best) {
      best = d;
      bx = qx;
      by = qy;
    }
  }
  return { distance: best, onA: p, onB: n === 0 ? p : { x: bx, y: by } };
}

/** Parameter along the segment of the nearest point found by the last pointSegment2 call. */
let lastT = 0;

/**
 * Squared distance from (px,py) to segment (ax,ay)-(bx,by); the parameter of the nearest point
 * is left in `lastT` (no tuple allocated: this runs 32 times per base pair).
 */
function pointSegment2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const qx = ax + dx * t - px;
  const qy = ay + dy * t - py;
  lastT = t;
  return qx * qx + qy * qy;
}

/** Distance from a point to a polygon's outline, inside or out (how far it is from crossing it). */
export function pointToOutline(p: Vec2, poly: Polygon): number {
  let best = Infinity;
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const a = poly[i] as Vec2;
    const b = poly[(i + 1) % n] as Vec2;
    best = Math.min(best, pointSegment2(p.x, p.y, a.x, a.y, b.x, b.y));
  }
  return Math.sqrt(best);
}

/**
 * Edge-to-edge distance between two polygons: 0 when they touch or overlap, otherwise the
 * shortest segment joining them, with its end points. (Written without allocation in the inner
 * loops: it runs for every base pair of every question.)
 */
export function polygonSeparation(a: Polygon, b: Polygon): Separation {
  const firstA = a[0];
  const firstB = b[0];
  if (!firstA || !firstB) throw new Error('polygonSeparation needs non-empty polygons');
  if (b.length >= 3 && containsPoint(b, firstA)) return { distance: 0, onA: firstA, onB: firstA };
  if (a.length >= 3 && containsPoint(a, firstB)) return { distance: 0, onA: firstB, onB: firstB };
  const na = a.length;
  const nb = b.length;
  let best = Infinity;
  // Best pair: which side the vertex is on (0: vertex of A vs edge of B; 1: vertex of B vs edge of A).
  let bi = 0;
  let bj = 0;
  let bt = 0;
  let kind = 0;
  for (let i = 0; i < na; i++) {
    const a1 = a[i] as Vec2;
    const a2 = a[(i + 1) % na] as Vec2;
    for (let j = 0; j < nb; j++) {
      const b1 = b[j] as Vec2;
      const b2 = b[(j + 1) % nb] as Vec2;
      if (segmentsIntersect(a1, a2, b1, b2)) {
        const p = segmentSeparation(a1, a2, b1, b2);
        return p;
      }
      const d1 = pointSegment2(a1.x, a1.y, b1.x, b1.y, b2.x, b2.y);
      if (d1 < best) {
        best = d1;
        bi = i;
        bj = j;
        bt = lastT;
        kind = 0;
      }
      const d2 = pointSegment2(b1.x, b1.y, a1.x, a1.y, a2.x, a2.y);
      if (d2 < best) {
        best = d2;
        bi = i;
        bj = j;
        bt = lastT;
        kind = 1;
      }
    }
  }
  if (kind === 0) {
    const p = a[bi] as Vec2;
    const b1 = b[bj] as Vec2;
    const b2 = b[(bj + 1) % nb] as Vec2;
    const q = { x: b1.x + (b2.x - b1.x) * bt, y: b1.y + (b2.y - b1.y) * bt };
    return { distance: Math.sqrt(best), onA: p, onB: q };
  }
  const q = b[bj] as Vec2;
  const a1 = a[bi] as Vec2;
  const a2 = a[(bi + 1) % na] as Vec2;
  const p = { x: a1.x + (a2.x - a1.x) * bt, y: a1.y + (a2.y - a1.y) * bt };
  return { distance: Math.sqrt(best), onA: p, onB: q };
}

/** A separation between two sets of polygons, with which polygon of each set it was found on. */
export interface SetSeparation extends Separation {
  readonly indexA: number;
  readonly indexB: number;
}

/**
 * Edge-to-edge distance between two sets of polygons (a unit is a set of bases): the closest
 * pair over all members. Bounding boxes prune pairs that cannot beat the best found so far.
 */
export function polygonSetSeparation(a: readonly Polygon[], b: readonly Polygon[]): SetSeparation {
  const boxesB = b.map((p) => boxOf(p));
  let best: SetSeparation | undefined;
  a.forEach((pa, i) => {
    const boxA = boxOf(pa);
    b.forEach((pb, j) => {
      if (best && boxGap(boxA, boxesB[j] as Box) >= best.distance) return;
      const s = polygonSeparation(pa, pb);
      if (!best || s.distance < best.distance) best = { ...s, indexA: i, indexB: j };
    });
  });
  if (!best) throw new Error('polygonSetSeparation needs at least one polygon on each side');
  return best;
}

/** Squared lower bound of the distance between anything in box a and anything in box b. */
function boxGap2(a: Box, b: Box): number {
  const gx = a.minX - b.maxX > b.minX - a.maxX ? a.minX - b.maxX : b.minX - a.maxX;
  const gy = a.minY - b.maxY > b.minY - a.maxY ? a.minY - b.maxY : b.minY - a.maxY;
  const dx = gx > 0 ? gx : 0;
  const dy = gy > 0 ? gy : 0;
  return dx * dx + dy * dy;
}

/**
 * The first closest pair of two polygon lists (first in order: a's index, then b's), given their
 * bounding boxes. Same answer as scanning every pair in order, with less work: the pair whose
 * boxes are nearest is measured first, and its distance bounds the answer, so only pairs whose
 * boxes are no farther apart than that bound are measured. Pairs that could tie are all
 * measured, in order, so ties resolve as the plain scan would.
 */
export function closestPolygonPair(
  a: readonly Polygon[],
  boxesA: readonly Box[],
  b: readonly Polygon[],
  boxesB: readonly Box[],
): SetSeparation {
  if (a.length === 0 || b.length === 0)
    throw new Error('closestPolygonPair needs at least one polygon on each side');
  // Box gaps are compared squared (no square root): only the pruning depends on them.
  let seedI = 0;
  let seedJ = 0;
  let seedGap2 = Infinity;
  for (let i = 0; i < a.length; i++) {
    const boxA = boxesA[i] as Box;
    for (let j = 0; j < b.length; j++) {
      const g = boxGap2(boxA, boxesB[j] as Box);
      if (g < seedGap2) {
        seedGap2 = g;
        seedI = i;
        seedJ = j;
      }
    }
  }
  const seed = polygonSeparation(a[seedI] as Polygon, b[seedJ] as Polygon);
  let best = seed;
  let bestI = seedI;
  let bestJ = seedJ;
  let found = false;
  // A hair of slack so rounding in the box gap never skips a pair that could tie.
  const bound = seed.distance + 1e-9 * (1 + seed.distance);
  const bound2 = bound * bound;
  for (let i = 0; i < a.length; i++) {
    const boxA = boxesA[i] as Box;
    for (let j = 0; j < b.length; j++) {
      if (boxGap2(boxA, boxesB[j] as Box) > bound2) continue;
      const sep = i === seedI && j === seedJ ? seed : polygonSeparation(a[i] as Polygon, b[j] as Polygon);
      if (!found || sep.distance < best.distance) {
        found = true;
        best = sep;
        bestI = i;
        bestJ = j;
      }
    }
  }
  return { distance: best.distance, onA: best.onA, onB: best.onB, indexA: bestI, indexB: bestJ };
}

/**
 * Points of `polys` that may as well be the nearest to `p`: every corner, then each polygon's own
 * nearest point (a face square to the line from `p` is about as near all along it, so a hair's
 * turn can hand "nearest" to another polygon's point or a corner).
 */
export function nearCandidates(p: Vec2, polys: readonly Polygon[]): Array<{ point: Vec2; corner: boolean }> {
  return [
    ...polys.flat().map((point) => ({ point, corner: true })),
    ...polys.map((poly) => ({ point: pointToPolygon(p, poly).onB, corner: false })),
  ];
}

/** Distance from a point to the nearest of a set of polygons, with the nearest point. */
export function pointToPolygonSet(p: Vec2, set: readonly Polygon[]): SetSeparation {
  let best: Separation | undefined;
  let bestJ = 0;
  for (let j = 0; j < set.length; j++) {
    const poly = set[j] as Polygon;
    if (best && pointBoxGap(p, poly) >= best.distance) continue;
    const s = pointToPolygon(p, poly);
    if (!best || s.distance < best.distance) {
      best = s;
      bestJ = j;
    }
  }
  if (!best) throw new Error('pointToPolygonSet needs at least one polygon');
  return { distance: best.distance, onA: best.onA, onB: best.onB, indexA: 0, indexB: bestJ };
}

/** boxPointGap(boxOf(poly), p) without building the box (the same numbers). */
function pointBoxGap(p: Vec2, poly: Polygon): number {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const q of poly) {
    if (q.x < minX) minX = q.x;
    if (q.y < minY) minY = q.y;
    if (q.x > maxX) maxX = q.x;
    if (q.y > maxY) maxY = q.y;
  }
  return hypot(Math.max(0, minX - p.x, p.x - maxX), Math.max(0, minY - p.y, p.y - maxY));
}

/** Shortest distance between two segments, with the closest points. */
export const segmentToSegment = (a1: Vec2, a2: Vec2, b1: Vec2, b2: Vec2): Separation =>
  segmentSeparation(a1, a2, b1, b2);

/** Distance from a polygon set to a segment (a path, a line of fire). */
export function polygonSetToSegment(set: readonly Polygon[], a: Vec2, b: Vec2): SetSeparation {
  return polygonSetSeparation(set, [[a, b]]);
}
