import { describe, expect, it } from 'vitest';
import { rng } from '../../../bench/rules-scenario.ts';
import { sightScreen } from '../../../src/geometry/visible-region.ts';
import type { Polygon } from '../../../src/geometry/polygon.ts';
import { couldCoverAll } from '../../../src/rules/engine/sight-shifts.ts';

const rect = (x: number, y: number, w: number, h: number): Polygon => [
  { x, y },
  { x: x + w, y },
  { x: x + w, y: y + h },
  { x, y: y + h },
];

describe('couldCoverAll: whether a screen moved within a band could span every seen bearing', () => {
  it('never rules out a move that does span them (brute force over 400 moves each)', () => {
    // Eye at the origin looking up +y; a screen 60–300 mm out, a seen part 400–900 mm out.
    const next = rng(42);
    const along = { x: 0, y: 1 };
    let ruledOut = 0;
    for (let n = 0; n < 400; n++) {
      const screen = sightScreen(
        'S',
        'S',
        rect(next() * 200 - 100, 60 + next() * 240, 10 + next() * 60, 15),
        'solid',
      );
      const seen = [rect(next() * 300 - 150, 400 + next() * 500, 5 + next() * 40, 10)];
      const band = 6.35;
      const could = couldCoverAll({ x: 0, y: 0 }, along, screen, seen, band);
      if (could) continue;
      ruledOut++;
      // Truth: the screen translated by every offset within the band (a fine grid of directions
      // and lengths) never spans all the seen corners' bearings.
      const bearing = (p: { x: number; y: number }) => Math.atan2(p.x, p.y) * -1;
      const seenB = seen.flat().map(bearing);
      for (let k = 0; k < 40; k++)
        for (let j = 1; j <= 10; j++) {
          const th = (k / 40) * 2 * Math.PI;
          const d = (band * j) / 10;
          const moved = screen.polygon.map((p) => ({ x: p.x + d * Math.cos(th), y: p.y + d * Math.sin(th) }));
          const b = moved.map(bearing);
          const lo = Math.min(...b);
          const hi = Math.max(...b);
          expect(seenB.every((a) => a >= lo && a <= hi)).toBe(false);
        }
    }
    // The bound does rule some out (else it saves nothing).
    expect(ruledOut).toBeGreaterThan(50);
  });
});
