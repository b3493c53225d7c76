import { describe, expect, it } from 'vitest';
import { shiftInterval, shiftToClear, stripExtent } from '../../src/geometry/segment-shift.ts';
import { segmentInsidePolygon } from '../../src/geometry/segment-clip.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import type { Vec2 } from '../../src/geometry/vec.ts';
import { rng } from '../../bench/rules-scenario.ts';

/** A base w × d centred at (x, y), turned by `turn` radians. */
const base = (x: number, y: number, w: number, d: number, turn: number): Polygon =>
  [
    [-w / 2, -d / 2],
    [w / 2, -d / 2],
    [w / 2, d / 2],
    [-w / 2, d / 2],
  ].map(([u, v]) => ({
    x: x + (u as number) * Math.cos(turn) - (v as number) * Math.sin(turn),
    y: y + (u as number) * Math.sin(turn) + (v as number) * Math.cos(turn),
  }));

/** Brute force: whether the segment shifted s to its left passes through any polygon. */
function crossesAt(a: Vec2, b: Vec2, polys: readonly Polygon[], s: number): boolean {
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const n = { x: -(b.y - a.y) / len, y: (b.x - a.x) / len };
  const a2 = { x: a.x + n.x * s, y: a.y + n.y * s };
  const b2 = { x: b.x + n.x * s, y: b.y + n.y * s };
  return polys.some((p) => segmentInsidePolygon(a2, b2, p).some((iv) => iv.t1 - iv.t0 > 1e-9));
}

describe('shiftToClear', () => {
  it('reads a column slanting past the end of the line by the few mm that take the end past it', () => {
    // A line of fire 200 mm long; a column of five 20 × 50 mm bases slanting across it 10 mm
    // before its end, reaching 100 mm to either side of the infinite line.
    const a = { x: 0, y: 0 };
    const b = { x: 200, y: 0 };
    const column = [0, 1, 2, 3, 4].map((k) => base(190 + (k - 2) * 10, (k - 2) * 48, 20, 50, 1.37));
    const clear = shiftToClear(a, b, column);
    expect(clear).toBeGreaterThan(0);
    expect(clear).toBeLessThan(60);
    expect(crossesAt(a, b, column, 0)).toBe(true);
  });

  it('matches brute force over shifts on random bases and lines', () => {
    const r = rng(77);
    let crossing = 0;
    for (let k = 0; k < 300; k++) {
      const a = { x: r() * 300, y: r() * 300 };
      const b = { x: r() * 300, y: r() * 300 };
      const polys = Array.from({ length: 1 + Math.floor(r() * 4) }, () =>
        base(50 + r() * 200, 50 + r() * 200, 10 + r() * 60, 10 + r() * 40, r() * Math.PI),
      );
      const clear = shiftToClear(a, b, polys);
      if (!crossesAt(a, b, polys, 0)) continue;
      crossing++;
      // Every smaller shift either way still crosses (up to the sampling step), and one a hair
      // larger is clear one way or the other.
      const step = 0.05;
      for (let s = step; s < clear - step; s += step) {
        expect(crossesAt(a, b, polys, s) && crossesAt(a, b, polys, -s)).toBe(true);
      }
      expect(!crossesAt(a, b, polys, clear + 1e-6) || !crossesAt(a, b, polys, -clear - 1e-6)).toBe(true);
    }
    expect(crossing).toBeGreaterThan(40);
  });

  it('is undefined for a polygon wholly beyond the segment, and 0 when the segment is clear', () => {
    const a = { x: 0, y: 0 };
    const b = { x: 100, y: 0 };
    expect(shiftInterval(a, b, base(150, 0, 20, 20, 0))).toBeUndefined();
    expect(shiftToClear(a, b, [base(50, 30, 20, 20, 0)])).toBe(0);
  });
});

describe('stripExtent', () => {
  it('is the extent across the segment of the part of a polygon beside it (brute force by sampling)', () => {
    const r = rng(91);
    for (let k = 0; k < 200; k++) {
      const a = { x: r() * 300, y: r() * 300 };
      const b = { x: r() * 300, y: r() * 300 };
      const p = base(50 + r() * 200, 50 + r() * 200, 10 + r() * 80, 10 + r() * 40, r() * Math.PI);
      const e = stripExtent(a, b, p);
      const len = Math.hypot(b.x - a.x, b.y - a.y);
      const u = { x: (b.x - a.x) / len, y: (b.y - a.y) / len };
      // Points of the outline, 2,000 per edge, whose projection falls on the segment.
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < p.length; i++) {
        const s = p[i] as Vec2;
        const t = p[(i + 1) % p.length] as Vec2;
        for (let j = 0; j <= 2000; j++) {
          const q = { x: s.x + ((t.x - s.x) * j) / 2000, y: s.y + ((t.y - s.y) * j) / 2000 };
          const along = (q.x - a.x) * u.x + (q.y - a.y) * u.y;
          if (along < 0 || along > len) continue;
          const across = (q.y - a.y) * u.x - (q.x - a.x) * u.y;
          lo = Math.min(lo, across);
          hi = Math.max(hi, across);
        }
      }
      if (lo > hi) {
        // Nothing sampled beside it: either nothing is, or only a sliver thinner than the sampling.
        if (e) expect(Math.min(e.hi - e.lo, 1)).toBeLessThan(1);
        continue;
      }
      expect(e).toBeDefined();
      expect(e?.lo as number).toBeCloseTo(lo, 0);
      expect(e?.hi as number).toBeCloseTo(hi, 0);
    }
  });
});
