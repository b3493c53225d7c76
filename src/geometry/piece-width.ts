import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';
import { spanAlong } from './zone.ts';

/**
 * Pieces of neighbouring slabs whose common side lies within this of each other (mm) are
 * neighbours: the sweep leaves out slabs thinner than a nanometre (float noise between two copies
 * of one vertex), so the pieces either side of one meet a hair apart.
 */
const SIDE_GAP_MM = 1e-6;

/**
 * Two runs of one slab meet along an edge when one's top is the other's bottom at both sides to
 * within this (mm): the outlines of two bases in contact are two edges a few ulps apart, with an
 * empty stretch of no height between them.
 */
const SEAM_MM = 1e-9;

interface Side {
  readonly x: number;
  readonly low: number;
  readonly high: number;
}

/** The vertical side of a slab piece at its left (or right) end: where its corners stand at that x. */
function sideAt(p: Polygon, right: boolean): Side {
  let x = right ? -Infinity : Infinity;
  for (const v of p) x = right ? Math.max(x, v.x) : Math.min(x, v.x);
  let low = Infinity;
  let high = -Infinity;
  for (const v of p)
    if (v.x === x) {
      low = Math.min(low, v.y);
      high = Math.max(high, v.y);
    }
  return { x, low, high };
}

/**
 * How wide the widest connected part of a region is along `dir` (a unit vector), the region
 * given as the slab sweep's pieces (`booleanPieces`: trapezoids with vertical sides, one per slab
 * and run). A piece's neighbour in the next slab is part of the same connected part when their
 * common sides overlap over some length, and two runs of one slab are when one's top is the
 * other's bottom (two bases in contact); touching at a point does not join them (nothing passes
 * through a point). So a part cut into many slabs by the corners around it is as wide as the whole
 * part, not as its widest slab, and the answer does not depend on where the sweep cuts.
 *
 * Written here because the pieces carry their slab structure: joining them costs a lookup per
 * piece, where a polygon union (polyclip-ts) costs far more for the same widths.
 */
export function widestPart(pieces: readonly Polygon[], dir: Vec2): number {
  let widest = 0;
  for (const p of partsAcross(pieces, dir)) widest = Math.max(widest, p.width);
  return widest;
}

/** The connected parts of a region given as the sweep's pieces (as widestPart joins them), each with its width along `dir`. */
export function partsAcross(
  pieces: readonly Polygon[],
  dir: Vec2,
): Array<{ readonly pieces: readonly Polygon[]; readonly width: number }> {
  const n = pieces.length;
  if (n === 0) return [];
  const left: Side[] = [];
  const right: Side[] = [];
  const lo = new Float64Array(n);
  const hi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = pieces[i] as Polygon;
    left.push(sideAt(p, false));
    right.push(sideAt(p, true));
    [lo[i], hi[i]] = spanAlong(p, dir);
  }
  // Pieces by their left side's x, to find each piece's neighbours to the right.
  const byLeft = Array.from({ length: n }, (_, i) => i).sort(
    (i, j) => (left[i] as Side).x - (left[j] as Side).x,
  );
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number;
      i = parent[i] as number;
    }
    return i;
  };
  for (let i = 0; i < n; i++) {
    const r = right[i] as Side;
    // The first piece whose left side is at or after r.x − SIDE_GAP_MM (binary search).
    let a = 0;
    let b = n;
    while (a < b) {
      const m = (a + b) >> 1;
      if ((left[byLeft[m] as number] as Side).x < r.x - SIDE_GAP_MM) a = m + 1;
      else b = m;
    }
    for (let k = a; k < n; k++) {
      const j = byLeft[k] as number;
      const l = left[j] as Side;
      if (l.x > r.x + SIDE_GAP_MM) break;
      if (j === i || Math.min(r.high, l.high) - Math.max(r.low, l.low) <= 0) continue;
      parent[find(i)] = find(j);
    }
  }
  // Runs of one slab that meet along an edge (bases in contact): pieces by slab, bottom up.
  const bySlab = Array.from({ length: n }, (_, i) => i).sort(
    (i, j) =>
      (left[i] as Side).x - (left[j] as Side).x ||
      (right[i] as Side).x - (right[j] as Side).x ||
      (left[i] as Side).low - (left[j] as Side).low,
  );
  for (let k = 0; k + 1 < n; k++) {
    const i = bySlab[k] as number;
    const j = bySlab[k + 1] as number;
    const li = left[i] as Side;
    const lj = left[j] as Side;
    const ri = right[i] as Side;
    const rj = right[j] as Side;
    if (li.x !== lj.x || ri.x !== rj.x) continue;
    if (Math.abs(li.high - lj.low) <= SEAM_MM && Math.abs(ri.high - rj.low) <= SEAM_MM)
      parent[find(i)] = find(j);
  }
  const parts = new Map<number, { pieces: Polygon[]; lo: number; hi: number }>();
  for (let i = 0; i < n; i++) {
    const root = find(i);
    const part = parts.get(root) ?? { pieces: [], lo: Infinity, hi: -Infinity };
    part.pieces.push(pieces[i] as Polygon);
    part.lo = Math.min(part.lo, lo[i] as number);
    part.hi = Math.max(part.hi, hi[i] as number);
    parts.set(root, part);
  }
  return [...parts.values()].map((p) => ({ pieces: p.pieces, width: p.hi - p.lo }));
}
