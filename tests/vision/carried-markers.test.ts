import { describe, expect, it } from 'vitest';
import type { Quad } from '../../src/vision/candidates.ts';
import { CarriedMarkers } from '../../src/vision/carried-markers.ts';

const square = (u: number, v: number, side = 10): Quad =>
  [
    { u, v },
    { u: u + side, v },
    { u: u + side, v: v + side },
    { u, v: v + side },
  ] as unknown as Quad;

/** A 1 px limit, the frame after one in which marker 7 was found at (100, 100). */
function sevenFoundAt100(): CarriedMarkers {
  const carried = new CarriedMarkers(1);
  carried.nextFrame();
  carried.note([{ id: 7, corners: square(100, 100) }]);
  carried.nextFrame();
  return carried;
}

describe('carried markers', () => {
  it('is a marker found in the frame before and found now more than the move limit away', () => {
    const carried = sevenFoundAt100();
    expect(carried.isCarried(7, square(100.6, 100.6))).toBe(false); // 0.85 px: still
    expect(carried.isCarried(7, square(101.5, 100))).toBe(true);
    expect(carried.isCarried(7, square(140, 100))).toBe(true);
  });

  it('is never a marker with no place in the frame before (put down, or back from under a hand)', () => {
    const carried = sevenFoundAt100();
    expect(carried.isCarried(8, square(300, 300))).toBe(false);
    // Frame 3 does not find 7; in frame 4 it is back elsewhere: measured in full.
    carried.nextFrame();
    expect(carried.isCarried(7, square(160, 100))).toBe(false);
  });

  it('takes a frame searched twice as one frame', () => {
    const carried = sevenFoundAt100();
    carried.note([{ id: 7, corners: square(120, 100) }]);
    // The second search of that frame still compares with the frame before, not with the first search.
    expect(carried.isCarried(7, square(120, 100))).toBe(true);
    carried.note([{ id: 7, corners: square(120, 100) }]);
    carried.nextFrame();
    expect(carried.isCarried(7, square(120, 100))).toBe(false);
  });
});
