import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyHomography, homographyFrom, invert3 } from '../../src/vision/homography.ts';

const square = [
  { x: 0, y: 0 },
  { x: 8, y: 0 },
  { x: 8, y: 8 },
  { x: 0, y: 8 },
];

describe('homography from four points', () => {
  it('maps the four points onto their images and back through the inverse', () => {
    const coord = fc.double({ min: -40, max: 40, noNaN: true });
    fc.assert(
      fc.property(fc.array(fc.tuple(coord, coord), { minLength: 4, maxLength: 4 }), (jitter) => {
        // A convex quad: a square of side 30 at (100, 200) with each corner moved up to 40 % of a side.
        const base = [
          { u: 100, v: 200 },
          { u: 130, v: 200 },
          { u: 130, v: 230 },
          { u: 100, v: 230 },
        ];
        const to = base.map((p, i) => ({ u: p.u + jitter[i]![0] * 0.3, v: p.v + jitter[i]![1] * 0.3 }));
        const h = homographyFrom(square, to);
        if (!h) return; // a degenerate draw (three corners in a line) has no homography
        for (let i = 0; i < 4; i++) {
          const p = applyHomography(h, square[i]!.x, square[i]!.y);
          expect(p.u).toBeCloseTo(to[i]!.u, 6);
          expect(p.v).toBeCloseTo(to[i]!.v, 6);
        }
        const inv = invert3(h)!;
        const q = applyHomography(inv, to[2]!.u, to[2]!.v);
        expect(q.u).toBeCloseTo(8, 6);
        expect(q.v).toBeCloseTo(8, 6);
      }),
      { numRuns: 200, seed: 41 },
    );
  });

  it('has no homography for collapsed points', () => {
    const line = [0, 1, 2, 3].map((k) => ({ u: k, v: 2 * k }));
    expect(homographyFrom(square, line)).toBeNull();
  });
});
