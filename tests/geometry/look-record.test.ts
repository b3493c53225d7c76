import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import { boxOf, growBox } from '../../src/geometry/box.ts';
import { gapAlongLine, type GapObstacle } from '../../src/geometry/gap.ts';
import {
  LookRecord,
  noteEnemiesLooked,
  noteSegment,
  noteSight,
  withLookRecord,
} from '../../src/geometry/look-record.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';
import { hiddenRegions, sightScreen, sightWindow } from '../../src/geometry/visible-region.ts';
import { turnedRect } from './turned.ts';

/**
 * A look must be sound: whenever a piece inside a box changes what the geometry computes, the
 * look meets that box. The truth is the geometry itself, run with and without the piece.
 */

/** A random rectangle (turned) of 20–80 mm sides somewhere on a 600 mm square. */
function piece(r: () => number): Polygon {
  const cx = r() * 600;
  const cy = r() * 600;
  const w = 20 + r() * 60;
  const h = 20 + r() * 60;
  return turnedRect(cx, cy, w, h, r() * Math.PI);
}

describe('look records are sound', () => {
  it('a sight window meets every hider that hides something of the near box (hiddenRegions with and without it)', () => {
    const r = rng(31);
    let counted = 0;
    let skipped = 0;
    for (let k = 0; k < 3000; k++) {
      const eye = { x: r() * 600, y: r() * 600 };
      const target = piece(r);
      const near = growBox(boxOf(target), 5 + r() * 50);
      const window = sightWindow(eye, near, 1);
      const hider = piece(r);
      const screen = sightScreen('h', 'hider', hider, 'solid');
      const record = new LookRecord();
      withLookRecord(record, () => noteSight(eye, near, window));
      const found = hiddenRegions(eye, [screen], window, near);
      const matters = found.blind !== undefined || found.hidden.length > 0;
      if (matters) {
        counted++;
        expect(record.meets(boxOf(hider)), `case ${k}`).toBe(true);
      } else if (!record.meets(boxOf(hider))) skipped++;
    }
    // Not vacuous: hiders that matter, and hiders the look rightly leaves out.
    expect(counted).toBeGreaterThan(200);
    expect(skipped).toBeGreaterThan(500);
  });

  it('a segment with a margin meets every obstacle that changes the gap beside it', () => {
    const r = rng(32);
    let counted = 0;
    let skipped = 0;
    for (let k = 0; k < 4000; k++) {
      const a = { x: r() * 600, y: r() * 600 };
      const b = { x: r() * 600, y: r() * 600 };
      const width = 30 + r() * 80;
      const fixed: GapObstacle[] = [0, 1, 2, 3, 4, 5].map((i) => ({
        id: `o${i}`,
        label: `o${i}`,
        polygon: piece(r),
      }));
      const moving: GapObstacle = { id: 'm', label: 'm', polygon: piece(r) };
      const record = new LookRecord();
      const without = withLookRecord(record, () => gapAlongLine(a, b, fixed, width));
      const withIt = gapAlongLine(a, b, [...fixed, moving], width);
      const meets = record.meets(boxOf(moving.polygon));
      if (JSON.stringify(without) !== JSON.stringify(withIt)) {
        counted++;
        expect(meets, `case ${k}`).toBe(true);
      } else if (!meets) skipped++;
    }
    expect(counted).toBeGreaterThan(20);
    expect(skipped).toBeGreaterThan(200);
  });

  it('a plain segment meets exactly the boxes it touches; records add up', () => {
    const outer = new LookRecord();
    const inner = new LookRecord();
    withLookRecord(inner, () => noteSegment({ x: 0, y: 0 }, { x: 100, y: 100 }));
    outer.add(inner);
    // Off the diagonal but inside the segment's bounding box: not met.
    expect(outer.meets({ minX: 70, minY: 0, maxX: 90, maxY: 20 })).toBe(false);
    expect(outer.meets({ minX: 40, minY: 40, maxX: 60, maxY: 45 })).toBe(true);
    expect(new LookRecord().meets({ minX: 0, minY: 0, maxX: 1, maxY: 1 })).toBe(false);
  });

  it('a box looked in for enemies is met by another side, or a side not given, never by the side noted', () => {
    const outer = new LookRecord();
    const inner = new LookRecord();
    withLookRecord(inner, () => noteEnemiesLooked('red', { minX: 0, minY: 0, maxX: 10, maxY: 10 }));
    outer.add(inner);
    const overlapping = { minX: 5, minY: 5, maxX: 20, maxY: 20 };
    expect(outer.meets(overlapping, 'blue')).toBe(true);
    expect(outer.meets(overlapping)).toBe(true);
    expect(outer.meets(overlapping, 'red')).toBe(false);
    // Beyond the box (and its millimetre of slack): met by no side.
    expect(outer.meets({ minX: 12, minY: 12, maxX: 20, maxY: 20 }, 'blue')).toBe(false);
  });
});
