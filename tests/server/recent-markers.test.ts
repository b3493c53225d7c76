import { describe, expect, it } from 'vitest';
import { RecentMarkers } from '../../src/server/recent-markers.ts';

describe('recent markers', () => {
  it('keeps an id listed for its time after the frame that last saw it, then forgets it', () => {
    const recent = new RecentMarkers(5000);
    recent.note([77, 12], 1000);
    recent.note([], 2000); // frames in between that did not look there
    expect(recent.seenSince(5999)).toEqual([12, 77]);
    recent.note([77], 5000);
    expect(recent.seenSince(6001)).toEqual([77]); // 12 last seen at 1000: gone
    expect(recent.seenSince(10_000)).toEqual([77]);
    expect(recent.seenSince(10_001)).toEqual([]);
  });
});
