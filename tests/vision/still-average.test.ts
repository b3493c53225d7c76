import { describe, expect, it } from 'vitest';
import type { Rect } from '../../src/vision/mosaic.ts';
import { StillAverage } from '../../src/vision/still-average.ts';

/** A flat grey picture at `level` with seeded noise σ ≈ 6 (sum of uniforms), 64 × 48. */
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

function sigmaOf(data: Uint8Array, level: number): number {
  let s = 0;
  for (const v of data) s += (v - level) ** 2;
  return Math.sqrt(s / data.length);
}

const mean = (data: Uint8Array) => data.reduce((a, b) => a + b, 0) / data.length;

describe('still average', () => {
  it('takes the noise of a still picture down by about √8 over eight frames', () => {
    const average = new StillAverage();
    let last = noisyFrame(1);
    expect(sigmaOf(last.data, 100)).toBeGreaterThan(5);
    average.add(last, null);
    for (let f = 2; f <= 8; f++) average.add((last = noisyFrame(f)), []);
    average.takeMean(last);
    expect(sigmaOf(last.data, 100)).toBeLessThan(6 / Math.sqrt(8) + 0.6);
  });

  it('restarts where the picture changed: those pixels are the new frame, the rest the mean of the still frames', () => {
    const average = new StillAverage();
    for (let f = 1; f <= 7; f++) average.add(noisyFrame(f), f === 1 ? null : []);
    const moved = noisyFrame(9, 150);
    const copy = Uint8Array.from(moved.data);
    // The top 16 rows changed.
    average.add(moved, [{ x0: 0, y0: 0, w: 64, h: 16 }]);
    average.takeMean(moved);
    expect(moved.data.subarray(0, 64 * 16)).toEqual(copy.subarray(0, 64 * 16));
    // Below: seven frames at 100 and this one at 150.
    const below = mean(moved.data.subarray(64 * 16));
    expect(below).toBeGreaterThan(100 + 50 / 8 - 1.5);
    expect(below).toBeLessThan(100 + 50 / 8 + 1.5);
  });

  it('starts again after each mean, and everywhere when a frame cannot be compared', () => {
    const average = new StillAverage();
    for (let f = 1; f <= 5; f++) average.add(noisyFrame(f, 100), f === 1 ? null : []);
    average.takeMean(noisyFrame(5, 100));
    // After a mean only the frames since count: two at 60.
    average.add(noisyFrame(6, 60), []);
    const second = noisyFrame(7, 60);
    average.add(second, []);
    average.takeMean(second);
    expect(Math.abs(mean(second.data) - 60)).toBeLessThan(1);
    // A frame that cannot be compared is taken as it is.
    for (let f = 8; f <= 10; f++) average.add(noisyFrame(f, 100), []);
    const fresh = noisyFrame(20, 30);
    const copy = Uint8Array.from(fresh.data);
    average.add(fresh, null);
    average.takeMean(fresh);
    expect(fresh.data).toEqual(copy);
  });

  it('gives the same means with the SIMD addition as with a plain loop and a brute-force sum (random frames and changes)', () => {
    let state = 77;
    const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
    for (const [width, height] of [
      [64, 48],
      [37, 23],
    ] as const) {
      const simd = new StillAverage();
      const plain = new StillAverage(false);
      // Brute force beside both: a sum and a frame count per pixel.
      const n = width * height;
      const sum = new Float64Array(n);
      const count = new Float64Array(n);
      let restart = true;
      let sinceRestart = 0;
      let means = 0;
      for (let f = 0; f < 600; f++) {
        const data = new Uint8Array(n).map(() => next() >>> 24);
        const roll = next() % 40;
        const changed: Rect[] | null =
          roll === 0
            ? null
            : Array.from({ length: roll % 4 }, () => ({
                x0: (next() % (width + 10)) - 5 + 0.3,
                y0: (next() % (height + 10)) - 5 + 0.6,
                w: next() % 20,
                h: next() % 20,
              }));
        const a = { data, width, height };
        const b = { data: Uint8Array.from(data), width, height };
        simd.add(a, changed);
        plain.add(b, changed);
        if (restart || changed === null || ++sinceRestart >= 250) {
          sum.set(data);
          count.fill(1);
          restart = false;
          sinceRestart = 0;
        } else {
          for (const r of changed) {
            const y1 = Math.min(height, Math.ceil(r.y0 + r.h));
            const x1 = Math.min(width, Math.ceil(r.x0 + r.w));
            for (let y = Math.max(0, Math.floor(r.y0)); y < y1; y++)
              for (let x = Math.max(0, Math.floor(r.x0)); x < x1; x++) {
                sum[y * width + x] = 0;
                count[y * width + x] = 0;
              }
          }
          for (let i = 0; i < n; i++) {
            sum[i] = sum[i]! + data[i]!;
            count[i] = count[i]! + 1;
          }
        }
        // Means now and then, and once after a long run (sums near their 250-frame limit).
        if (next() % 15 === 0 || f === 580) {
          const expected = Array.from(sum, (s, i) => Math.trunc((s + (count[i]! >> 1)) / count[i]!));
          simd.takeMean(a);
          plain.takeMean(b);
          expect(Array.from(a.data)).toEqual(Array.from(b.data));
          expect(Array.from(a.data)).toEqual(expected);
          expect(Array.from(b.data)).toEqual(expected);
          restart = true;
          means++;
        }
      }
      expect(means).toBeGreaterThan(20);
    }
  });
});
