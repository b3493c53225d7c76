import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intersectionArea, regionArea } from '../../src/geometry/boolean.ts';
import { polygonSeparation, pointToPolygon } from '../../src/geometry/distance.ts';
import { frameFromHeading } from '../../src/geometry/frame.ts';
import { corners } from '../../src/geometry/oriented-rect.ts';
import { QUARTER_NAMES, quarterOfPoint, quarterPolygon } from '../../src/geometry/quarters.ts';
import { gapAlongLine } from '../../src/geometry/gap.ts';
import { makeBlocker, sightObstructions } from '../../src/geometry/line-of-sight.ts';
import { visibleFraction } from '../../src/geometry/visibility.ts';
import { bearingDeg } from '../../src/geometry/cone.ts';
import { containsPoint } from '../../src/geometry/polygon.ts';

const coord = fc.double({ min: -500, max: 500, noNaN: true });
const size = fc.double({ min: 5, max: 200, noNaN: true });
const heading = fc.double({ min: -180, max: 180, noNaN: true });
const rect = fc
  .record({ x: coord, y: coord, w: size, d: size, h: heading })
  .map((r) => corners({ center: { x: r.x, y: r.y }, width: r.w, depth: r.d, headingDeg: r.h }));

describe('geometry properties', () => {
  it('edge-to-edge distance is symmetric, and the two points are that far apart', () => {
    fc.assert(
      fc.property(rect, rect, (a, b) => {
        const ab = polygonSeparation(a, b);
        const ba = polygonSeparation(b, a);
        expect(ab.distance).toBeCloseTo(ba.distance, 6);
        expect(Math.hypot(ab.onA.x - ab.onB.x, ab.onA.y - ab.onB.y)).toBeCloseTo(ab.distance, 6);
        expect(pointToPolygon(ab.onA, b).distance).toBeCloseTo(ab.distance, 6);
      }),
      { numRuns: 300 },
    );
  });

  it('the quarters partition the plane outside the box (bisector and diagonal readings)', () => {
    fc.assert(
      fc.property(
        coord,
        coord,
        size,
        size,
        heading,
        coord,
        coord,
        fc.constantFrom('bisector' as const, 'diagonal' as const),
        (ox, oy, w, d, h, px, py, reading) => {
          const box = { frame: frameFromHeading({ x: ox, y: oy }, h), width: w, depth: d };
          const p = { x: px, y: py };
          const q = quarterOfPoint(box, p, reading, 1e-6);
          if (q.quarter === 'inside' || q.onBoundary) return;
          // The point lies in exactly one quarter polygon.
          const holders = QUARTER_NAMES.filter((name) =>
            containsPoint(quarterPolygon(box, name, reading), p),
          );
          expect(holders).toEqual([q.quarter]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('quarter polygons do not overlap and cover a big square around the box, less the box', () => {
    const box = { frame: frameFromHeading({ x: 10, y: -20 }, 33), width: 250, depth: 38 };
    for (const reading of ['bisector', 'diagonal'] as const) {
      const polys = QUARTER_NAMES.map((q) => quarterPolygon(box, q, reading));
      const big = [
        { x: -3000, y: -3000 },
        { x: 3000, y: -3000 },
        { x: 3000, y: 3000 },
        { x: -3000, y: 3000 },
      ];
      const sum = polys.reduce((s, p) => s + intersectionArea([p], [big]), 0);
      expect(sum).toBeCloseTo(6000 * 6000 - 250 * 38, -1);
      expect(regionArea([...polys.map((p) => (intersectionArea([p], [big]) > 0 ? p : p))])).toBeGreaterThan(
        0,
      );
      for (let i = 0; i < 4; i++)
        for (let j = i + 1; j < 4; j++) expect(intersectionArea([polys[i]!], [polys[j]!])).toBeLessThan(1e-3);
    }
  });

  it('visible fraction is in [0, 1], and 1 with no blockers', () => {
    fc.assert(
      fc.property(coord, coord, rect, fc.array(rect, { maxLength: 4 }), (ex, ey, target, blockers) => {
        const eye = { x: ex, y: ey };
        expect(visibleFraction(eye, [target], []).fraction).toBe(1);
        const f = visibleFraction(
          eye,
          [target],
          blockers.map((b, i) => makeBlocker(`b${i}`, `b${i}`, b)),
        ).fraction;
        expect(f).toBeGreaterThanOrEqual(0);
        expect(f).toBeLessThanOrEqual(1);
      }),
      { numRuns: 150 },
    );
  });

  it('a sight line through a square reports where it enters and leaves', () => {
    const sq = makeBlocker('w', 'wall', [
      { x: -10, y: 10 },
      { x: 10, y: 10 },
      { x: 10, y: 20 },
      { x: -10, y: 20 },
    ]);
    const [o] = sightObstructions({ x: 0, y: 0 }, { x: 0, y: 40 }, [sq]);
    expect(o!.fromMm).toBeCloseTo(10, 9);
    expect(o!.toMm).toBeCloseTo(20, 9);
    // grazing a corner is not crossing
    expect(sightObstructions({ x: -20, y: 20 }, { x: 0, y: 0 }, [sq])).toEqual([]);
  });

  it('gap width between two flanking obstructions, both readings', () => {
    const L = {
      id: 'L',
      label: 'L',
      polygon: [
        { x: -10, y: 6 },
        { x: -3, y: 6 },
        { x: -3, y: 7.5 },
        { x: -10, y: 7.5 },
      ],
    };
    const R = {
      id: 'R',
      label: 'R',
      polygon: [
        { x: 3, y: 5 },
        { x: 10, y: 5 },
        { x: 10, y: 6.5 },
        { x: 3, y: 6.5 },
      ],
    };
    expect(gapAlongLine({ x: 0, y: 0 }, { x: 0, y: 15 }, [L, R], 20, 'perpendicular')!.width).toBeCloseTo(
      6,
      9,
    );
    expect(gapAlongLine({ x: 0, y: 0 }, { x: 0, y: 15 }, [L, R], 20, 'closestApproach')!.width).toBeCloseTo(
      6,
      9,
    );
    const R2 = { ...R, polygon: R.polygon.map((p) => ({ x: p.x, y: p.y + 3 })) };
    expect(gapAlongLine({ x: 0, y: 0 }, { x: 0, y: 15 }, [L, R2], 20, 'closestApproach')!.width).toBeCloseTo(
      Math.hypot(6, 0.5),
      9,
    );
    expect(gapAlongLine({ x: 0, y: 0 }, { x: 0, y: 15 }, [L], 20)).toBeUndefined();
  });

  it('bearing of a point off an axis', () => {
    expect(bearingDeg({ x: 0, y: 0 }, { x: 0, y: 1 }, { x: 30, y: 25 })).toBeCloseTo(50.19, 2);
    expect(bearingDeg({ x: 0, y: 0 }, { x: 0, y: 1 }, { x: 0, y: -1 })).toBeCloseTo(180, 9);
  });
});
