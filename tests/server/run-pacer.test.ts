import { describe, expect, it } from 'vitest';
import { RunPacer } from '../../src/server/run-pacer.ts';

describe('the live loop run pacer', () => {
  it('spaces steady runs by the interval', () => {
    const pacer = new RunPacer(33);
    pacer.started(1000);
    pacer.started(1000 + pacer.waitMs(1000)); // the first run's credit: one more at once
    let now = 1000;
    for (let i = 0; i < 5; i++) {
      expect(pacer.waitMs(now)).toBe(33);
      now += 33;
      pacer.started(now);
    }
  });

  it('lets the run after a late one start early, by at most one interval', () => {
    const pacer = new RunPacer(33);
    pacer.started(0);
    pacer.started(0);
    expect(pacer.waitMs(0)).toBe(33);
    // Started 20 ms late: the next may start 13 ms after it, not 33.
    pacer.started(53);
    expect(pacer.waitMs(53)).toBe(13);
    // Started very late: the next may start at once, and the one after waits a whole interval.
    pacer.started(500);
    expect(pacer.waitMs(500)).toBe(0);
    pacer.started(500);
    expect(pacer.waitMs(500)).toBe(33);
  });

  it('never lets the mean rate exceed one run an interval (one run of credit)', () => {
    const pacer = new RunPacer(33);
    let now = 0;
    let runs = 0;
    // Runs started as soon as allowed, with random lateness: over 10 s at most 10000 / 33 + 2.
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    while (now < 10_000) {
      now += pacer.waitMs(now) + (random() < 0.2 ? 40 * random() : 0);
      pacer.started(now);
      runs++;
    }
    expect(runs).toBeLessThanOrEqual(Math.floor(10_000 / 33) + 2);
    expect(runs).toBeGreaterThan(250);
  });
});
