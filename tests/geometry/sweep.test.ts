import { describe, expect, it } from 'vitest';
import type { FacedBox } from '../../src/geometry/faced-box.ts';
import { frameFromFront } from '../../src/geometry/frame.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import { sweepContact, sweepDistance } from '../../src/geometry/sweep.ts';
import type { Vec2 } from '../../src/geometry/vec.ts';
import { Prng } from '../../src/synth/noise.ts';

/**
 * The contact worked out another way: in the box's frame (x across the front, y ahead), the least
 * y of a convex polygon within |x| ≤ w is at a corner inside that slab or where an edge crosses
 * one of its sides; the polygon counts when some of it lies in the slab ahead of the rear edge.
 */
function bruteContact(box: FacedBox, poly: Polygon): { distance: number; x: number } | undefined {
  const w = box.width / 2;
  const f = box.frame.front;
  const local = poly.map((p) => {
    const dx = p.x - box.frame.origin.x;
    const dy = p.y - box.frame.origin.y;
    return { x: dx * f.y - dy * f.x, y: dx * f.x + dy * f.y };
  });
  const inSlab: Vec2[] = local.filter((p) => Math.abs(p.x) <= w);
  for (let i = 0; i < local.length; i++) {
    const a = local[i]!;
    const b = local[(i + 1) % local.length]!;
    for (const side of [-w, w])
      if ((a.x - side) * (b.x - side) < 0) {
        const t = (side - a.x) / (b.x - a.x);
        inSlab.push({ x: side, y: a.y + (b.y - a.y) * t });
      }
  }
  if (inSlab.length === 0) return undefined;
  if (Math.max(...inSlab.map((p) => p.y)) < -box.depth) return undefined;
  const low = inSlab.reduce((m, p) => (p.y < m.y ? p : m));
  return { distance: Math.max(0, low.y), x: low.x };
}

/** A convex polygon: `n` corners round a circle, in order. */
function convex(r: () => number, centre: Vec2, radius: number, n: number): Polygon {
  const angles = Array.from({ length: n }, () => r() * 2 * Math.PI).sort((a, b) => a - b);
  return angles.map((a) => ({ x: centre.x + radius * Math.cos(a), y: centre.y + radius * Math.sin(a) }));
}

describe('sweepContact', () => {
  it('finds the first contact of a box run straight ahead, as worked out corner by corner', () => {
    const prng = new Prng(20261130);
    const r = () => prng.next();
    const kinds = { inside: 0, beside: 0, across: 0 };
    for (let trial = 0; trial < 3000; trial++) {
      const heading = r() * 2 * Math.PI;
      const front = { x: Math.cos(heading), y: Math.sin(heading) };
      const box: FacedBox = {
        frame: frameFromFront({ x: r() * 400, y: r() * 400 }, front),
        width: 20 + r() * 120,
        depth: 20 + r() * 40,
      };
      const right = { x: front.y, y: -front.x };
      // Targets ahead, beside and behind the box, small (wholly within the strip) to large (across it).
      const across = (r() - 0.5) * box.width * 3;
      const ahead = (r() - 0.3) * 300;
      const centre = {
        x: box.frame.origin.x + right.x * across + front.x * ahead,
        y: box.frame.origin.y + right.y * across + front.y * ahead,
      };
      const polys = Array.from({ length: 1 + Math.floor(r() * 3) }, () =>
        convex(
          r,
          { x: centre.x + (r() - 0.5) * 60, y: centre.y + (r() - 0.5) * 60 },
          2 + r() * 90,
          3 + Math.floor(r() * 4),
        ),
      );
      const got = sweepContact(box, polys);
      expect(sweepDistance(box, polys)).toBe(got?.distance ?? Infinity);
      const each = polys.map((p) => bruteContact(box, p)).filter((c) => c !== undefined);
      const want = each.length ? each.reduce((m, c) => (c.distance < m.distance ? c : m)) : undefined;
      if (!want) expect(got).toBeUndefined();
      else {
        expect(got).toBeDefined();
        expect(got!.distance).toBeCloseTo(want.distance, 9);
      }
      for (const p of polys) {
        const xs = p.map((q) => (q.x - box.frame.origin.x) * right.x + (q.y - box.frame.origin.y) * right.y);
        const w = box.width / 2;
        if (Math.min(...xs) >= -w && Math.max(...xs) <= w) kinds.inside++;
        else if (Math.max(...xs) < -w || Math.min(...xs) > w) kinds.beside++;
        else kinds.across++;
      }
    }
    // Every case the clipping tells apart was met many times.
    expect(Math.min(kinds.inside, kinds.beside, kinds.across)).toBeGreaterThan(300);
  });

  it('gives the point met and the matching point of the front edge', () => {
    const box: FacedBox = { frame: frameFromFront({ x: 0, y: 0 }, { x: 0, y: 1 }), width: 40, depth: 20 };
    // A square wholly within the strip, 30 mm ahead; and one across its right side, 10 mm ahead.
    const inside: Polygon = [
      { x: -5, y: 30 },
      { x: 5, y: 30 },
      { x: 5, y: 40 },
      { x: -5, y: 40 },
    ];
    expect(sweepContact(box, [inside])).toEqual({
      distance: 30,
      at: { x: -5, y: 30 },
      from: { x: -5, y: 0 },
    });
    const acrossEdge: Polygon = [
      { x: -30, y: 10 },
      { x: -10, y: 10 },
      { x: -10, y: 20 },
      { x: -30, y: 20 },
    ];
    const c = sweepContact(box, [inside, acrossEdge])!;
    expect(c.distance).toBe(10);
    expect(c.at.y).toBe(10);
    expect(Math.abs(c.at.x)).toBeLessThanOrEqual(20);
    // Beside the strip, or behind the rear edge: nothing met.
    const beside = inside.map((p) => ({ x: p.x + 100, y: p.y }));
    const behind = inside.map((p) => ({ x: p.x, y: p.y - 100 }));
    expect(sweepContact(box, [beside, behind])).toBeUndefined();
  });
});
