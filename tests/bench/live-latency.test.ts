import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  latencySplit,
  matchMessages,
  moveLatencies,
  poseShows,
  quantile,
  type OverlayMessage,
  type SentFrame,
  type UnitPose,
} from '../../bench/live-latency.ts';

/**
 * The live benchmark's latency matching (bench/live-latency.ts): which frame an overlay message
 * shows, and how long each move took to reach the overlay, checked on hand-made logs and against a
 * brute-force reading of random logs.
 */

const pose = (x: number, y = 0): UnitPose =>
  new Map([
    [40, { x, y }],
    [41, { x: x - 40, y }],
  ]);

/** A unit stepping 25 mm per frame, frames 33 ms apart from t = 1000. */
const stepping = (n: number): SentFrame[] =>
  Array.from({ length: n }, (_, i) => ({ index: i, sentAt: 1000 + 33 * i, truth: pose(25 * i) }));

const opts = { toleranceMm: 8, windowMs: 1000 };

describe('poseShows', () => {
  it('needs every base of the truth, each within the tolerance', () => {
    expect(poseShows(pose(100), pose(105), 8)).toBe(true);
    expect(poseShows(pose(100), pose(110), 8)).toBe(false);
    expect(poseShows(new Map([[40, { x: 100, y: 0 }]]), pose(100), 8)).toBe(false);
  });
});

describe('matchMessages', () => {
  const frames = stepping(10);

  it('takes the latest frame sent before the message that the pose agrees with', () => {
    const messages: OverlayMessage[] = [
      { receivedAt: 1000 + 33 * 5 + 10, reported: pose(25 * 3 + 2) }, // frame 3, two frames stale
      { receivedAt: 1000 + 33 * 2 + 1, reported: pose(25 * 4) }, // frame 4 not sent yet
      { receivedAt: 1000 + 33 * 9, reported: pose(12.5) }, // between frames 0 and 1: neither
    ];
    expect(matchMessages(frames, messages, opts)).toEqual([3, null, null]);
  });

  it('ignores frames older than the window (a path that comes back to a pose)', () => {
    const loop: SentFrame[] = [...stepping(3), { index: 3, sentAt: 1099, truth: pose(0) }];
    // Pose 0 again at frame 3: a message at 1120 shows frame 3, not frame 0.
    expect(matchMessages(loop, [{ receivedAt: 1120, reported: pose(0) }], opts)).toEqual([3]);
    const short = { toleranceMm: 8, windowMs: 50 };
    expect(matchMessages(stepping(4), [{ receivedAt: 1099 + 60, reported: pose(0) }], short)).toEqual([null]);
  });

  it('takes a frame captured before a later lap came round for that frame, not the later lap', () => {
    // A 3-frame loop (period 99 ms): poses 0, 25, 50, 0, 25, 50…
    const loop: SentFrame[] = Array.from({ length: 9 }, (_, i) => ({
      index: i,
      sentAt: 1000 + 33 * i,
      truth: pose(25 * (i % 3)),
    }));
    // Frame 1 (sent 1033) reached the server at 1040 and the overlay at 1250, after laps 4 and 7.
    const late: OverlayMessage = { receivedAt: 1250, reported: pose(25), capturedAt: 1040 };
    expect(matchMessages(loop, [late], { toleranceMm: 8, windowMs: 90 })).toEqual([1]);
    const { capturedAt: _, ...unstamped } = late;
    expect(matchMessages(loop, [unstamped], { toleranceMm: 8, windowMs: 90 })).toEqual([7]);
  });

  it('checks a message that names its frame against that frame only', () => {
    const messages: OverlayMessage[] = [
      { receivedAt: 1500, reported: pose(50), frameIndex: 2 },
      { receivedAt: 1500, reported: pose(50), frameIndex: 3 }, // stale pose for frame 3
    ];
    expect(matchMessages(frames, messages, opts)).toEqual([2, null]);
  });
});

describe('moveLatencies', () => {
  it('runs from the move to the first message showing it or a later frame', () => {
    const frames = stepping(6);
    const messages: OverlayMessage[] = [
      { receivedAt: 1000 + 33 * 1 + 40, reported: pose(25) }, // shows 1 at 1073
      { receivedAt: 1000 + 33 * 4 + 30, reported: pose(100) }, // shows 4 at 1162 (2 and 3 dropped)
      { receivedAt: 1000 + 33 * 5 + 70, reported: pose(100) }, // still 4: frame 5 never shown
    ];
    const matched = matchMessages(frames, messages, opts);
    expect(matched).toEqual([1, 4, 4]);
    const r = moveLatencies(frames, messages, matched, { from: 0, to: 1e9 });
    expect(r.moves).toBe(5);
    expect(r.latenciesMs).toEqual([40, 1162 - 1066, 1162 - 1099, 1162 - 1132]);
    expect(r.unresolved).toBe(1);
  });

  it('counts only moves sent inside the window, and frames that did not move are no moves', () => {
    const frames: SentFrame[] = [
      { index: 0, sentAt: 0, truth: pose(0) },
      { index: 1, sentAt: 33, truth: pose(0) },
      { index: 2, sentAt: 66, truth: pose(25) },
      { index: 3, sentAt: 99, truth: pose(50) },
    ];
    const messages: OverlayMessage[] = [{ receivedAt: 200, reported: pose(50) }];
    const matched = matchMessages(frames, messages, opts);
    expect(moveLatencies(frames, messages, matched, { from: 0, to: 1e9 })).toEqual({
      latenciesMs: [134, 101],
      unresolved: 0,
      moves: 2,
    });
    expect(moveLatencies(frames, messages, matched, { from: 70, to: 1e9 }).latenciesMs).toEqual([101]);
  });

  it('agrees with a brute-force reading of random logs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }),
        fc.array(
          fc.record({ delay: fc.integer({ min: 0, max: 400 }), shown: fc.integer({ min: -1, max: 39 }) }),
          { maxLength: 30 },
        ),
        (n, raw) => {
          const frames = stepping(n);
          // Messages received some time after the frame they show (or showing nothing).
          const messages: OverlayMessage[] = raw.map(({ delay, shown }) => {
            const f = frames[Math.min(n - 1, Math.max(0, shown))]!;
            return shown < 0
              ? { receivedAt: 1000 + delay * 3, reported: pose(-1000) }
              : { receivedAt: f.sentAt + delay, reported: f.truth };
          });
          const matched = matchMessages(frames, messages, { toleranceMm: 8, windowMs: 1e9 });
          const r = moveLatencies(frames, messages, matched, { from: 0, to: 1e9 });
          const expected: number[] = [];
          let unresolved = 0;
          for (const f of frames.slice(1)) {
            const times = messages
              .filter((_, i) => matched[i] !== null && matched[i]! >= f.index)
              .map((m) => m.receivedAt - f.sentAt);
            if (times.length) expected.push(Math.min(...times));
            else unresolved++;
          }
          expect(r.latenciesMs).toEqual(expected);
          expect(r.unresolved).toBe(unresolved);
        },
      ),
    );
  });
});

describe('latencySplit', () => {
  it('splits each shown frame at the server capture stamp', () => {
    const frames = stepping(4);
    const messages: OverlayMessage[] = [
      { receivedAt: 1200, reported: pose(50), capturedAt: 1100 }, // frame 2, sent at 1066
      { receivedAt: 1210, reported: pose(-500), capturedAt: 1150 }, // shows nothing
    ];
    const matched = matchMessages(frames, messages, opts);
    expect(latencySplit(frames, messages, matched)).toEqual({
      toServerMs: [34],
      toClientMs: [100],
    });
  });
});

describe('quantile', () => {
  it('is the nearest rank', () => {
    const v = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(quantile(v, 0.5)).toBe(10);
    expect(quantile(v, 0.95)).toBe(19);
    expect(quantile([], 0.5)).toBeNaN();
  });
});
