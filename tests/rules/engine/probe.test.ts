import { describe, expect, it } from 'vitest';
import { probeMove } from '../../../src/rules/engine/probe.ts';

describe('probeMove', () => {
  // A share seen through a gap the target slides past: 42% where it stands, 52% half a band
  // along, 42% again a band along (a sine bump), against "at least 50%".
  const band = 6;
  const bump = (o: number) => 42 + 10 * Math.sin((Math.PI * Math.max(0, o)) / band);
  // Where the bump first reaches 50: sin(πo/6) = 0.8.
  const crossing = (band * Math.asin(0.8)) / Math.PI;

  it('misses a rise and fall within the band when it looks only at the band’s ends', () => {
    const r = probeMove(bump, 42, 'atLeast', 50, band);
    expect(r.moveMm).toBe(Infinity);
  });

  it('finds it stepping out a quarter band at a time, and narrows it down', () => {
    const r = probeMove(bump, 42, 'atLeast', 50, band, 4);
    expect(r.lowerBound).toBe(false);
    expect(r.moveMm).toBeGreaterThanOrEqual(crossing);
    expect(r.moveMm - crossing).toBeLessThan(band / 4 / 32);
  });

  it('reads the same as one step when the value only climbs', () => {
    const ramp = (o: number) => 42 + Math.abs(o);
    expect(probeMove(ramp, 42, 'atLeast', 50, band, 4)).toEqual(probeMove(ramp, 42, 'atLeast', 50, band));
  });
});
