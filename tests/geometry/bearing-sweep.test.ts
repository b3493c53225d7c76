import { describe, expect, it } from 'vitest';
import {
  maxBearingToPolygon,
  minBearingToPolygon,
  minBearingToPolygons,
} from '../../src/geometry/bearing.ts';
import { frameFromFront } from '../../src/geometry/frame.ts';
import { sweepContact } from '../../src/geometry/sweep.ts';

const rect = (x0: number, x1: number, y0: number, y1: number) => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];
const O = { x: 0, y: 0 };
const UP = { x: 0, y: 1 };

describe('minBearingToPolygon', () => {
  it('is the nearest corner bearing when the axis misses the polygon', () => {
    // [3,9]×[8,10] seen from the origin facing +y: corner (3,10) is atan(3/10) = 16.70°.
    const b = minBearingToPolygon(O, UP, rect(3, 9, 8, 10));
    expect(b.deg).toBeCloseTo((Math.atan(3 / 10) * 180) / Math.PI, 9);
    expect(b.at).toEqual({ x: 3, y: 10 });
  });
  it('is 0 when the axis ray crosses the polygon, and when the apex is inside it', () => {
    expect(minBearingToPolygon(O, UP, rect(-2, 2, 5, 6)).deg).toBe(0);
    expect(minBearingToPolygon(O, UP, rect(-1, 1, -1, 1)).deg).toBe(0);
  });
  it('ignores the ray behind the apex', () => {
    const b = minBearingToPolygon(O, UP, rect(-1, 1, -6, -5));
    expect(b.deg).toBeGreaterThan(160);
  });
  it('takes the smallest over a set, and the largest over vertices', () => {
    expect(minBearingToPolygons(O, UP, [rect(10, 16, 6, 8), rect(3, 9, 8, 10)]).deg).toBeCloseTo(16.699, 2);
    expect(maxBearingToPolygon(O, UP, rect(10, 16, 6, 8)).deg).toBeCloseTo(
      (Math.atan(16 / 6) * 180) / Math.PI,
      9,
    );
  });
});

describe('sweepContact', () => {
  const box = { frame: frameFromFront({ x: 0, y: 0 }, UP), width: 4, depth: 2 };
  it('meets the nearest part inside the frontage strip', () => {
    const c = sweepContact(box, [rect(1, 5, 7, 9)]);
    expect(c?.distance).toBeCloseTo(7, 9);
    expect(c?.at.y).toBeCloseTo(7, 9);
  });
  it('misses targets wholly outside the strip or behind the rear edge', () => {
    expect(sweepContact(box, [rect(2.5, 5, 7, 9)])).toBeUndefined();
    expect(sweepContact(box, [rect(-1, 1, -6, -4)])).toBeUndefined();
  });
  it('is 0 when already overlapping, and follows slanted edges', () => {
    expect(sweepContact(box, [rect(-1, 1, -1, 3)])?.distance).toBe(0);
    // A triangle whose slanted edge enters the strip: lowest point inside x ≤ 2 is on the edge x + y = 10 at x = 2 → y = 8.
    const tri = [
      { x: 2, y: 8 + 0 },
      { x: 6, y: 4 },
      { x: 6, y: 12 },
    ];
    expect(sweepContact(box, [tri])?.distance).toBeCloseTo(8, 9);
  });
});
