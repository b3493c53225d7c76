import { describe, expect, it } from 'vitest';
import { grownConvex } from '../../src/geometry/convex-offset.ts';
import { pointToOutline } from '../../src/geometry/distance.ts';
import { containsPoint } from '../../src/geometry/polygon.ts';
import { rng } from '../../bench/rules-scenario.ts';

describe('grownConvex', () => {
  it('grows a rectangle by d on every side, either winding', () => {
    const ccw = [
      { x: 0, y: 0 },
      { x: 40, y: 0 },
      { x: 40, y: 20 },
      { x: 0, y: 20 },
    ];
    for (const poly of [ccw, [...ccw].reverse()]) {
      const g = grownConvex(poly, 3);
      const xs = g.map((p) => p.x);
      const ys = g.map((p) => p.y);
      expect(Math.min(...xs)).toBeCloseTo(-3, 12);
      expect(Math.max(...xs)).toBeCloseTo(43, 12);
      expect(Math.min(...ys)).toBeCloseTo(-3, 12);
      expect(Math.max(...ys)).toBeCloseTo(23, 12);
    }
  });

  it('holds every point within d of a turned convex polygon, and its edges lie d out', () => {
    const r = rng(31);
    for (let k = 0; k < 50; k++) {
      // A random convex polygon: points on an ellipse, turned.
      const n = 3 + Math.floor(r() * 6);
      const angles = Array.from({ length: n }, () => r() * 2 * Math.PI).sort((a, b) => a - b);
      const rx = 10 + r() * 40;
      const ry = 10 + r() * 40;
      const poly = angles.map((a) => ({ x: 100 + rx * Math.cos(a), y: -50 + ry * Math.sin(a) }));
      const d = 0.5 + r() * 8;
      const g = grownConvex(poly, d);
      // Brute force: points at distance just under d outside the polygon lie inside the grown one.
      for (let s = 0; s < 200; s++) {
        const p = { x: 100 + (r() - 0.5) * 2 * (rx + d + 2), y: -50 + (r() - 0.5) * 2 * (ry + d + 2) };
        const inside = containsPoint(poly, p);
        if (inside || pointToOutline(p, poly) < d * 0.999) expect(containsPoint(g, p)).toBe(true);
      }
      // Each grown edge lies on its edge's line moved d out: both its ends are d from that line.
      for (let i = 0; i < g.length; i++) {
        const p0 = poly[i]!;
        const p1 = poly[(i + 1) % poly.length]!;
        const len = Math.hypot(p1.x - p0.x, p1.y - p0.y);
        if (len < 1e-6) continue;
        for (const q of [g[i]!, g[(i + 1) % g.length]!]) {
          const off = Math.abs((p1.x - p0.x) * (q.y - p0.y) - (p1.y - p0.y) * (q.x - p0.x)) / len;
          expect(off).toBeCloseTo(d, 6);
        }
      }
    }
  });
});
