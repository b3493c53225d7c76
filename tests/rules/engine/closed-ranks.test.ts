import { describe, expect, it } from 'vitest';
import { regionArea } from '../../../src/geometry/boolean.ts';
import type { Polygon } from '../../../src/geometry/polygon.ts';
import { visibleRegion, sightScreen } from '../../../src/geometry/visible-region.ts';
import { closedRanks } from '../../../src/rules/engine/closed-ranks.ts';

const rectAt = (x: number, y: number, w: number, d: number): Polygon => [
  { x, y },
  { x: x + w, y },
  { x: x + w, y: y + d },
  { x, y: y + d },
];

describe('closed ranks: touching bases hide as one body', () => {
  // Four 50 × 25 mm bases in a line, each 1 mm from the next: what a camera reports for touching bases.
  const line = [0, 1, 2, 3].map((i) => ({ polygon: rectAt(i * 51, 100, 50, 25), sigmaMm: 1 }));
  const target = [rectAt(60, 400, 80, 40)];
  const eye = { x: 102, y: 0 };

  it('base by base, a sight line slips through a 1 mm crack; as a body it does not', () => {
    const cracked = visibleRegion(
      eye,
      target,
      line.map((b, i) => sightScreen(`b${i}`, 'X', b.polygon, 'solid')),
    );
    expect(cracked.share).toBeGreaterThan(0);
    const body = closedRanks(line);
    expect(body).toHaveLength(1);
    const closed = visibleRegion(
      eye,
      target,
      body.map((p, i) => sightScreen(`r${i}`, 'X', p, 'solid')),
    );
    expect(closed.share).toBe(0);
  });

  it('bases standing apart (skirmishers) stay separate', () => {
    const spread = [0, 1, 2].map((i) => ({ polygon: rectAt(i * 100, 0, 40, 20), sigmaMm: 1 }));
    const out = closedRanks(spread);
    expect(out).toHaveLength(3);
    expect(regionArea(out)).toBeCloseTo(3 * 40 * 20, 6);
  });
});
