import type { Polygon } from './polygon.ts';

/**
 * Areas of boolean combinations of two regions (each a union of simple polygons, in any
 * orientation, overlapping or touching), without building the result: the plane is cut into
 * vertical slabs at every vertex and every crossing of two edges, so inside a slab no two edges
 * cross and each edge is a straight piece from the slab's left side to its right. Walking up a
 * slab, each edge steps its polygon's winding count; between two edges the region is in or out,
 * and an "in" stretch is a trapezoid. Exact to rounding, with no failure mode: touching edges,
 * a vertex on an edge and collinear overlaps only make trapezoids of zero height.
 *
 * This is what the sight shares need many times a pair (a target moved by a probe each time):
 * a sweep-line clipper (polyclip-ts, arbitrary precision) costs ~20× more for the same number.
 */

/** Which area: of A ∖ B, of A ∩ B, or of A alone (B ignored). */
export type AreaOp = 'difference' | 'intersection' | 'union';

interface Edge {
  /** Left and right end, x0 < x1 (vertical edges add no area and are dropped). */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Winding step when crossing it upwards: +1 or −1. */
  w: number;
  /** 0: region A, 1: region B. */
  set: 0 | 1;
  yMin: number;
  yMax: number;
}

/** An edge where it crosses one slab (reused from call to call: no garbage per slab). */
interface Cut {
  mid: number;
  l: number;
  r: number;
  w: number;
  set: 0 | 1;
}

const pool: Cut[] = [];

function collect(region: readonly Polygon[], set: 0 | 1, out: Edge[]): void {
  for (const poly of region) {
    const n = poly.length;
    if (n < 3) continue;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const p = poly[i] as { x: number; y: number };
      const q = poly[(i + 1) % n] as { x: number; y: number };
      s += p.x * q.y - q.x * p.y;
    }
    if (s === 0) continue;
    // Counter-clockwise: the lower edges run left to right, and crossing one upwards enters.
    const orient = s > 0 ? 1 : -1;
    for (let i = 0; i < n; i++) {
      const p = poly[i] as { x: number; y: number };
      const q = poly[(i + 1) % n] as { x: number; y: number };
      if (p.x === q.x) continue;
      const yMin = Math.min(p.y, q.y);
      const yMax = Math.max(p.y, q.y);
      if (p.x < q.x) out.push({ x0: p.x, y0: p.y, x1: q.x, y1: q.y, w: orient, set, yMin, yMax });
      else out.push({ x0: q.x, y0: q.y, x1: p.x, y1: p.y, w: -orient, set, yMin, yMax });
    }
  }
}

const yAt = (e: Edge, x: number): number =>
  x <= e.x0 ? e.y0 : x >= e.x1 ? e.y1 : e.y0 + ((e.y1 - e.y0) * (x - e.x0)) / (e.x1 - e.x0);

/** x of the proper crossing of two edges strictly inside both x-ranges, or NaN. */
function crossingX(a: Edge, b: Edge): number {
  const lo = Math.max(a.x0, b.x0);
  const hi = Math.min(a.x1, b.x1);
  if (!(lo < hi)) return NaN;
  const dLo = yAt(a, lo) - yAt(b, lo);
  const dHi = yAt(a, hi) - yAt(b, hi);
  if (dLo === 0 || dHi === 0 || dLo > 0 === dHi > 0) return NaN;
  return lo + ((hi - lo) * dLo) / (dLo - dHi);
}

/** One stretch of the result inside a slab: a trapezoid with vertical sides at xl and xr. */
type Stretch = (xl: number, xr: number, lowL: number, lowR: number, highL: number, highR: number) => void;

/** Stretches thinner than this (mm) are rounding noise, far below anything a camera measures. */
const SLIVER_MM = 1e-9;

/** Walks the slabs of A op B, reporting each maximal "in" stretch of each slab. */
function sweep(a: readonly Polygon[], b: readonly Polygon[], op: AreaOp, emit: Stretch): void {
  const edges: Edge[] = [];
  collect(a, 0, edges);
  if (edges.length === 0) return;
  if (op !== 'union') collect(b, 1, edges);
  // Only A's x-range can hold area.
  let minX = Infinity;
  let maxX = -Infinity;
  for (const e of edges)
    if (e.set === 0) {
      if (e.x0 < minX) minX = e.x0;
      if (e.x1 > maxX) maxX = e.x1;
    }
  const live = edges.filter((e) => e.x1 > minX && e.x0 < maxX);
  const xs: number[] = [minX, maxX];
  for (const e of live) {
    if (e.x0 > minX) xs.push(e.x0);
    if (e.x1 < maxX) xs.push(e.x1);
  }
  for (let i = 0; i < live.length; i++) {
    const a = live[i] as Edge;
    for (let j = i + 1; j < live.length; j++) {
      const b = live[j] as Edge;
      // Edges whose boxes do not overlap cannot cross (crossingX would say NaN).
      if (a.yMax < b.yMin || b.yMax < a.yMin || a.x1 <= b.x0 || b.x1 <= a.x0) continue;
      const x = crossingX(a, b);
      if (x > minX && x < maxX) xs.push(x);
    }
  }
  xs.sort((p, q) => p - q);
  const inside =
    op === 'difference'
      ? (wa: number, wb: number) => wa !== 0 && wb === 0
      : op === 'intersection'
        ? (wa: number, wb: number) => wa !== 0 && wb !== 0
        : (wa: number) => wa !== 0;
  const cut: Cut[] = [];
  for (let k = 0; k + 1 < xs.length; k++) {
    const xl = xs[k] as number;
    const xr = xs[k + 1] as number;
    if (!(xr > xl)) continue;
    const xm = (xl + xr) / 2;
    cut.length = 0;
    for (const e of live)
      if (e.x0 <= xl && e.x1 >= xr) {
        let c = pool[cut.length];
        if (!c) {
          c = { mid: 0, l: 0, r: 0, w: 0, set: 0 };
          pool.push(c);
        }
        c.mid = yAt(e, xm);
        c.l = yAt(e, xl);
        c.r = yAt(e, xr);
        c.w = e.w;
        c.set = e.set;
        cut.push(c);
      }
    if (cut.length < 2) continue;
    cut.sort((p, q) => p.mid - q.mid);
    let wa = 0;
    let wb = 0;
    let from = -1;
    for (let i = 0; i + 1 < cut.length; i++) {
      const c = cut[i] as Cut;
      if (c.set === 0) wa += c.w;
      else wb += c.w;
      const on = inside(wa, wb);
      if (on && from < 0) from = i;
      if (from >= 0 && (!on || i + 2 === cut.length)) {
        // The run of "in" stretches ends at edge i (not in) or at the last edge.
        const top = (on ? cut[i + 1] : c) as Cut;
        const low = cut[from] as Cut;
        // Slivers are float noise where edges of A and B coincide (a shadow edge along the
        // target's side, a slab between two copies of one vertex): neither area nor a piece.
        const sliver = xr - xl < SLIVER_MM || (top.l - low.l < SLIVER_MM && top.r - low.r < SLIVER_MM);
        if (!sliver) emit(xl, xr, low.l, low.r, top.l, top.r);
        from = -1;
      }
    }
  }
}

/** The area of A ∖ B, A ∩ B, or A (as a union of its polygons). */
export function booleanArea(a: readonly Polygon[], b: readonly Polygon[], op: AreaOp): number {
  let area = 0;
  sweep(a, b, op, (xl, xr, lowL, lowR, highL, highR) => {
    area += ((highL - lowL + (highR - lowR)) * (xr - xl)) / 2;
  });
  return area;
}

/**
 * A ∖ B, A ∩ B or A as pieces (trapezoids, one per slab and run, none of zero area) whose union
 * is the result, with its area: what a nearest point or a distance needs, without merging the
 * pieces into outlines.
 */
export function booleanPieces(
  a: readonly Polygon[],
  b: readonly Polygon[],
  op: AreaOp,
): { pieces: Polygon[]; area: number } {
  const pieces: Polygon[] = [];
  let area = 0;
  sweep(a, b, op, (xl, xr, lowL, lowR, highL, highR) => {
    const pieceArea = ((highL - lowL + (highR - lowR)) * (xr - xl)) / 2;
    area += pieceArea;
    if (!(pieceArea > 0)) return;
    // A side of zero height makes it a triangle.
    const piece: Polygon =
      lowL === highL
        ? [
            { x: xl, y: lowL },
            { x: xr, y: lowR },
            { x: xr, y: highR },
          ]
        : lowR === highR
          ? [
              { x: xl, y: lowL },
              { x: xr, y: lowR },
              { x: xl, y: highL },
            ]
          : [
              { x: xl, y: lowL },
              { x: xr, y: lowR },
              { x: xr, y: highR },
              { x: xl, y: highL },
            ];
    pieces.push(piece);
  });
  return { pieces, area };
}
