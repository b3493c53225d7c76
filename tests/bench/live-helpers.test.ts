import { describe, expect, it } from 'vitest';
import { loopOffsets } from '../../bench/live-frames.ts';
import { PAGE_BYTES, parseStat, TICKS_PER_S } from '../../bench/live-proc.ts';
import { selfTimes, type CpuProfile } from '../../bench/live-profile.ts';
import { socketQueueBytes } from '../../bench/live-stream.ts';

/** The live benchmark's small helpers: the moving unit's loop, /proc stat lines, profile self times. */

describe('loopOffsets', () => {
  it('steps one step per frame, back to the start, never coming near an earlier pose', () => {
    expect(() => loopOffsets(10, 100, 3)).toThrow();
    for (const [step, leg, legs] of [
      [25.4, 500, 4],
      [10, 95, 2],
      [40, 40, 6],
    ] as const) {
      const o = loopOffsets(step, leg, legs);
      const n = Math.round(leg / step);
      // Legs, two steps between legs, the home column.
      expect(o.length).toBe(1 + legs * n + 2 * (legs - 1) + 2 * (legs - 1) + 1);
      for (let i = 0; i < o.length; i++) {
        const next = o[(i + 1) % o.length]!;
        expect(Math.hypot(next.x - o[i]!.x, next.y - o[i]!.y)).toBeCloseTo(step, 9);
        for (let j = 0; j < i; j++)
          expect(Math.hypot(o[j]!.x - o[i]!.x, o[j]!.y - o[i]!.y)).toBeGreaterThanOrEqual(step - 1e-9);
      }
    }
  });
});

describe('parseStat', () => {
  it('reads CPU time and RSS past a command name with spaces and parentheses', () => {
    // Fields after the name: state ppid … utime (14) stime (15) … rss (24).
    const after = ['S', '42', ...Array.from({ length: 9 }, (_, i) => String(i + 5))];
    after.push('250', '50', '0', '0', '20', '0', '7', '0', '123', '456789', '1000');
    const s = parseStat(`1234 (node (worker) x) ${after.join(' ')} 0 0`);
    expect(s).not.toBeNull();
    expect(s!.pid).toBe(1234);
    expect(s!.name).toBe('node (worker) x');
    expect(s!.ppid).toBe(42);
    expect(s!.cpuS).toBeCloseTo(300 / TICKS_PER_S, 9); // utime 250 + stime 50 ticks
    expect(s!.rssBytes).toBe(1000 * PAGE_BYTES);
  });
});

describe('selfTimes', () => {
  const profile: CpuProfile = {
    startTime: 1_000_000,
    endTime: 1_000_600,
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 } },
      { id: 2, callFrame: { functionName: 'detect', url: 'file:///repo/src/vision/a.ts', lineNumber: 9 } },
      { id: 3, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
      {
        id: 4,
        callFrame: { functionName: '', url: 'file:///repo/src/vision/split-pass-worker.ts', lineNumber: 0 },
      },
    ],
    // Sample times 1000100, 1000200, …: each counts the 100 µs until the next.
    samples: [2, 2, 3, 2, 4, 2],
    timeDeltas: [100, 100, 100, 100, 100, 100],
  };

  it('counts each sample until the next, leaves idle and Atomics waits out of busy time', () => {
    const r = selfTimes(profile, '/repo');
    expect(r.total).toBeCloseTo(0.5, 9);
    expect(r.busy).toBeCloseTo(0.3, 9);
    expect(r.top).toEqual([{ name: 'detect src/vision/a.ts:10', ms: expect.closeTo(0.3, 9), share: 1 }]);
  });

  it('keeps only samples inside the window', () => {
    const r = selfTimes(profile, '/repo', { fromUs: 1_000_250, toUs: 1_000_450 });
    expect(r.total).toBeCloseTo(0.2, 9);
    expect(r.busy).toBeCloseTo(0.1, 9);
  });
});

describe('socketQueueBytes', () => {
  it('adds both queues of every connection ss lists', () => {
    const out = [
      '0      2621440  127.0.0.1:41000  127.0.0.1:52344',
      '1048576 0       127.0.0.1:52344  127.0.0.1:41000',
      '',
    ].join('\n');
    expect(socketQueueBytes(out)).toBe(2621440 + 1048576);
    expect(socketQueueBytes('')).toBe(0);
  });
});
