import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import { booleanArea, booleanPieces, type AreaOp } from '../../src/geometry/region-area.ts';
import { referenceArea, referencePieces } from './slab-reference.ts';

/**
 * The slab sweep leaves B's edges wholly above or below A out of its cuts (below ones only step
 * B's winding) and takes a slab's left cuts from the slab before: the same pieces and areas, bit
 * for bit, as cutting every edge at every slab (slab-reference.ts). Random regions as sight makes
 * them: bases in ranks, shadows clipped to a box round the target (whose top and bottom edges
 * lie beyond it), long concave wood shadows and stars running far above and below, half on a
 * coarse grid (shared edges, vertices on edges, −0).
 */

function regions(seed: number): { a: Polygon[]; b: Polygon[] } {
  const r = rng(seed);
  const between = (lo: number, hi: number) => lo + (hi - lo) * r();
  const grid = r() < 0.5;
  const snap = grid ? (v: number) => Math.round(v / 5) * 5 : (v: number) => v;
  const n = 1 + Math.floor(r() * 5);
  const w = between(20, 60);
  const d = between(15, 50);
  const t = r() < 0.3 ? 0 : r() * Math.PI * 2;
  const c = Math.cos(t);
  const s = Math.sin(t);
  const ox0 = r() < 0.2 ? -30 : between(-200, 200);
  const oy0 = r() < 0.2 ? -20 : between(-200, 200);
  const a: Polygon[] = [];
  for (let k = 0; k < n; k++) {
    const ox = k * w * (r() < 0.6 ? 1 : between(0.8, 1.3));
    const corners = [
      [ox, 0],
      [ox + w, 0],
      [ox + w, d],
      [ox, d],
    ].map(([x, y]) => ({ x: snap(ox0 + x! * c - y! * s), y: snap(oy0 + x! * s + y! * c) }));
    a.push(r() < 0.5 ? corners : [...corners].reverse());
  }
  const xs = a.flat().map((p) => p.x);
  const ys = a.flat().map((p) => p.y);
  const box = { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
  const b: Polygon[] = [];
  const m = 1 + Math.floor(r() * 6);
  for (let k = 0; k < m; k++) {
    const kind = r();
    if (kind < 0.3) {
      // A shadow clipped to the box grown 1 mm (as cutToBox does): its top and bottom beyond A.
      const x0 = snap(between(box.minX - 20, box.maxX));
      const x1 = snap(between(x0 + 1, box.maxX + 20));
      const y0 = box.minY - (r() < 0.5 ? 1 : between(0, 1e-12));
      const y1 = box.maxY + (r() < 0.5 ? 1 : between(0, 1e-12));
      const left = snap(between(x0, x1));
      const quad = [
        { x: x0, y: y0 },
        { x: x1, y: y0 },
        { x: x1, y: y1 },
        { x: left, y: y1 },
      ];
      b.push(r() < 0.5 ? quad : [...quad].reverse());
    } else if (kind < 0.6) {
      // A long wood shadow: a comb of teeth reaching far above and below the target.
      // Up to 160 teeth: a wood's fan has a ray every quarter degree (the sweep then finds
      // crossings by x order instead of trying every pair).
      const teeth = 3 + Math.floor(r() * (r() < 0.3 ? 160 : 8));
      const x0 = between(box.minX - 100, box.minX);
      const x1 = between(box.maxX, box.maxX + 100);
      const top = box.maxY + between(0, 400);
      const bottom = box.minY - between(0, 400);
      const pts: { x: number; y: number }[] = [
        { x: x0, y: bottom },
        { x: x1, y: bottom },
      ];
      for (let i = teeth; i >= 0; i--) {
        const x = snap(x0 + ((x1 - x0) * i) / teeth);
        pts.push({ x, y: i % 2 === 0 ? top : snap(between(bottom, top)) });
      }
      b.push(r() < 0.5 ? pts : [...pts].reverse());
    } else if (kind < 0.7) {
      // Touching A's top or bottom from beyond, or reaching a hair into it.
      const up = r() < 0.5;
      const edgeY = up ? box.maxY : box.minY;
      const gap = [0, 1e-13, 1e-9, 1e-6, -1e-9, -1e-6][Math.floor(r() * 6)] as number;
      const y = up ? edgeY + gap : edgeY - gap;
      const x0 = snap(between(box.minX - 30, box.maxX));
      const x1 = snap(between(x0 + 1, box.maxX + 30));
      const far = up ? y + between(1, 100) : y - between(1, 100);
      const quad = [
        { x: x0, y },
        { x: x1, y },
        { x: x1, y: far },
        { x: x0, y: far },
      ];
      b.push(r() < 0.5 ? quad : [...quad].reverse());
    } else if (kind < 0.8) {
      // A thin sliver wholly above or below, inside A's x-range (steps the winding or not at all).
      const y = r() < 0.5 ? box.maxY + between(1e-6, 50) : box.minY - between(1e-6, 50);
      const x0 = between(box.minX - 30, box.maxX);
      const tri = [
        { x: x0, y },
        { x: x0 + between(5, 200), y: y + between(-30, 30) },
        { x: x0 + between(-50, 50), y: y + (y > box.maxY ? 300 : -300) },
      ];
      b.push(tri);
    } else {
      const sides = 5 + Math.floor(r() * 6);
      const cx = between(box.minX, box.maxX);
      const cy = between(box.minY, box.maxY);
      const star: Polygon = Array.from({ length: sides }, (_, i) => {
        const ang = (2 * Math.PI * i) / sides;
        const rad = (i % 2 === 0 ? 1 : between(0.3, 1)) * between(30, 300);
        return { x: snap(cx + Math.cos(ang) * rad), y: snap(cy + Math.sin(ang) * rad) };
      });
      b.push(r() < 0.5 ? star : [...star].reverse());
    }
  }
  return { a, b };
}

/** Number for number, Object.is (so −0 and 0 differ). */
function samePieces(p: readonly Polygon[], q: readonly Polygon[]): boolean {
  if (p.length !== q.length) return false;
  for (let i = 0; i < p.length; i++) {
    const u = p[i] as Polygon;
    const v = q[i] as Polygon;
    if (u.length !== v.length) return false;
    for (let k = 0; k < u.length; k++)
      if (!Object.is(u[k]!.x, v[k]!.x) || !Object.is(u[k]!.y, v[k]!.y)) return false;
  }
  return true;
}

describe('slab sweep fast paths equal cutting every edge at every slab', () => {
  it('20,000 random differences, intersections and unions: the same pieces and areas, bit for bit', () => {
    const ops: AreaOp[] = ['difference', 'intersection', 'union'];
    let differing = 0;
    let nonEmpty = 0;
    let partial = 0;
    for (let seed = 1; seed <= 20000; seed++) {
      const { a, b } = regions(seed);
      const op = ops[seed % 3] as AreaOp;
      const area = booleanArea(a, b, op);
      const ref = referenceArea(a, b, op);
      const pieces = booleanPieces(a, b, op);
      const refPieces = referencePieces(a, b, op);
      if (
        !Object.is(area, ref) ||
        !Object.is(pieces.area, refPieces.area) ||
        !samePieces(pieces.pieces, refPieces.pieces)
      )
        differing++;
      if (ref > 0) nonEmpty++;
      const whole = referenceArea(a, [], 'union');
      if (ref > 1e-6 && ref < whole - 1e-6) partial++;
    }
    expect(differing).toBe(0);
    // Not only empty or whole results.
    expect(nonEmpty).toBeGreaterThan(10000);
    expect(partial).toBeGreaterThan(5000);
  });
});
