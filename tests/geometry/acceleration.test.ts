import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockerIndex } from '../../src/geometry/blocker-index.ts';
import { boxOf, segmentTouchesBox } from '../../src/geometry/box.ts';
import { closestPolygonPair, polygonSeparation } from '../../src/geometry/distance.ts';
import { localCorners } from '../../src/geometry/faced-box.ts';
import { corners } from '../../src/geometry/oriented-rect.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import {
  quarterOfLocalPoint,
  rayDirections,
  type QuarterName,
  type QuarterReading,
} from '../../src/geometry/quarters.ts';
import { firstStretchInside, segmentInsidePolygon } from '../../src/geometry/segment-clip.ts';
import type { Vec2 } from '../../src/geometry/vec.ts';

const coord = fc.double({ min: -500, max: 500, noNaN: true });
const size = fc.double({ min: 5, max: 200, noNaN: true });
const heading = fc.double({ min: -180, max: 180, noNaN: true });
const rect = fc
  .record({ x: coord, y: coord, w: size, d: size, h: heading })
  .map((r) => corners({ center: { x: r.x, y: r.y }, width: r.w, depth: r.d, headingDeg: r.h }) as Polygon);
const point = fc.record({ x: coord, y: coord });
/** Points on a coarse lattice, so segments often run along edges and through corners exactly. */
const latticePoint = fc
  .record({ x: fc.integer({ min: -4, max: 4 }), y: fc.integer({ min: -4, max: 4 }) })
  .map((p) => ({ x: p.x * 10, y: p.y * 10 }));
const latticeRect = fc
  .record({
    x0: fc.integer({ min: -4, max: 3 }),
    y0: fc.integer({ min: -4, max: 3 }),
    w: fc.integer({ min: 1, max: 3 }),
    d: fc.integer({ min: 1, max: 3 }),
  })
  .map((r) => [
    { x: r.x0 * 10, y: r.y0 * 10 },
    { x: (r.x0 + r.w) * 10, y: r.y0 * 10 },
    { x: (r.x0 + r.w) * 10, y: (r.y0 + r.d) * 10 },
    { x: r.x0 * 10, y: (r.y0 + r.d) * 10 },
  ]);

/** The plain quarter code as it was before the precomputed geometry (the reference). */
function quarterPlain(
  box: { width: number; depth: number },
  p: Vec2,
  reading: QuarterReading,
  tolerance = 1e-9,
) {
  const c = localCorners(box);
  const u = rayDirections(box, reading);
  const w = box.width / 2;
  const crossAt = (o: Vec2, d: Vec2, q: Vec2) => d.x * (q.y - o.y) - d.y * (q.x - o.x);
  const toRay = (o: Vec2, d: Vec2, q: Vec2) => {
    const t = Math.max(0, (q.x - o.x) * d.x + (q.y - o.y) * d.y);
    return Math.hypot(o.x + d.x * t - q.x, o.y + d.y * t - q.y);
  };
  const rays = [
    ['frontLeft', 'front', 'left'],
    ['frontRight', 'front', 'right'],
    ['rearRight', 'rear', 'right'],
    ['rearLeft', 'rear', 'left'],
  ] as const;
  let nearest = Infinity;
  let pair: [QuarterName, QuarterName] = ['front', 'left'];
  for (const [k, a, b] of rays) {
    const d = toRay(c[k], u[k], p);
    if (d < nearest) {
      nearest = d;
      pair = [a, b];
    }
  }
  const inside = p.x >= -w && p.x <= w && p.y >= -box.depth && p.y <= 0;
  let quarter: QuarterName | 'inside';
  if (inside) quarter = 'inside';
  else if (
    p.y >= 0 &&
    crossAt(c.frontRight, u.frontRight, p) >= 0 &&
    crossAt(c.frontLeft, u.frontLeft, p) <= 0
  )
    quarter = 'front';
  else if (
    p.y <= -box.depth &&
    crossAt(c.rearRight, u.rearRight, p) <= 0 &&
    crossAt(c.rearLeft, u.rearLeft, p) >= 0
  )
    quarter = 'rear';
  else quarter = p.x < 0 ? 'left' : 'right';
  if (inside) {
    const e = Math.min(w - Math.abs(p.x), -p.y, p.y + box.depth);
    return { quarter, rayDistance: e, across: 'inside', onBoundary: e <= tolerance };
  }
  const toBox = Math.hypot(Math.max(0, Math.abs(p.x) - w), Math.max(0, p.y, -box.depth - p.y));
  return {
    quarter,
    rayDistance: nearest,
    across: quarter === pair[0] ? pair[1] : pair[0],
    onBoundary: nearest <= tolerance || toBox <= tolerance,
  };
}

describe('accelerated geometry equals the plain code', () => {
  it('firstStretchInside gives segmentInsidePolygon’s first stretch (random and lattice cases)', () => {
    const check = (a: Vec2, b: Vec2, poly: Polygon) => {
      const out = { t0: NaN, t1: NaN };
      const found = firstStretchInside(a, b, poly, out);
      const first = segmentInsidePolygon(a, b, poly)[0];
      expect(found).toBe(first !== undefined);
      if (first) expect(out).toEqual({ t0: first.t0, t1: first.t1 });
    };
    fc.assert(fc.property(point, point, rect, check), { numRuns: 500 });
    fc.assert(fc.property(latticePoint, latticePoint, latticeRect, check), { numRuns: 500 });
  });

  it('closestPolygonPair finds the first closest pair a plain scan finds', () => {
    fc.assert(
      fc.property(
        fc.array(rect, { minLength: 1, maxLength: 4 }),
        fc.array(rect, { minLength: 1, maxLength: 6 }),
        (a, b) => {
          let best: { d: number; i: number; j: number; s: ReturnType<typeof polygonSeparation> } | undefined;
          a.forEach((pa, i) =>
            b.forEach((pb, j) => {
              const s = polygonSeparation(pa, pb);
              if (!best || s.distance < best.d) best = { d: s.distance, i, j, s };
            }),
          );
          const c = closestPolygonPair(a, a.map(boxOf), b, b.map(boxOf));
          expect({ d: c.distance, i: c.indexA, j: c.indexB, onA: c.onA, onB: c.onB }).toEqual({
            d: best!.d,
            i: best!.i,
            j: best!.j,
            onA: best!.s.onA,
            onB: best!.s.onB,
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the blocker grid hands over every blocker whose box the segment touches, in order', () => {
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 40 }), point, point, (blockers, a, b) => {
        const boxes = blockers.map(boxOf);
        const index = new BlockerIndex(boxes);
        const touched = boxes.flatMap((box, i) => (segmentTouchesBox(a, b, box) ? [i] : []));
        const got = index.candidates(a, b);
        expect([...got].sort((x, y) => x - y)).toEqual(got);
        for (const i of touched) expect(got).toContain(i);
        // first() = a plain scan in order with the same test.
        const accept = (i: number) =>
          segmentTouchesBox(a, b, boxes[i]!) && segmentInsidePolygon(a, b, blockers[i]!).length > 0;
        const plain = blockers.findIndex((_, i) => accept(i));
        expect(index.first(a, b, accept)).toBe(plain);
      }),
      { numRuns: 300 },
    );
  });

  it('the precomputed quarter geometry answers as the plain construction did', () => {
    fc.assert(
      fc.property(
        size,
        size,
        coord,
        coord,
        fc.constantFrom<QuarterReading>('bisector', 'diagonal'),
        (w, d, x, y, reading) => {
          const box = { width: w, depth: d };
          expect(quarterOfLocalPoint(box, { x, y }, reading)).toEqual(quarterPlain(box, { x, y }, reading));
          // Symmetric points (equal distance to two rays) resolve the same way too.
          expect(quarterOfLocalPoint(box, { x: 0, y }, reading)).toEqual(
            quarterPlain(box, { x: 0, y }, reading),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
