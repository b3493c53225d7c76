import { difference, intersection, setPrecision, union, type Geom } from 'polyclip-ts';
import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import { containsPoint } from '../../src/geometry/polygon.ts';
import { booleanArea, booleanPieces } from '../../src/geometry/region-area.ts';

/**
 * The slab areas against polyclip-ts, called directly here (the independent computation): random
 * regions of the kinds sight builds (rotated bases in touching ranks, convex shadows, concave
 * wood shadows, either orientation), including vertices on edges and shared edges.
 */

type Ring = [number, number][];
const ring = (p: Polygon): Ring => {
  const r: Ring = p.map((q) => [q.x, q.y]);
  r.push([p[0]!.x, p[0]!.y]);
  return r;
};
const geom = (region: readonly Polygon[]): Ring[][] => region.map((p) => [ring(p)]);
const area = (mp: Ring[][]): number =>
  mp.reduce(
    (s, poly) =>
      s +
      poly.reduce((t, r, i) => {
        let a = 0;
        for (let k = 0; k + 1 < r.length; k++) a += r[k]![0] * r[k + 1]![1] - r[k + 1]![0] * r[k]![1];
        return t + (i === 0 ? 1 : -1) * Math.abs(a / 2);
      }, 0),
    0,
  );

/** polyclip's answer, retried with its own epsilon snapping when the exact sweep gives up (as boolean.ts does). */
function reference(
  a: readonly Polygon[],
  b: readonly Polygon[],
  op: 'difference' | 'intersection' | 'union',
): number | undefined {
  try {
    return referenceOnce(a, b, op);
  } catch {
    setPrecision(1e-7);
    try {
      return referenceOnce(a, b, op);
    } catch {
      return undefined;
    } finally {
      setPrecision();
    }
  }
}

function referenceOnce(
  a: readonly Polygon[],
  b: readonly Polygon[],
  op: 'difference' | 'intersection' | 'union',
): number {
  const ga = geom(a);
  const gb = geom(b);
  if (op === 'union') return area(union(ga[0] as Geom, ...(ga.slice(1) as Geom[])) as Ring[][]);
  if (gb.length === 0)
    return op === 'difference' ? area(union(ga[0] as Geom, ...(ga.slice(1) as Geom[])) as Ring[][]) : 0;
  if (op === 'difference') return area(difference(ga as Geom, ...(gb as Geom[])) as Ring[][]);
  return area(intersection(ga as Geom, gb as Geom) as Ring[][]);
}

function randomRegions(seed: number): { a: Polygon[]; b: Polygon[] } {
  const r = rng(seed);
  const between = (lo: number, hi: number) => lo + (hi - lo) * r();
  // A: a rank of touching bases (sharing edges), turned; sometimes a gap or an overlap.
  const n = 1 + Math.floor(r() * 5);
  const w = between(20, 60);
  const d = between(15, 50);
  const t = r() * Math.PI * 2;
  const c = Math.cos(t);
  const s = Math.sin(t);
  const step = w * (r() < 0.6 ? 1 : between(0.8, 1.3));
  const snap = r() < 0.5 ? (v: number) => Math.round(v) : (v: number) => v;
  const a: Polygon[] = [];
  for (let k = 0; k < n; k++) {
    const ox = k * step;
    const corners = [
      [ox, 0],
      [ox + w, 0],
      [ox + w, d],
      [ox, d],
    ].map(([x, y]) => ({ x: snap(100 + x! * c - y! * s), y: snap(100 + x! * s + y! * c) }));
    a.push(r() < 0.5 ? corners : [...corners].reverse());
  }
  // B: convex shadows and concave stars over the same area; some share A's corners exactly.
  const b: Polygon[] = [];
  const m = Math.floor(r() * 5);
  const pts = a.flat();
  for (let k = 0; k < m; k++) {
    const cx = between(40, 300);
    const cy = between(40, 300);
    if (r() < 0.5) {
      const q = pts[Math.floor(r() * pts.length)]!;
      const far = { x: q.x + between(-200, 200), y: q.y + between(-200, 200) };
      const other = pts[Math.floor(r() * pts.length)]!;
      b.push([q, far, { x: far.x + between(-50, 50), y: far.y + between(-50, 50) }, other]);
    } else {
      const sides = 5 + Math.floor(r() * 6);
      const star: Polygon = Array.from({ length: sides }, (_, i) => {
        const ang = (2 * Math.PI * i) / sides;
        const rad = (i % 2 === 0 ? 1 : between(0.3, 1)) * between(30, 120);
        return { x: cx + Math.cos(ang) * rad, y: cy + Math.sin(ang) * rad };
      });
      b.push(r() < 0.5 ? star : [...star].reverse());
    }
  }
  return { a, b };
}

const simple = (p: Polygon): boolean => {
  const n = p.length;
  const cross = (o: { x: number; y: number }, u: { x: number; y: number }, v: { x: number; y: number }) =>
    (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x);
  for (let i = 0; i < n; i++)
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      const a1 = p[i]!;
      const a2 = p[(i + 1) % n]!;
      const b1 = p[j]!;
      const b2 = p[(j + 1) % n]!;
      if (cross(a1, a2, b1) * cross(a1, a2, b2) < 0 && cross(b1, b2, a1) * cross(b1, b2, a2) < 0)
        return false;
    }
  return true;
};

describe('booleanArea (slabs) equals polyclip-ts', () => {
  it('on 600 random regions of bases, shadows and concave pieces', () => {
    let cut = 0;
    let checked = 0;
    let refused = 0;
    for (let seed = 1; seed <= 600; seed++) {
      const { a, b } = randomRegions(seed);
      const bs = b.filter(simple);
      for (const op of ['difference', 'intersection', 'union'] as const) {
        const want = reference(a, bs, op);
        if (want === undefined) {
          refused++;
          continue;
        }
        const got = booleanArea(a, bs, op);
        const scale = Math.max(1, booleanArea(a, [], 'union'));
        expect(Math.abs(got - want) / scale, `seed ${seed} ${op}: ${got} vs ${want}`).toBeLessThan(1e-9);
        checked++;
        if (op === 'intersection' && want > 1) cut++;
      }
    }
    expect(checked + refused).toBe(1800);
    expect(refused).toBeLessThan(20);
    // Not vacuous: many targets are partly cut.
    expect(cut).toBeGreaterThan(150);
  });

  it('the pieces of a difference cover exactly the points of A outside B', () => {
    let inside = 0;
    let outside = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const { a, b } = randomRegions(seed);
      const bs = b.filter(simple);
      const { pieces, area } = booleanPieces(a, bs, 'difference');
      expect(area).toBeCloseTo(booleanArea(a, bs, 'difference'), 9);
      expect(pieces.reduce((s, p) => s + booleanArea([p], [], 'union'), 0)).toBeCloseTo(area, 6);
      const r = rng(seed + 5000);
      for (let k = 0; k < 200; k++) {
        const p = { x: 40 + r() * 300, y: 40 + r() * 300 };
        const want = a.some((q) => containsPoint(q, p)) && !bs.some((q) => containsPoint(q, p));
        const got = pieces.some((q) => containsPoint(q, p));
        if (got !== want) {
          // Only a point within a hair of an edge may be read either way.
          const near = [...a, ...bs, ...pieces].some((q) =>
            q.some((u, i) => {
              const v = q[(i + 1) % q.length]!;
              const len = Math.hypot(v.x - u.x, v.y - u.y) || 1;
              return Math.abs(((v.x - u.x) * (p.y - u.y) - (v.y - u.y) * (p.x - u.x)) / len) < 1e-6;
            }),
          );
          expect(near, `seed ${seed} point ${p.x},${p.y}`).toBe(true);
        }
        if (want) inside++;
        else outside++;
      }
    }
    expect(inside).toBeGreaterThan(500);
    expect(outside).toBeGreaterThan(500);
  });

  it('degenerate cases: empty, zero-area and fully covered', () => {
    const sq: Polygon = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
      { x: 0, y: 10 },
    ];
    const big: Polygon = [
      { x: -5, y: -5 },
      { x: 15, y: -5 },
      { x: 15, y: 15 },
      { x: -5, y: 15 },
    ];
    expect(booleanArea([], [sq], 'difference')).toBe(0);
    expect(booleanArea([sq], [], 'difference')).toBeCloseTo(100, 12);
    expect(booleanArea([sq], [big], 'difference')).toBeCloseTo(0, 12);
    expect(booleanArea([sq], [big], 'intersection')).toBeCloseTo(100, 12);
    expect(booleanArea([sq, sq], [], 'union')).toBeCloseTo(100, 12);
    expect(
      booleanArea(
        [
          [
            { x: 0, y: 0 },
            { x: 5, y: 0 },
            { x: 10, y: 0 },
          ],
        ],
        [],
        'union',
      ),
    ).toBe(0);
  });
});
