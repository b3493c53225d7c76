import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corners } from '../../src/geometry/oriented-rect.ts';
import { containsPoint, type Polygon } from '../../src/geometry/polygon.ts';
import { segmentInsidePolygon } from '../../src/geometry/segment-clip.ts';
import { shadowPieces } from '../../src/geometry/shadow.ts';
import { pointToPolygon } from '../../src/geometry/distance.ts';

const coord = fc.double({ min: -300, max: 300, noNaN: true });
const size = fc.double({ min: 5, max: 150, noNaN: true });
const heading = fc.double({ min: -180, max: 180, noNaN: true });
const rect = fc
  .record({ x: coord, y: coord, w: size, d: size, h: heading })
  .map((r) => corners({ center: { x: r.x, y: r.y }, width: r.w, depth: r.d, headingDeg: r.h }) as Polygon);
const window = { minX: -400, minY: -400, maxX: 400, maxY: 400 };

describe('shadows', () => {
  it('a point is in the shadow pieces or the polygon exactly when the sight line to it crosses the polygon', () => {
    fc.assert(
      fc.property(rect, coord, coord, coord, coord, (poly, ex, ey, px, py) => {
        const eye = { x: ex, y: ey };
        const p = { x: px, y: py };
        if (containsPoint(poly, eye)) return;
        const pieces = shadowPieces(eye, poly, window);
        // Skip points within a hair of any boundary, where either answer is fair.
        for (const q of [poly, ...pieces])
          if (pointToPolygon(p, q).distance < 1e-6 && !containsPoint(q, p)) return;
        const edgeNear = [poly, ...pieces].some((q) =>
          q.some((v, i) => {
            const w = q[(i + 1) % q.length]!;
            const t = Math.max(
              0,
              Math.min(
                1,
                ((p.x - v.x) * (w.x - v.x) + (p.y - v.y) * (w.y - v.y)) /
                  ((w.x - v.x) ** 2 + (w.y - v.y) ** 2),
              ),
            );
            return Math.hypot(v.x + (w.x - v.x) * t - p.x, v.y + (w.y - v.y) * t - p.y) < 1e-6;
          }),
        );
        if (edgeNear) return;
        const hidden = segmentInsidePolygon(eye, p, poly).length > 0;
        const inShadow = containsPoint(poly, p) || pieces.some((q) => containsPoint(q, p));
        expect(inShadow).toBe(hidden);
      }),
      { numRuns: 2000 },
    );
  });
});
