import { describe, expect, it } from 'vitest';
import { regionArea } from '../../../src/geometry/boolean.ts';
import type { Polygon } from '../../../src/geometry/polygon.ts';
import { visibleRegion, sightScreen } from '../../../src/geometry/visible-region.ts';
import { closedRanks, crackOf } from '../../../src/rules/engine/closed-ranks.ts';
import { seenShare, seenShareQuantity } from '../../../src/rules/engine/sight-share.ts';

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

describe("a body joined by a link its bases could open (O'er the Sea plain 28309)", () => {
  // Two 50 × 25 mm bases side by side, `gap` mm apart, each ± 1 mm: the seam is 6 mm. The eye
  // stands square below the crack between them; a small target behind it.
  const pair = (gap: number, sigmaHeadingDeg = 0) => [
    { polygon: rectAt(0, 100, 50, 25), sigmaMm: 1, sigmaHeadingDeg },
    { polygon: rectAt(50 + gap, 100, 50, 25), sigmaMm: 1, sigmaHeadingDeg },
  ];
  const eye = { x: 52.5, y: 0 };
  const target = [rectAt(45, 400, 15, 15)];
  const sightPast = (bodies: readonly Polygon[], from = eye) =>
    seenShare(
      {
        eye: from,
        eyeSigmaMm: 0,
        target,
        targetSigmaMm: 0,
        screens: bodies.map((p) => sightScreen('X', 'X', p, 'solid')),
        screenSigmaMm: () => 1,
      },
      (sigmaMm) => Math.max(6.35, 2 * sigmaMm),
    );

  it('5 mm apart against a 6 mm seam: one body, in doubt by 1 mm, and the target behind it too close to call', () => {
    const [body, ...rest] = closedRanks(pair(5));
    expect(rest).toHaveLength(0);
    const crack = crackOf(body as Polygon);
    expect(crack?.parts).toHaveLength(2);
    expect(crack?.openMm).toBeCloseTo(1, 9);
    const s = sightPast([body as Polygon]);
    expect(s.region.share).toBe(0);
    expect(seenShareQuantity(s, 'moreThan', 0, 6.35).moveMm).toBeCloseTo(1, 9);
    // Brute force: each base 0.75 mm further out (within its sigma) and they are two bodies, with
    // the target seen between them.
    const apart = closedRanks(pair(6.5));
    expect(apart).toHaveLength(2);
    expect(sightPast(apart).region.share).toBeGreaterThan(0);
  });

  it('seen through the crack only once the unit also shifts: 10 mm off the crack, a shift of 3.2 mm shows it', () => {
    // From (62.5, 0) the crack as it stands looks out at x 22.5…32.5 at the target's depth; the
    // bases 3.125 mm further right and it reaches the target's edge at x = 45.
    const from = { x: 62.5, y: 0 };
    const [body] = closedRanks(pair(5));
    const q = seenShareQuantity(sightPast([body as Polygon], from), 'moreThan', 0, 6.35);
    // A crack 1 mm from opening, and a shift of two quarter bands (3.175 mm).
    expect(q.moveMm).toBeCloseTo(1 + 6.35 / 2, 9);
    // Brute force: both bases 3.2 mm right and 0.75 mm further apart each, and the target is seen.
    const shifted = [
      { polygon: rectAt(3.2 - 0.75, 100, 50, 25), sigmaMm: 1 },
      { polygon: rectAt(55 + 3.2 + 0.75, 100, 50, 25), sigmaMm: 1 },
    ];
    expect(closedRanks(shifted)).toHaveLength(2);
    expect(sightPast(closedRanks(shifted), from).region.share).toBeGreaterThan(0);
    // From 20 mm off, no shift within the band shows it.
    const far = seenShareQuantity(sightPast([body as Polygon], { x: 72.5, y: 0 }), 'moreThan', 0, 6.35);
    expect(far.moveMm).toBeGreaterThan(6.35);
  });

  it('1 mm apart: firmly one body, the target firmly hidden', () => {
    const [body] = closedRanks(pair(1));
    expect(crackOf(body as Polygon)).toBeUndefined();
    expect(seenShareQuantity(sightPast([body as Polygon]), 'moreThan', 0, 6.35).moveMm).toBeGreaterThan(6.35);
  });

  it("a base's heading error turns its corners toward the crack: 1.5 mm apart is in doubt at ± 3°, not at 0°", () => {
    expect(crackOf(closedRanks(pair(1.5))[0] as Polygon)).toBeUndefined();
    // Each base's corners swing 27.95 mm × 3° = 1.46 mm: 2.46 mm a base against 4.5 mm to open.
    expect(crackOf(closedRanks(pair(1.5, 3))[0] as Polygon)?.openMm).toBeCloseTo(4.5, 9);
  });
});

describe('closed ranks are worked out once per list of bases', () => {
  it('returns the same bodies for the same list, and equal ones for a copy', () => {
    const bases = [0, 1, 2].map((i) => ({ polygon: rectAt(i * 51, 0, 50, 25), sigmaMm: 2 }));
    const first = closedRanks(bases);
    // The same outline objects: what the shadows kept per outline and eye are found by.
    expect(closedRanks(bases)).toBe(first);
    const copy = closedRanks([...bases]);
    expect(copy).not.toBe(first);
    expect(copy).toEqual(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});
