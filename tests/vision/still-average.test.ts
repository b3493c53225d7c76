import { describe, expect, it } from 'vitest';
import { StillAverage } from '../../src/vision/still-average.ts';

/** A flat grey picture of 100 with seeded noise σ ≈ 6 (sum of uniforms), 64 × 48. */
function noisyFrame(seed: number, level = 100): { data: Uint8Array; width: number; height: number } {
  let state = seed;
  const uniform = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const data = new Uint8Array(64 * 48);
  for (let i = 0; i < data.length; i++) {
    let s = 0;
    for (let k = 0; k < 12; k++) s += uniform();
    data[i] = Math.round(level + 6 * (s - 6));
  }
  return { data, width: 64, height: 48 };
}

function sigmaOf(data: Uint8Array, level: number, from = 0, to = data.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += (data[i]! - level) ** 2;
  return Math.sqrt(s / (to - from));
}

describe('still average', () => {
  it('takes the noise of a still picture down by about √8 after eight frames', () => {
    const average = new StillAverage(8);
    let last = noisyFrame(1);
    average.apply(last, null);
    expect(sigmaOf(last.data, 100)).toBeGreaterThan(5);
    for (let f = 2; f <= 8; f++) average.apply((last = noisyFrame(f)), []);
    expect(sigmaOf(last.data, 100)).toBeLessThan(6 / Math.sqrt(8) + 0.6);
  });

  it('restarts where the picture changed: those pixels are the new frame, the rest stays averaged', () => {
    const average = new StillAverage(8);
    for (let f = 1; f <= 8; f++) average.apply(noisyFrame(f), f === 1 ? null : []);
    const moved = noisyFrame(9, 150);
    const copy = Uint8Array.from(moved.data);
    // The top 16 rows changed.
    average.apply(moved, [{ x0: 0, y0: 0, w: 64, h: 16 }]);
    expect(moved.data.subarray(0, 64 * 16)).toEqual(copy.subarray(0, 64 * 16));
    // Below, seven still frames of 100 and one of 150: the mean moves by 50 / 8 only.
    const below = moved.data.subarray(64 * 16);
    const mean = below.reduce((a, b) => a + b, 0) / below.length;
    expect(mean).toBeGreaterThan(100 + 50 / 8 - 1.5);
    expect(mean).toBeLessThan(100 + 50 / 8 + 1.5);
  });

  it('restarts everywhere when the frame cannot be compared', () => {
    const average = new StillAverage(8);
    for (let f = 1; f <= 5; f++) average.apply(noisyFrame(f), f === 1 ? null : []);
    const fresh = noisyFrame(20, 30);
    const copy = Uint8Array.from(fresh.data);
    average.apply(fresh, null);
    expect(fresh.data).toEqual(copy);
  });
});
