import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import { intersectionArea, regionArea } from '../../src/geometry/boolean.ts';
import { boxOf, growBox } from '../../src/geometry/box.ts';
import { clipToConvex } from '../../src/geometry/convex-clip.ts';
import { closestPointOnSegment } from '../../src/geometry/distance.ts';
import { isConvex } from '../../src/geometry/hull.ts';
import { eyeHidden, hiddenIn, type ShadowKind } from '../../src/geometry/eye-shadow.ts';
import { containsPoint, type Polygon } from '../../src/geometry/polygon.ts';
import { segmentInsidePolygon } from '../../src/geometry/segment-clip.ts';
import type { Vec2 } from '../../src/geometry/vec.ts';
import { hiddenRegions, sightScreen, sightWindow } from '../../src/geometry/visible-region.ts';
import { turned, turnedRect } from './turned.ts';

/** A turned rectangle of 20–180 by 20–80 mm somewhere on a 1,500 mm square. */
function rect(r: () => number): Polygon {
  const cx = r() * 1500;
  const cy = r() * 1500;
  const w = 20 + r() * 160;
  const h = 20 + r() * 60;
  return turnedRect(cx, cy, w, h, r() * Math.PI);
}

/** An L-shaped (concave) outline, turned, somewhere on the square. */
function ell(r: () => number): Polygon {
  const cx = r() * 1500;
  const cy = r() * 1500;
  const a = r() * Math.PI;
  const w = 40 + r() * 80;
  const t = 15 + r() * 20;
  const outline: Array<[number, number]> = [
    [0, 0],
    [w, 0],
    [w, t],
    [t, t],
    [t, w],
    [0, w],
  ];
  return turned(outline, cx, cy, a);
}

/**
 * Truth from the sight line itself: p is hidden when the segment eye → p runs inside the outline;
 * a solid also hides what is in it, a screen does not.
 */
function hiddenByLine(eye: Vec2, p: Vec2, poly: Polygon, kind: ShadowKind): boolean {
  if (containsPoint(poly, p)) return kind === 'solid';
  return segmentInsidePolygon(eye, p, poly).some((iv) => iv.t1 - iv.t0 > 1e-12);
}

const nearEdge = (p: Vec2, polys: readonly Polygon[], tol: number): boolean =>
  polys.some((q) =>
    q.some((a, i) => {
      const c = closestPointOnSegment(p, a, q[(i + 1) % q.length] as Vec2);
      return Math.hypot(c.x - p.x, c.y - p.y) < tol;
    }),
  );

describe('shadows built once per eye (eyeHidden) and cut to each window', () => {
  it('hide, inside the window, exactly what each sight line says is hidden', () => {
    const r = rng(41);
    let hidden = 0;
    let seen = 0;
    for (let k = 0; k < 1500; k++) {
      const kind: ShadowKind = k % 3 === 2 ? 'screen' : 'solid';
      const poly = k % 4 === 3 ? ell(r) : rect(r);
      const eye = { x: r() * 1500, y: r() * 1500 };
      if (containsPoint(poly, eye)) continue;
      const target = rect(r);
      const window = sightWindow(eye, growBox(boxOf(target), 50), 1);
      const screen = sightScreen('s', 's', poly, kind);
      const found = hiddenRegions(eye, [screen], window, window).hidden.flatMap((h) => h.polygons);
      for (let n = 0; n < 40; n++) {
        const p = {
          x: window.minX + r() * (window.maxX - window.minX),
          y: window.minY + r() * (window.maxY - window.minY),
        };
        // Points on an edge (of the hidden pieces or the outline) are left out: rounding decides them.
        if (nearEdge(p, [...found, poly], 1e-6)) continue;
        const truth = hiddenByLine(eye, p, poly, kind);
        expect(
          found.some((q) => containsPoint(q, p)),
          `case ${k}, point ${n}`,
        ).toBe(truth);
        if (truth) hidden++;
        else seen++;
      }
    }
    expect(hidden).toBeGreaterThan(500);
    expect(seen).toBeGreaterThan(2000);
  });

  it('hide of a target what the shadow built for the pair window alone hides (areas within 1e-9)', () => {
    const r = rng(43);
    let cut = 0;
    for (let k = 0; k < 2000; k++) {
      const kind: ShadowKind = k % 3 === 2 ? 'screen' : 'solid';
      const poly = k % 4 === 3 ? ell(r) : rect(r);
      const eye = { x: r() * 1500, y: r() * 1500 };
      if (containsPoint(poly, eye)) continue;
      const target = [rect(r)];
      const window = sightWindow(eye, growBox(boxOf(target.flat()), 50), 1);
      const wide = eyeHidden(eye, poly, kind, window);
      const direct = hiddenIn(eye, poly, kind, window);
      const a = intersectionArea(target, wide);
      const b = intersectionArea(target, direct);
      expect(Math.abs(a - b), `case ${k}`).toBeLessThan(1e-9 * regionArea(target));
      if (b > 0) cut++;
    }
    expect(cut).toBeGreaterThan(60);
  });

  it('a convex outline and its shadow are one hull even where rounding repeats a corner (a case that kept an inside corner)', () => {
    const eye = { x: 841.1931273294613, y: 1280.5107190506533 };
    const poly = [
      { x: 563.6802115690726, y: 460.2920345974753 },
      { x: 622.6235241732489, y: 536.4008597670044 },
      { x: 599.6125591705721, y: 554.221953450363 },
      { x: 540.6692465663958, y: 478.11312828083385 },
    ];
    const [hull] = eyeHidden(eye, poly, 'solid', sightWindow(eye, boxOf(poly), 60));
    // The back corner (563.7, 460.3) lies inside the shadow, not on the hull.
    expect((hull ?? []).some((q) => Math.hypot(q.x - 563.68, q.y - 460.29) < 0.01)).toBe(false);
  });
});

describe('hiddenRegions skipping shadows whose box misses the target', () => {
  it('keeps exactly the polygons cutting every shadow to the window keeps (Object.is), on 3,000 random sights', () => {
    const r = rng(83);
    let kept = 0;
    let skippedSome = 0;
    for (let k = 0; k < 3000; k++) {
      const eye = { x: r() * 1500, y: r() * 1500 };
      const screens = Array.from({ length: 2 + Math.floor(r() * 6) }, (_, i) => {
        const poly = i % 4 === 3 ? ell(r) : rect(r);
        return sightScreen(`s${i}`, `s${i}`, poly, i % 3 === 2 ? 'screen' : 'solid');
      });
      if (screens.some((s) => containsPoint(s.polygon, eye))) continue;
      const target = rect(r);
      const near = growBox(boxOf(target), 50);
      const window = sightWindow(eye, near, 1);
      const found = hiddenRegions(eye, screens, window, near);
      // Truth: every shadow cut to the window, kept when its cut part's box meets the near box.
      const rectPoly: Polygon = [
        { x: window.minX, y: window.minY },
        { x: window.maxX, y: window.minY },
        { x: window.maxX, y: window.maxY },
        { x: window.minX, y: window.maxY },
      ];
      const overlaps = (a: ReturnType<typeof boxOf>, b: ReturnType<typeof boxOf>) =>
        a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
      const meets = (b: ReturnType<typeof boxOf>) => overlaps(b, near);
      const truth = screens.flatMap((s) => {
        if (!overlaps(s.box, window)) return [];
        const shadows = eyeHidden(eye, s.polygon, s.kind as ShadowKind, window);
        const polygons = shadows
          .map((p) => (p === s.polygon ? p : clipToConvex(p, rectPoly)))
          .filter((c) => c.length >= 3 && meets(boxOf(c)));
        if (shadows.length > polygons.length) skippedSome++;
        return polygons.length > 0 ? [{ id: s.id, polygons }] : [];
      });
      expect(
        found.hidden.map((h) => h.screen.id),
        `case ${k}`,
      ).toEqual(truth.map((t) => t.id));
      found.hidden.forEach((h, i) => {
        const want = truth[i]?.polygons ?? [];
        expect(h.polygons.length, `case ${k}`).toBe(want.length);
        h.polygons.forEach((p, j) =>
          p.forEach((q, n) =>
            expect(
              Object.is(q.x, want[j]?.[n]?.x) &&
                Object.is(q.y, want[j]?.[n]?.y) &&
                p.length === want[j]?.length,
              `case ${k}`,
            ).toBe(true),
          ),
        );
        h.facts?.forEach((f, j) => {
          expect(f.box).toEqual(boxOf(h.polygons[j] as Polygon));
          expect(f.convex).toBe(isConvex(h.polygons[j] as Polygon));
        });
        kept += h.polygons.length;
      });
    }
    expect(kept).toBeGreaterThan(1000);
    expect(skippedSome).toBeGreaterThan(1000);
  });
});
