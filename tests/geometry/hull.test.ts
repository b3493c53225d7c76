import { describe, expect, it } from 'vitest';
import { convexHull, isConvex } from '../../src/geometry/hull.ts';
import { polygonArea } from '../../src/geometry/polygon.ts';

describe('convex hull', () => {
  it('two touching bases in a line hull to their bounding rectangle', () => {
    const a = [
      { x: 0, y: 0 },
      { x: 50, y: 0 },
      { x: 50, y: 25 },
      { x: 0, y: 25 },
    ];
    const b = a.map((p) => ({ x: p.x + 50, y: p.y }));
    const h = convexHull([...a, ...b]);
    expect(h).toHaveLength(4);
    expect(polygonArea(h)).toBeCloseTo(100 * 25, 9);
  });
  it('drops interior and collinear points', () => {
    const h = convexHull([
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 2, y: 0 },
      { x: 2, y: 2 },
      { x: 1, y: 1 },
      { x: 0, y: 2 },
    ]);
    expect(h).toHaveLength(4);
    expect(isConvex(h)).toBe(true);
  });
  it('tells a concave outline from a convex one', () => {
    const l = [
      { x: 0, y: 0 },
      { x: 2, y: 0 },
      { x: 2, y: 1 },
      { x: 1, y: 1 },
      { x: 1, y: 2 },
      { x: 0, y: 2 },
    ];
    expect(isConvex(l)).toBe(false);
    expect(isConvex(convexHull(l))).toBe(true);
  });
});
