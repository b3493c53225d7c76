import { describe, expect, it } from 'vitest';
import { Tracker } from '../../src/vision/tracker.ts';

const pose = (markerId: number, x: number) => ({
  markerId,
  x,
  y: 100,
  headingDeg: 0,
  sigmaMm: 0.05,
  sigmaHeadingDeg: 0.2,
});

describe('tracker', () => {
  it('holds a briefly missed base as seen, then shows it as last seen, and takes it back when found', () => {
    const tracker = new Tracker({ holdMs: 500 });
    tracker.update([pose(10, 50), pose(11, 80)], 0);
    let b = tracker.update([pose(11, 80)], 200).find((x) => x.markerId === 10)!;
    expect(b).toMatchObject({ seen: true, missingMs: 200, lastSeenAt: 0, x: 50 });
    b = tracker.update([pose(11, 80)], 800).find((x) => x.markerId === 10)!;
    expect(b).toMatchObject({ seen: false, missingMs: 800, lastSeenAt: 0, x: 50 });
    b = tracker.update([pose(10, 61), pose(11, 80)], 900).find((x) => x.markerId === 10)!;
    expect(b).toMatchObject({ seen: true, missingMs: 0, lastSeenAt: 900, x: 61 });
    expect(tracker.all()).toHaveLength(2);
  });

  it('marks a base under a moving hand as being moved, and never holds it as seen until it is found again', () => {
    const tracker = new Tracker({ holdMs: 500 });
    tracker.update([pose(10, 50)], 0);
    let b = tracker.update([], 100, new Set([10]))[0]!;
    expect(b).toMatchObject({ seen: false, moving: true, missingMs: 100 });
    // The hand has gone, the base with it: not moving any more, not held either.
    b = tracker.update([], 200)[0]!;
    expect(b).toMatchObject({ seen: false, moving: false, missingMs: 200 });
    b = tracker.update([pose(10, 90)], 300)[0]!;
    expect(b).toMatchObject({ seen: true, moving: false, x: 90 });
  });
});
