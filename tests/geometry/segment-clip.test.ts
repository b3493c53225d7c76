import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import { containsPoint, type Polygon } from '../../src/geometry/polygon.ts';
import { segmentInsidePolygon, type SegmentInterval } from '../../src/geometry/segment-clip.ts';
import type { Vec2 } from '../../src/geometry/vec.ts';

/**
 * segmentInsidePolygon keeps its crossings in order as it finds them (an insertion sort) instead
 * of sorting them afterwards: the same stretches, number for number, as the plain computation
 * (every crossing listed, then Array.prototype.sort), on random segments through random simple
 * polygons, convex and concave, half on a coarse grid (segments through corners, along edges).
 */

/** The stretches as computed before (crossings sorted afterwards): the reference. */
function reference(a: Vec2, b: Vec2, poly: Polygon): SegmentInterval[] {
  const d = { x: b.x - a.x, y: b.y - a.y };
  const ts: number[] = [0, 1];
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const p = poly[i] as Vec2;
    const q = poly[(i + 1) % n] as Vec2;
    const e = { x: q.x - p.x, y: q.y - p.y };
    const denom = d.x * e.y - d.y * e.x;
    if (denom === 0) continue;
    const w = { x: p.x - a.x, y: p.y - a.y };
    const t = (w.x * e.y - w.y * e.x) / denom;
    const u = (w.x * d.y - w.y * d.x) / denom;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) ts.push(t);
  }
  ts.sort((x, y) => x - y);
  const out: SegmentInterval[] = [];
  for (let i = 0; i + 1 < ts.length; i++) {
    const t0 = ts[i] as number;
    const t1 = ts[i + 1] as number;
    if (t1 - t0 < 1e-12) continue;
    const tm = (t0 + t1) / 2;
    if (containsPoint(poly, { x: a.x + d.x * tm, y: a.y + d.y * tm })) {
      const last = out[out.length - 1];
      if (last && Math.abs(last.t1 - t0) < 1e-12) out[out.length - 1] = { t0: last.t0, t1 };
      else out.push({ t0, t1 });
    }
  }
  return out;
}

/** A star-shaped polygon (simple), many-cornered and concave, or a rectangle. */
function polygon(r: () => number, grid: boolean): Polygon {
  const v = (x: number) => (grid ? Math.round(x / 10) * 10 : x);
  const cx = v(r() * 200);
  const cy = v(r() * 200);
  if (r() < 0.3) {
    const w = v(20 + r() * 100);
    const h = v(20 + r() * 100);
    return [
      { x: cx, y: cy },
      { x: cx + w, y: cy },
      { x: cx + w, y: cy + h },
      { x: cx, y: cy + h },
    ];
  }
  const sides = 5 + Math.floor(r() * 20);
  return Array.from({ length: sides }, (_, i) => {
    const ang = (2 * Math.PI * i) / sides;
    const rad = (i % 2 === 0 ? 1 : 0.3 + 0.7 * r()) * (30 + r() * 100);
    return { x: v(cx + Math.cos(ang) * rad), y: v(cy + Math.sin(ang) * rad) };
  });
}

describe('segmentInsidePolygon with its crossings kept in order', () => {
  it('equals sorting them afterwards on 20,000 random segments, number for number', () => {
    const r = rng(29);
    let differing = 0;
    let several = 0;
    for (let k = 0; k < 20000; k++) {
      const grid = k % 2 === 0;
      const v = (x: number) => (grid ? Math.round(x / 10) * 10 : x);
      const poly = polygon(r, grid);
      const corner = poly[Math.floor(r() * poly.length)] as Vec2;
      const a = r() < 0.3 ? corner : { x: v(r() * 300 - 50), y: v(r() * 300 - 50) };
      const b = { x: v(r() * 300 - 50), y: v(r() * 300 - 50) };
      const got = segmentInsidePolygon(a, b, poly);
      const want = reference(a, b, poly);
      const same =
        got.length === want.length &&
        got.every((iv, i) => Object.is(iv.t0, want[i]?.t0) && Object.is(iv.t1, want[i]?.t1));
      if (!same) differing++;
      if (want.length >= 2) several++;
    }
    expect(differing).toBe(0);
    expect(several).toBeGreaterThan(1000);
  });
});
