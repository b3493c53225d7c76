import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import { intersectionArea, regionArea, regionDifferenceArea } from '../../src/geometry/boolean.ts';
import { convexHull } from '../../src/geometry/hull.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import { piecesApart } from '../../src/geometry/target-pieces.ts';
import { seenShareGiven, sightScreen, visibleGiven, type Hidden } from '../../src/geometry/visible-region.ts';

/** `n` 10 × 8 bases at (x, y) turned `a` radians, `step` apart (10: side by side; less: overlapping). */
function bases(x: number, y: number, n: number, a: number, step = 10): Polygon[] {
  const c = Math.cos(a);
  const s = Math.sin(a);
  const at = (u: number, v: number) => ({ x: x + u * c - v * s, y: y + u * s + v * c });
  return Array.from({ length: n }, (_, k) => [
    at(k * step, 0),
    at(k * step + 10, 0),
    at(k * step + 10, 8),
    at(k * step, 8),
  ]);
}

const hull = (r: () => number): Polygon =>
  convexHull(Array.from({ length: 3 + Math.floor(r() * 6) }, () => ({ x: r() * 100, y: r() * 100 })));

describe('areas under one convex hider by clipping (target outlines apart)', () => {
  it('bases side by side are apart; overlapping bases are not', () => {
    expect(piecesApart(bases(10, 10, 4, 0.3))).toBe(true);
    expect(piecesApart(bases(10, 10, 1, 0.3))).toBe(true);
    expect(piecesApart(bases(10, 10, 3, 0.3, 7))).toBe(false);
    const l: Polygon = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 2 },
      { x: 2, y: 2 },
      { x: 2, y: 10 },
      { x: 0, y: 10 },
    ];
    expect(piecesApart([l])).toBe(false);
  });

  it('seen shares and each hider’s share equal the slab sweep’s (within 1e-9), one hider or several', () => {
    const r = rng(47);
    let clipped = 0;
    for (let i = 0; i < 3000; i++) {
      const step = i % 5 === 4 ? 6 + r() * 3 : 10;
      const target = bases(20 + r() * 50, 20 + r() * 50, 1 + Math.floor(r() * 4), r() * 7, step);
      const hiders: Hidden[] = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, k) => {
        const p = hull(r);
        return { screen: sightScreen(`h${k}`, `H${k}`, p, 'solid'), polygons: [p] };
      });
      const area = regionArea(target);
      const all = hiders.flatMap((h) => h.polygons);
      const bySweep = Math.min(1, Math.max(0, regionDifferenceArea(target, all) / area));
      expect(Math.abs(seenShareGiven(target, hiders) - bySweep), `case ${i}`).toBeLessThan(1e-9);
      const region = visibleGiven({ x: 0, y: 0 }, target, hiders);
      expect(Math.abs(region.share - bySweep), `case ${i}`).toBeLessThan(1e-9);
      if (hiders.length > 1)
        for (const h of region.hiddenBy) {
          const p = hiders.find((x) => x.screen.id === h.id)?.polygons ?? [];
          expect(
            Math.abs(h.share - Math.min(1, intersectionArea(target, p) / area)),
            `case ${i}`,
          ).toBeLessThan(1e-9);
        }
      if (piecesApart(target) && bySweep > 0 && bySweep < 1) clipped++;
    }
    expect(clipped).toBeGreaterThan(300);
  });
});
