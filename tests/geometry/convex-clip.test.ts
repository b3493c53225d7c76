import { describe, expect, it } from 'vitest';
import { areaInsideConvex, clipToConvex, shareInsideConvex } from '../../src/geometry/convex-clip.ts';
import { polygonArea, signedArea, type Polygon } from '../../src/geometry/polygon.ts';
import type { Vec2 } from '../../src/geometry/vec.ts';
import { rng } from '../../bench/rules-scenario.ts';
import { turned, turnedRect } from './turned.ts';

const rect = (x0: number, x1: number, y0: number, y1: number) => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];

describe('clipToConvex', () => {
  it('overlapping rectangles give their overlap, whatever the zone winding', () => {
    expect(polygonArea(clipToConvex(rect(0, 4, 0, 4), rect(2, 6, 1, 3)))).toBeCloseTo(4, 12);
    expect(polygonArea(clipToConvex(rect(0, 4, 0, 4), [...rect(2, 6, 1, 3)].reverse()))).toBeCloseTo(4, 12);
  });
  it('a wedge whose ray passes exactly through a corner (where a general boolean engine may fail)', () => {
    // Wedge above the ray y − 2 = x − 10 from (10,2), clipped to x ≥ 10; target [12,22]×[4,6] touches the ray at (12,4).
    const wedge = [
      { x: 10, y: 2 },
      { x: 1000, y: 992 },
      { x: 10, y: 1000 },
    ];
    // Inside: x ≤ y + 8 → for y ∈ [4,6] width y − 4: area 2.
    expect(areaInsideConvex([rect(12, 22, 4, 6)], wedge)).toBeCloseTo(2, 9);
    expect(shareInsideConvex([rect(12, 22, 4, 6)], wedge)).toBeCloseTo(0.1, 9);
  });
  it('disjoint or merely touching gives zero area', () => {
    expect(areaInsideConvex([rect(5, 6, 0, 1)], rect(0, 4, 0, 4))).toBe(0);
    expect(areaInsideConvex([rect(4, 6, 0, 1)], rect(0, 4, 0, 4))).toBeCloseTo(0, 12);
  });
});

/** Sutherland–Hodgman copying the polygon at every edge: the clipping before edges that cut nothing were skipped. */
function clipEveryEdge(subject: Polygon, convex: Polygon): Vec2[] {
  const ccw = signedArea(convex) >= 0;
  let out: Vec2[] = [...subject];
  const n = convex.length;
  for (let i = 0; i < n && out.length > 0; i++) {
    const a = convex[i] as Vec2;
    const b = convex[(i + 1) % n] as Vec2;
    const side = (q: Vec2) => {
      const s = (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x);
      return ccw ? s : -s;
    };
    const input = out;
    out = [];
    for (let k = 0; k < input.length; k++) {
      const p = input[k] as Vec2;
      const q = input[(k + 1) % input.length] as Vec2;
      const sp = side(p);
      const sq = side(q);
      if (sp >= 0) out.push(p);
      if (sp >= 0 !== sq >= 0) {
        const t = sp / (sp - sq);
        out.push({ x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t });
      }
    }
  }
  return out;
}

describe('clipToConvex skipping the edges that cut nothing, its passes in reused buffers', () => {
  it('gives the plain clipping point for point (Object.is) on 20,000 random cases, half on a grid (points on edges)', () => {
    const r = rng(71);
    let whole = 0;
    let cut = 0;
    for (let k = 0; k < 20_000; k++) {
      const grid = k % 2 === 0;
      const v = (x: number) => (grid ? Math.round(x / 10) * 10 : x);
      const subject =
        k % 5 === 4
          ? turned(
              [
                [0, 0],
                [60, 0],
                [60, 20],
                [20, 20],
                [20, 60],
                [0, 60],
              ],
              v(r() * 200),
              v(r() * 200),
              grid ? 0 : r() * 7,
            )
          : turnedRect(v(r() * 200), v(r() * 200), v(10 + r() * 120), v(10 + r() * 80), grid ? 0 : r() * 7);
      const zone = turnedRect(
        v(r() * 200),
        v(r() * 200),
        v(20 + r() * 200),
        v(20 + r() * 200),
        grid ? 0 : r() * 7,
      );
      const convex = k % 3 === 0 ? [...zone].reverse() : zone;
      const got = clipToConvex(subject, convex);
      const want = clipEveryEdge(subject, convex);
      expect(got.length, `case ${k}`).toBe(want.length);
      got.forEach((p, i) => {
        expect(Object.is(p.x, want[i]?.x) && Object.is(p.y, want[i]?.y), `case ${k}, point ${i}`).toBe(true);
        // A point no pass cut is the subject's own object, as the plain clipping keeps it.
        expect(subject.includes(p), `case ${k}, point ${i} kept`).toBe(subject.includes(want[i] as Vec2));
      });
      expect(got).not.toBe(subject);
      if (want.length === subject.length && want.every((p, i) => p === subject[i])) whole++;
      else if (want.length > 0) cut++;
    }
    expect(whole).toBeGreaterThan(1000);
    expect(cut).toBeGreaterThan(5000);
  });
});
