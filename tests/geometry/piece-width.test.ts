import { difference, setPrecision, type Geom } from 'polyclip-ts';
import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import { widestPart } from '../../src/geometry/piece-width.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import { booleanPieces } from '../../src/geometry/region-area.ts';

/**
 * The widest connected part of a slab sweep's pieces, against polyclip-ts (the independent
 * computation): the difference built as outlines, each outline's extent along the direction.
 */

type Ring = [number, number][];
const ring = (p: Polygon): Ring => [...p.map((q): [number, number] => [q.x, q.y]), [p[0]!.x, p[0]!.y]];
const extent = (pts: ReadonlyArray<{ x: number; y: number }>, d: { x: number; y: number }): number => {
  const t = pts.map((p) => p.x * d.x + p.y * d.y);
  return Math.max(...t) - Math.min(...t);
};

/** polyclip's outlines, retried with its own epsilon snapping when the exact sweep gives up (as boolean.ts does). */
function reference(target: readonly Polygon[], hiders: readonly Polygon[]): Ring[][] | undefined {
  const run = () =>
    difference(target.map((p) => [ring(p)]) as Geom, ...(hiders.map((p) => [ring(p)]) as Geom[])) as Ring[][];
  try {
    return run();
  } catch {
    setPrecision(1e-7);
    try {
      return run();
    } catch {
      return undefined;
    } finally {
      setPrecision();
    }
  }
}

/** A rank of touching bases, turned, and convex hiders (turned rectangles and triangles) over it. */
function scene(seed: number): { target: Polygon[]; hiders: Polygon[] } {
  const r = rng(seed);
  const between = (lo: number, hi: number) => lo + (hi - lo) * r();
  const turn = (x: number, y: number, t: number, ox: number, oy: number) => ({
    x: ox + x * Math.cos(t) - y * Math.sin(t),
    y: oy + x * Math.sin(t) + y * Math.cos(t),
  });
  const n = 1 + Math.floor(r() * 4);
  const w = between(20, 50);
  const d = between(15, 40);
  const t = r() * Math.PI * 2;
  const target: Polygon[] = Array.from({ length: n }, (_, k) =>
    [
      [k * w, 0],
      [(k + 1) * w, 0],
      [(k + 1) * w, d],
      [k * w, d],
    ].map(([x, y]) => turn(x!, y!, t, 100, 100)),
  );
  const hiders: Polygon[] = [];
  const m = 1 + Math.floor(r() * 5);
  for (let k = 0; k < m; k++) {
    const cx = between(60, 60 + n * w + 40);
    const cy = between(60, 180);
    const a = r() * Math.PI * 2;
    if (r() < 0.5) {
      const hw = between(3, 25);
      const hd = between(3, 25);
      hiders.push(
        [
          [-hw, -hd],
          [hw, -hd],
          [hw, hd],
          [-hw, hd],
        ].map(([x, y]) => turn(x!, y!, a, cx, cy)),
      );
    } else
      hiders.push(
        [0, 2.1, 4.2].map((b) => turn(between(8, 30) * Math.cos(b), between(8, 30) * Math.sin(b), a, cx, cy)),
      );
  }
  return { target, hiders };
}

describe('widestPart', () => {
  it('equals the widest outline of the difference built by polyclip-ts, on 400 random scenes', () => {
    let compared = 0;
    let refused = 0;
    let widerThanAPiece = 0;
    for (let seed = 9100; seed < 9500; seed++) {
      const { target, hiders } = scene(seed);
      const a = rng(seed + 7)() * Math.PI * 2;
      const dir = { x: Math.cos(a), y: Math.sin(a) };
      const { pieces } = booleanPieces(target, hiders, 'difference');
      const outlines = reference(target, hiders);
      if (!outlines) {
        refused++;
        continue;
      }
      // Outer rings only: a hole is never wider than the outline round it.
      const expected = Math.max(
        0,
        ...outlines.map((poly) =>
          extent(
            poly[0]!.map(([x, y]) => ({ x, y })),
            dir,
          ),
        ),
      );
      const got = widestPart(pieces, dir);
      expect(got).toBeCloseTo(expected, 6);
      compared++;
      if (got > Math.max(0, ...pieces.map((p) => extent(p, dir))) + 0.01) widerThanAPiece++;
    }
    console.log(
      `widestPart: ${compared} scenes compared (${refused} polyclip could not build), ${widerThanAPiece} where the part is wider than any one piece`,
    );
    expect(refused).toBeLessThan(10);
    // The case that matters: the sweep cuts one seen part into slabs narrower than the part.
    expect(widerThanAPiece).toBeGreaterThan(100);
  });

  it('a strip seen through one gap is as wide as the gap, however many slabs cut it', () => {
    // A 60 × 20 target; two many-cornered hiders leave a 9 mm gap between x = 25 and x = 34,
    // across the whole depth: the seen part is that strip, cut at every hider corner's x.
    const target: Polygon[] = [
      [
        { x: 0, y: 0 },
        { x: 60, y: 0 },
        { x: 60, y: 20 },
        { x: 0, y: 20 },
      ],
    ];
    const zigzag = (x0: number, x1: number, teeth: number): Polygon => {
      const top = Array.from({ length: teeth + 1 }, (_, i) => ({
        x: x0 + ((x1 - x0) * i) / teeth,
        y: 25 + (i % 2) * 3,
      }));
      return [{ x: x0, y: -5 }, { x: x1, y: -5 }, ...top.reverse()];
    };
    // A hider well clear of the target whose corners stand over the gap: the sweep cuts there too.
    const comb: Polygon = [
      { x: 24, y: 40 },
      ...[26, 27.5, 29, 30.5, 32].flatMap((x) => [
        { x, y: 44 },
        { x: x + 0.7, y: 41 },
      ]),
      { x: 35, y: 40 },
    ];
    const hiders = [zigzag(-10, 25, 14), zigzag(34, 70, 16), comb];
    const { pieces } = booleanPieces(target, hiders, 'difference');
    expect(pieces.length).toBeGreaterThan(1);
    const across = { x: 1, y: 0 };
    expect(Math.max(...pieces.map((p) => extent(p, across)))).toBeLessThan(9);
    expect(widestPart(pieces, across)).toBeCloseTo(9, 9);
    // Two parts touching only at a corner stay two parts.
    const corner: Polygon[] = [
      [
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 1, y: 1 },
        { x: 0, y: 1 },
      ],
      [
        { x: 1, y: 1 },
        { x: 3, y: 1 },
        { x: 3, y: 2 },
        { x: 1, y: 2 },
      ],
    ];
    expect(widestPart(corner, across)).toBe(2);
    expect(widestPart([], across)).toBe(0);
  });
});
