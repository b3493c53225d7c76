import { describe, expect, it } from 'vitest';
import { seamMoveMm } from '../../src/geometry/shadow-seam.ts';
import { sightScreen, visibleRegion } from '../../src/geometry/visible-region.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import type { Vec2 } from '../../src/geometry/vec.ts';

/**
 * A target wholly hidden by two hiders whose spans of bearing just overlap: the move that opens a
 * gap between them, against brute force (the exact visible region, polygon booleans, with a hider
 * or the eye moved and the smallest move that shows some of the target found by bisection).
 */
const rect = (x0: number, x1: number, y0: number, y1: number): Polygon => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];
const shift = (p: Polygon, dx: number): Polygon => p.map((q) => ({ x: q.x + dx, y: q.y }));
const ALONG: Vec2 = { x: 0, y: 1 };
const TARGET = [rect(-20, 20, 500, 540)];
const TARGET_MM = 520;

/** Smallest move in (0, hi] for which `shows(move)`, by bisection. */
function smallest(shows: (m: number) => boolean, hi: number): number {
  expect(shows(0)).toBe(false);
  expect(shows(hi)).toBe(true);
  let lo = 0;
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (shows(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

describe('seamMoveMm: where two hiders meet in front of a target', () => {
  // Two units side by side 100 mm out, overlapping in bearing by a hair round the sight line.
  const left = rect(-60, 0.1, 100, 110);
  const right = rect(-0.1, 60, 100, 110);

  it('two units: the move is the overlap at the target, as brute force moving one finds', () => {
    const eye = { x: 0, y: 0 };
    const shares = (dx: number) =>
      visibleRegion(eye, TARGET, [
        sightScreen('L', 'L', left, 'solid'),
        sightScreen('R', 'R', shift(right, dx), 'solid'),
      ]).share;
    const hiderMove = smallest((m) => shares(m) > 0, 5);
    const seam = seamMoveMm(
      eye,
      ALONG,
      TARGET,
      [
        { polygon: left, movable: true },
        { polygon: right, movable: true },
      ],
      TARGET_MM,
    );
    // The unit's own move, brought to the target's distance (the scale the pose band is on):
    // about 0.21 mm at 100–110 mm out, about 1 mm at the target.
    expect(hiderMove).toBeGreaterThan(0.2);
    expect(hiderMove).toBeLessThan(0.22);
    expect(seam).toBeGreaterThan(hiderMove * (TARGET_MM / 110) * 0.95);
    expect(seam).toBeLessThan(hiderMove * (TARGET_MM / 100) * 1.05);
  });

  it('two pieces of terrain: only the eye moving opens them, and brute force agrees', () => {
    // A near wall 100 mm out and a far one 300 mm out, overlapping in bearing by 0.5 mrad.
    const near = rect(-60, 0.05, 100, 104);
    const far = rect(-0.1, 60, 300, 304);
    const hiders = [sightScreen('N', 'N', near, 'screen'), sightScreen('F', 'F', far, 'screen')];
    const seam = seamMoveMm(
      { x: 0, y: 0 },
      ALONG,
      TARGET,
      [
        { polygon: near, movable: false },
        { polygon: far, movable: false },
      ],
      TARGET_MM,
    );
    // The eye moving right turns the near wall's edge past the far one's (about 0.125 mm).
    const eyeMove = smallest((m) => visibleRegion({ x: m, y: 0 }, TARGET, hiders).share > 0, 5);
    // As a move of the target: the eye's lever at the near wall, (t − r)/r.
    const atTarget = (eyeMove * (TARGET_MM - 100)) / 100;
    expect(seam).toBeGreaterThan(atTarget * 0.9);
    expect(seam).toBeLessThan(atTarget * 1.1);
    // Were they units, either moving would open it, sooner (0.08 mm of the near one: 0.43 mm at
    // the target, against 0.13 mm of the eye, 0.53 mm at the target).
    const asUnits = seamMoveMm(
      { x: 0, y: 0 },
      ALONG,
      TARGET,
      [
        { polygon: near, movable: true },
        { polygon: far, movable: true },
      ],
      TARGET_MM,
    );
    expect(asUnits).toBeLessThan(seam);
  });

  it('a seam just beside the target: the hider that covers it moving max(δ, α) shows it (brute force)', () => {
    // L, 100 mm out, covers the whole target and ends α = 3 mrad beyond its right-hand edge (the
    // target's corner at 20/500 = 0.040 rad off the centre line, L's at 4.3/100); R meets L there,
    // overlapping it by 1 mrad, and hides none of the target.
    const eye = { x: 0, y: 0 };
    const l = rect(-60, 4.3, 100, 104);
    const r = rect(4.2, 60, 100, 104);
    const seam = seamMoveMm(
      eye,
      ALONG,
      TARGET,
      [
        { polygon: l, movable: true },
        { polygon: r, movable: true },
      ],
      TARGET_MM,
    );
    const shows = (dx: number) =>
      visibleRegion(eye, TARGET, [
        sightScreen('L', 'L', shift(l, dx), 'solid'),
        sightScreen('R', 'R', r, 'solid'),
      ]).share > 0;
    // L moving left: its edge must pass both the target's edge and R's start.
    const lMove = smallest((m) => shows(-m), 5);
    // At the target's distance (L is 100–104 mm out).
    expect(seam).toBeGreaterThan(lMove * (TARGET_MM / 104) * 0.95);
    expect(seam).toBeLessThan(lMove * (TARGET_MM / 100) * 1.05);
    // Without R, the same target is L's alone: no seam at all.
    expect(seamMoveMm(eye, ALONG, TARGET, [{ polygon: l, movable: true }], TARGET_MM)).toBe(Infinity);
  });

  it('no seam on the target: a hider reaching right across it alone', () => {
    const wide = rect(-200, 200, 100, 110);
    expect(
      seamMoveMm(
        { x: 0, y: 0 },
        ALONG,
        TARGET,
        [
          { polygon: wide, movable: true },
          { polygon: rect(-300, -250, 100, 110), movable: true },
        ],
        TARGET_MM,
      ),
    ).toBe(Infinity);
  });
});
