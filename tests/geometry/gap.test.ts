import { describe, expect, it } from 'vitest';
import { gapAlongLine } from '../../src/geometry/gap.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';

const poly = (...pts: Array<[number, number]>): Polygon => pts.map(([x, y]) => ({ x, y }));

describe('gapAlongLine: what flanks the line of fire is what lies beside it', () => {
  // The line of fire runs from (0, 0) to (0, 100): its left is −x. L stands beside it on the left.
  const a = { x: 0, y: 0 };
  const b = { x: 0, y: 100 };
  const L = { id: 'L', label: 'L', polygon: poly([-30, 40], [-10, 40], [-10, 60], [-30, 60]) };

  it('a unit behind the eye that the line’s extension splits flanks it by its corner beside the line', () => {
    // R: a turned base behind the eye, two corners either side of the backward extension; only its
    // corner (10, 5) reaches beside the line, on the right (x 5–15 where it crosses y = 0).
    const R = { id: 'R', label: 'R', polygon: poly([10, 5], [40, -25], [-50, -115], [-80, -85]) };
    const g = gapAlongLine(a, b, [L, R], 200);
    expect(g?.left.id).toBe('L');
    expect(g?.right.id).toBe('R');
    // Mirrored, its corner is beside the line on the left, with L: no gap.
    const M = { ...R, polygon: R.polygon.map((p) => ({ x: -p.x, y: p.y })) };
    expect(gapAlongLine(a, b, [L, M], 200)).toBeUndefined();
  });

  it('a unit wholly beyond the target end never flanks it', () => {
    const beyond = { id: 'B', label: 'B', polygon: poly([5, 101], [40, 101], [40, 140], [5, 140]) };
    expect(gapAlongLine(a, b, [L, beyond], 200)).toBeUndefined();
  });

  it('a corner on the line itself grazes it: a flank at no distance', () => {
    const T = { id: 'T', label: 'T', polygon: poly([0, 50], [30, 30], [50, 60], [20, 80]) };
    const g = gapAlongLine(a, b, [L, T], 200, 'perpendicular');
    expect(g?.right.id).toBe('T');
    expect(g?.width).toBeCloseTo(10, 9);
  });
});
