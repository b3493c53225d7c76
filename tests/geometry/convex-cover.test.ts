import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import { regionArea, regionDifferenceArea } from '../../src/geometry/boolean.ts';
import {
  convexCovers,
  convexPolygonCoversMoved,
  convexPolygonCoversMovedIn,
  unionCovers,
} from '../../src/geometry/convex-cover.ts';
import { boxOf } from '../../src/geometry/box.ts';
import { convexHull, isConvex } from '../../src/geometry/hull.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import { piecesApart } from '../../src/geometry/target-pieces.ts';
import {
  sightScreen,
  seenShareGiven,
  seenShareGivenMoved,
  visibleGiven,
} from '../../src/geometry/visible-region.ts';

/** A rectangle of bases (a unit's body): `n` squares side by side at (x, y), turned `a` radians. */
function bases(x: number, y: number, n: number, a: number): Polygon[] {
  const c = Math.cos(a);
  const s = Math.sin(a);
  const at = (u: number, v: number) => ({ x: x + u * c - v * s, y: y + u * s + v * c });
  return Array.from({ length: n }, (_, k) => [
    at(k * 10, 0),
    at(k * 10 + 10, 0),
    at(k * 10 + 10, 8),
    at(k * 10, 8),
  ]);
}

describe('convexCovers: one convex polygon holding a whole target', () => {
  it('agrees with the slab sweep on random covers and targets (nothing left uncovered exactly when it says so)', () => {
    const r = rng(17);
    let covered = 0;
    let not = 0;
    for (let i = 0; i < 3000; i++) {
      const cover = convexHull(
        Array.from({ length: 3 + Math.floor(r() * 8) }, () => ({ x: r() * 100, y: r() * 100 })),
      );
      const target = bases(r() * 90, r() * 90, 1 + Math.floor(r() * 4), r() * 7);
      const left = regionDifferenceArea(target, [cover]);
      if (convexCovers(cover, target)) {
        covered++;
        expect(left).toBeLessThan(1e-9 * regionArea(target));
      } else {
        not++;
        expect(left).toBeGreaterThan(0);
      }
    }
    expect(covered).toBeGreaterThan(50);
    expect(not).toBeGreaterThan(50);
  });

  it("a target on the cover's edge is covered; a concave or empty cover never is", () => {
    const square: Polygon = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
      { x: 0, y: 10 },
    ];
    expect(convexCovers(square, [square])).toBe(true);
    expect(convexCovers([...square].reverse(), [square])).toBe(true);
    const notch: Polygon = [...square.slice(0, 3), { x: 5, y: 5 }, { x: 0, y: 10 }];
    expect(
      convexCovers(notch, [
        [
          { x: 1, y: 1 },
          { x: 2, y: 1 },
          { x: 2, y: 2 },
        ],
      ]),
    ).toBe(false);
    expect(
      convexCovers(
        [
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ],
        [[{ x: 0, y: 0 }]],
      ),
    ).toBe(false);
  });

  it('the seen share of a target inside a shadow is 0 by the shortcut and by the sweep alike', () => {
    const r = rng(5);
    let inside = 0;
    for (let i = 0; i < 2000; i++) {
      const hider = convexHull(Array.from({ length: 8 }, () => ({ x: 10 + r() * 90, y: 10 + r() * 90 })));
      const target = bases(35 + r() * 20, 35 + r() * 20, 1 + Math.floor(r() * 3), r() * 7);
      if (convexCovers(hider, target)) inside++;
      const hidden = [{ screen: sightScreen('h', 'H', hider, 'solid'), polygons: [hider] }];
      const byShortcut = seenShareGiven(target, hidden);
      const bySweep = Math.min(1, Math.max(0, regionDifferenceArea(target, [hider]) / regionArea(target)));
      expect(Math.abs(byShortcut - bySweep)).toBeLessThan(1e-9);
      const region = visibleGiven({ x: 0, y: 0 }, target, hidden);
      expect(Math.abs(region.share - bySweep)).toBeLessThan(1e-9);
    }
    expect(inside).toBeGreaterThan(10);
  });

  it('unionCovers: convex covers together hold a target only where the sweep leaves nothing of it', () => {
    const r = rng(59);
    let together = 0;
    let left = 0;
    for (let i = 0; i < 3000; i++) {
      const target = bases(40 + r() * 10, 40 + r() * 10, 1 + Math.floor(r() * 4), r() * 7);
      // Two to four convex covers round parts of the table near the target: often holding it together.
      const covers = Array.from({ length: 2 + Math.floor(r() * 3) }, () => {
        const cx = 35 + r() * 30;
        const cy = 35 + r() * 30;
        const s = 15 + r() * 25;
        return convexHull(
          Array.from({ length: 3 + Math.floor(r() * 5) }, () => ({
            x: cx + (r() - 0.5) * 2 * s,
            y: cy + (r() - 0.5) * 2 * s,
          })),
        );
      });
      const rest = regionDifferenceArea(target, covers);
      if (unionCovers(covers, target)) {
        if (!covers.some((c) => convexCovers(c, target))) together++;
        expect(rest, `case ${i}`).toBeLessThan(1e-9 * regionArea(target));
        const hidden = covers.map((c, k) => ({
          screen: sightScreen(`h${k}`, `H${k}`, c, 'solid'),
          polygons: [c],
        }));
        expect(seenShareGiven(target, hidden)).toBe(0);
        expect(visibleGiven({ x: 0, y: 0 }, target, hidden).share).toBe(0);
      } else if (rest > 1e-6) left++;
    }
    // Not vacuous: covered only together (no one cover holds them all), and not covered.
    expect(together).toBeGreaterThan(100);
    expect(left).toBeGreaterThan(500);
  });

  it('unionCovers: a base split between two covers along a shared edge is held; with a gap it is not', () => {
    const base = bases(0, 0, 1, 0)[0] as Polygon;
    const halfA: Polygon = [
      { x: -1, y: -1 },
      { x: 5, y: -1 },
      { x: 5, y: 9 },
      { x: -1, y: 9 },
    ];
    const halfB: Polygon = halfA.map((p) => ({ x: p.x + 6, y: p.y }));
    expect(unionCovers([halfA, halfB], [base])).toBe(true);
    expect(unionCovers([halfA, halfB.map((p) => ({ x: p.x + 0.01, y: p.y }))], [base])).toBe(false);
  });
});

describe('seenShareGivenMoved: a probe without the moved copy when a whole hidden polygon holds it', () => {
  it('equals seenShareGiven of the moved copy (Object.is) on 5,000 random probes, with and without the polygons’ facts', () => {
    const r = rng(29);
    let zero = 0;
    let partial = 0;
    for (let i = 0; i < 5000; i++) {
      const hidden = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, k) => {
        const polygons: Polygon[] = [
          convexHull(Array.from({ length: 3 + Math.floor(r() * 6) }, () => ({ x: r() * 100, y: r() * 100 }))),
        ];
        // Now and then a concave one (an L), which no whole-polygon test may take.
        if (k === 2)
          polygons.push([
            { x: 20, y: 20 },
            { x: 80, y: 20 },
            { x: 80, y: 40 },
            { x: 40, y: 40 },
            { x: 40, y: 80 },
            { x: 20, y: 80 },
          ]);
        const screen = sightScreen(`h${k}`, `h${k}`, polygons[0] as Polygon, 'solid');
        return i % 2 === 0
          ? { screen, polygons }
          : { screen, polygons, facts: polygons.map((p) => ({ box: boxOf(p), convex: isConvex(p) })) };
      });
      const target = bases(20 + r() * 50, 20 + r() * 50, 1 + Math.floor(r() * 4), r() * 7);
      const a = r() * 7;
      const off = (r() - 0.5) * 20;
      const dx = Math.cos(a) * off;
      const dy = Math.sin(a) * off;
      const copy = target.map((p) => p.map((q) => ({ x: q.x + dx, y: q.y + dy })));
      const area = regionArea(target);
      const apart = piecesApart(target);
      const want = seenShareGiven(copy, hidden, area, apart);
      const got = seenShareGivenMoved(target, dx, dy, hidden, area, apart);
      expect(Object.is(got, want), `case ${i}: ${got} against ${want}`).toBe(true);
      if (want === 0) zero++;
      else if (want < 1) partial++;
    }
    expect(zero).toBeGreaterThan(500);
    expect(partial).toBeGreaterThan(500);
  });
});

describe('convexPolygonCoversMovedIn: settled by the cover’s box first', () => {
  it('answers as convexPolygonCoversMoved on 40,000 covers (hulls, thin wedges, axis-aligned cuts) and targets at their edges', () => {
    const r = rng(43);
    let held = 0;
    let settledOutside = 0;
    for (let i = 0; i < 40_000; i++) {
      const kind = i % 3;
      const cover: Polygon =
        kind === 0
          ? convexHull(
              Array.from({ length: 3 + Math.floor(r() * 8) }, () => ({ x: r() * 100, y: r() * 100 })),
            )
          : kind === 1
            ? // A shadow-like wedge from a point past a hider, thin or wide.
              (() => {
                const ax = r() * 50;
                const ay = r() * 50;
                const spread = r() < 0.5 ? 1e-3 + r() * 0.05 : r() * 0.8;
                const a0 = r() * 2 * Math.PI;
                const far = 100 + r() * 400;
                return [
                  { x: ax, y: ay },
                  { x: ax + Math.cos(a0) * far, y: ay + Math.sin(a0) * far },
                  { x: ax + Math.cos(a0 + spread) * far, y: ay + Math.sin(a0 + spread) * far },
                ];
              })()
            : // A box, as clipping to a window leaves (edges along the axes).
              (() => {
                const x0 = Math.round(r() * 50);
                const y0 = Math.round(r() * 50);
                return [
                  { x: x0, y: y0 },
                  { x: x0 + 20 + Math.round(r() * 60), y: y0 },
                  { x: x0 + 20 + Math.round(r() * 60), y: y0 + 20 + Math.round(r() * 60) },
                  { x: x0, y: y0 + 20 + Math.round(r() * 60) },
                ];
              })();
      if (cover.length < 3 || !isConvex(cover)) continue;
      const box = boxOf(cover);
      // Targets by the box's edges (inside, on, just out), or anywhere near.
      const edge = r() < 0.5;
      const tx = edge
        ? (r() < 0.5 ? box.minX : box.maxX - 10) + (r() - 0.5) * 3
        : box.minX + r() * (box.maxX - box.minX);
      const ty = edge
        ? (r() < 0.5 ? box.minY : box.maxY - 8) + (r() - 0.5) * 3
        : box.minY + r() * (box.maxY - box.minY);
      const target = bases(tx, ty, 1 + Math.floor(r() * 2), r() < 0.5 ? 0 : r() * 7);
      const dx = r() < 0.3 ? 0 : (r() - 0.5) * 6;
      const dy = r() < 0.3 ? 0 : (r() - 0.5) * 6;
      const want = convexPolygonCoversMoved(cover, target, dx, dy);
      expect(convexPolygonCoversMovedIn(cover, box, target, dx, dy), `case ${i}`).toBe(want);
      if (want) held++;
      else if (target.some((p) => p.some((q) => q.x + dx < box.minX - 1 || q.x + dx > box.maxX + 1)))
        settledOutside++;
    }
    expect(held).toBeGreaterThan(2000);
    expect(settledOutside).toBeGreaterThan(2000);
  });
});
