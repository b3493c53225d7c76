import { describe, expect, it } from 'vitest';
import { areaInsideConvex, clipToConvex, shareInsideConvex } from '../../src/geometry/convex-clip.ts';
import { polygonArea } from '../../src/geometry/polygon.ts';

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
