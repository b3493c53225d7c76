import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import { intersectionArea, regionArea } from '../../src/geometry/boolean.ts';
import { boxOf, growBox, type Box } from '../../src/geometry/box.ts';
import { depthShadow, depthShadowNear } from '../../src/geometry/depth-shadow.ts';
import { containsPoint, type Polygon } from '../../src/geometry/polygon.ts';
import { segmentInsidePolygon } from '../../src/geometry/segment-clip.ts';
import type { Vec2 } from '../../src/geometry/vec.ts';
import { sightWindow } from '../../src/geometry/visible-region.ts';
import { turnedRect } from './turned.ts';

/** A turned rectangle `w` × `h` at (cx, cy). */
const rect = turnedRect;

/**
 * Case k of a test: a wood (every third an L, else a turned rectangle), an eye (every tenth inside
 * the wood) and a depth of sight into it (every fourth none), drawn from `r` in that order.
 */
function woodCase(r: () => number, k: number): { wood: Polygon; eye: Vec2; depth: number } {
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
  return { wood, eye, depth };
}

describe('depth shadows from rays kept per eye and outline', () => {
  it('hide of every target what rays traced to each window’s own reach hide (areas within 1e-9 of the target)', () => {
    const r = rng(53);
    let cut = 0;
    for (let k = 0; k < 60; k++) {
      // A wood (convex or an L), one eye, many windows round targets on every side of it.
      const { wood, eye, depth } = woodCase(r, k);
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

/**
 * The depth shadow as it was built before fans were kept per eye: bearings worked out and sorted
 * for every window, each ray's stretches traced to 40 m (as the kept rays are), t* read off them.
 */
function depthShadowPerWindow(eye: Vec2, poly: Polygon, depthMm: number, window: Box): Polygon[] {
  const RAY_MM = 40_000;
  const STEP = (0.25 * Math.PI) / 180;
  const EDGE = 1e-9;
  const corners = [
    { x: window.minX, y: window.minY },
    { x: window.maxX, y: window.minY },
    { x: window.maxX, y: window.maxY },
    { x: window.minX, y: window.maxY },
  ];
  const reach = Math.max(...corners.map((c) => Math.hypot(c.x - eye.x, c.y - eye.y))) + 1;
  const depthAt = (theta: number): number => {
    const far = { x: eye.x + Math.cos(theta) * RAY_MM, y: eye.y + Math.sin(theta) * RAY_MM };
    let left = depthMm;
    for (const iv of segmentInsidePolygon(eye, far, poly)) {
      const d0 = iv.t0 * RAY_MM;
      if (d0 >= reach) break;
      const len = Math.min(iv.t1 * RAY_MM, reach) - d0;
      if (len > left) return d0 + left;
      left -= len;
    }
    return Infinity;
  };
  const inside = containsPoint(poly, eye);
  let start = 0;
  let end = 2 * Math.PI;
  if (!inside) {
    // angularSpan, as depth-shadow.ts walks it.
    let cx = 0;
    let cy = 0;
    for (const p of poly) {
      cx += p.x / poly.length;
      cy += p.y / poly.length;
    }
    const mid = Math.atan2(cy - eye.y, cx - eye.x);
    let lo = 0;
    let hi = 0;
    let prev = 0;
    let acc = 0;
    poly.forEach((p, i) => {
      let a = Math.atan2(p.y - eye.y, p.x - eye.x) - mid;
      while (a > Math.PI) a -= 2 * Math.PI;
      while (a < -Math.PI) a += 2 * Math.PI;
      if (i === 0) acc = a;
      else {
        let d = a - prev;
        while (d > Math.PI) d -= 2 * Math.PI;
        while (d < -Math.PI) d += 2 * Math.PI;
        acc += d;
      }
      prev = a;
      lo = i === 0 ? acc : Math.min(lo, acc);
      hi = i === 0 ? acc : Math.max(hi, acc);
    });
    start = mid + lo;
    end = mid + hi;
  }
  const thetas: number[] = [];
  const n = Math.max(1, Math.ceil((end - start) / STEP));
  for (let k = 0; k <= n; k++) thetas.push(start + ((end - start) * k) / n);
  if (!inside)
    for (const p of poly) {
      let a = Math.atan2(p.y - eye.y, p.x - eye.x);
      while (a < start - EDGE) a += 2 * Math.PI;
      while (a > end + EDGE) a -= 2 * Math.PI;
      for (const b of [a - EDGE, a + EDGE]) if (b > start && b < end) thetas.push(b);
    }
  thetas.sort((a, b) => a - b);
  const refined: Array<{ theta: number; t: number }> = [];
  for (const theta of thetas) {
    const r = { theta, t: depthAt(theta) };
    const prev = refined[refined.length - 1];
    if (prev && Number.isFinite(prev.t) !== Number.isFinite(r.t)) {
      let lo = prev.theta;
      let hi = r.theta;
      const hidLo = Number.isFinite(prev.t);
      for (let k = 0; k < 40 && hi - lo > 1e-10; k++) {
        const mid = (lo + hi) / 2;
        if (Number.isFinite(depthAt(mid)) === hidLo) lo = mid;
        else hi = mid;
      }
      const edge = hidLo ? lo : hi;
      refined.push({ theta: edge, t: depthAt(edge) });
    }
    refined.push(r);
  }
  const farR = reach / Math.cos(STEP / 2) + 1;
  const out: Polygon[] = [];
  let run: Array<{ theta: number; t: number }> = [];
  const flush = () => {
    let i = 0;
    while (run.length - i >= 2) {
      let j = i + 1;
      while (j + 1 < run.length && (run[j + 1]?.theta ?? 0) - (run[i]?.theta ?? 0) < Math.PI / 2) j++;
      const part = run.slice(i, j + 1);
      const near = part.map((r) => ({
        x: eye.x + Math.cos(r.theta) * r.t,
        y: eye.y + Math.sin(r.theta) * r.t,
      }));
      const farPts = part
        .map((r) => ({ x: eye.x + Math.cos(r.theta) * farR, y: eye.y + Math.sin(r.theta) * farR }))
        .reverse();
      out.push([...near, ...farPts]);
      i = j;
    }
    run = [];
  };
  for (const r of refined) {
    if (Number.isFinite(r.t) && r.t < farR) run.push(r);
    else flush();
  }
  flush();
  return out;
}

describe('depth shadows from fans kept per eye', () => {
  it('are point for point (Object.is) the shadows built afresh for each window, over 30 woods and 20 windows each', () => {
    const r = rng(59);
    let fans = 0;
    for (let k = 0; k < 30; k++) {
      const { wood, eye, depth } = woodCase(r, k);
      for (let n = 0; n < 20; n++) {
        const target = [rect(r() * 1500, r() * 1500, 40 + r() * 120, 40, r() * Math.PI)];
        const window = sightWindow(eye, growBox(boxOf(target.flat()), 50), 1);
        const got = depthShadow(eye, wood, depth, window);
        const want = depthShadowPerWindow(eye, wood, depth, window);
        expect(got.length, `wood ${k}, window ${n}`).toBe(want.length);
        got.forEach((p, i) => {
          expect(p.length, `wood ${k}, window ${n}`).toBe(want[i]?.length);
          p.forEach((q, m) =>
            expect(
              Object.is(q.x, want[i]?.[m]?.x) && Object.is(q.y, want[i]?.[m]?.y),
              `wood ${k}, window ${n}`,
            ).toBe(true),
          );
        });
        fans += got.length;
      }
    }
    expect(fans).toBeGreaterThan(200);
  });
});

describe('depth shadows of woods that cannot reach the target (depthShadowNear)', () => {
  it('are point for point depthShadow’s pieces whose boxes meet the near box, over 60 woods and 40 targets each', () => {
    const r = rng(61);
    let reaching = 0;
    let missing = 0;
    const meets = (a: Box, b: Box) =>
      a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
    for (let k = 0; k < 60; k++) {
      const { wood, eye, depth } = woodCase(r, k);
      for (let n = 0; n < 40; n++) {
        const target = [rect(r() * 1500, r() * 1500, 40 + r() * 120, 40, r() * Math.PI)];
        const near = growBox(boxOf(target.flat()), r() < 0.5 ? 50 : r() * 300);
        const window = sightWindow(eye, near, 1);
        const got = depthShadowNear(eye, wood, depth, window, near);
        const all = depthShadow(eye, wood, depth, window);
        const want = all.filter((p) => p.length >= 3 && meets(boxOf(p), near));
        expect(got.length, `wood ${k}, target ${n}`).toBe(want.length);
        got.forEach((p, i) => {
          expect(p.length).toBe(want[i]?.length);
          p.forEach((q, m) =>
            expect(
              Object.is(q.x, want[i]?.[m]?.x) && Object.is(q.y, want[i]?.[m]?.y),
              `wood ${k}, target ${n}`,
            ).toBe(true),
          );
        });
        if (want.length > 0) reaching++;
        else if (all.length > 0) missing++;
      }
    }
    expect(reaching).toBeGreaterThan(300);
    expect(missing).toBeGreaterThan(300);
  });
});
