import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import { intersectionArea, regionArea } from '../../src/geometry/boolean.ts';
import { boxOf, growBox } from '../../src/geometry/box.ts';
import { depthShadow } from '../../src/geometry/depth-shadow.ts';
import { containsPoint, type Polygon } from '../../src/geometry/polygon.ts';
import { sightWindow } from '../../src/geometry/visible-region.ts';
import { turnedRect } from './turned.ts';

/** A turned rectangle `w` × `h` at (cx, cy). */
const rect = turnedRect;

describe('depth shadows from rays kept per eye and outline', () => {
  it('hide of every target what rays traced to each window’s own reach hide (areas within 1e-9 of the target)', () => {
    const r = rng(53);
    let cut = 0;
    for (let k = 0; k < 60; k++) {
      // A wood (convex or an L), one eye, many windows round targets on every side of it.
      const wood: Polygon =
        k % 3 === 2
          ? [
              { x: 600, y: 600 },
              { x: 900, y: 600 },
              { x: 900, y: 700 },
              { x: 700, y: 700 },
              { x: 700, y: 900 },
              { x: 600, y: 900 },
            ]
          : rect(750, 750, 150 + r() * 250, 100 + r() * 200, r() * Math.PI);
      const eye = k % 10 === 9 ? { x: 740, y: 760 } : { x: r() * 1500, y: r() * 1500 };
      const depth = 25.4 * (k % 4 === 0 ? 0 : 1 + r() * 2);
      for (let n = 0; n < 25; n++) {
        const target = [rect(r() * 1500, r() * 1500, 40 + r() * 120, 40, r() * Math.PI)];
        if (containsPoint(wood, eye) && n > 3) break;
        const window = sightWindow(eye, growBox(boxOf(target.flat()), 50), 1);
        const kept = depthShadow(eye, wood, depth, window);
        const traced = depthShadow(eye, wood, depth, window, false);
        const a = kept.length ? intersectionArea(target, kept) : 0;
        const b = traced.length ? intersectionArea(target, traced) : 0;
        expect(Math.abs(a - b), `wood ${k}, target ${n}`).toBeLessThan(1e-9 * regionArea(target));
        if (b > 0) cut++;
      }
    }
    expect(cut).toBeGreaterThan(100);
  });
});
