import { describe, expect, it } from 'vitest';
import { SIMD_STILL_SUM, StillSumKernel } from '../../src/vision/still-sum-kernel.ts';

/** Seeded bytes (an LCG's top bits). */
function randomBytes(n: number, seed: number): Uint8Array {
  let state = seed >>> 0;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 24;
  return out;
}

describe('StillSumKernel (Uint16 sums, 16 pixels a step)', () => {
  it('compiles to WebAssembly SIMD on this Node', () => {
    expect(SIMD_STILL_SUM).toBe(true);
  });

  it('equals a per-pixel sum mod 65 536 for sizes that are and are not multiples of 16', () => {
    for (const pixels of [16, 17, 1000, 64 * 48 + 5]) {
      const kernel = new StillSumKernel(pixels);
      const expected = new Uint32Array(pixels);
      kernel.sum.set(randomBytes(pixels, pixels));
      for (let i = 0; i < pixels; i++) expected[i] = kernel.sum[i]!;
      // 300 frames: past 65 535 for bright pixels, so wrap-around is checked too.
      for (let f = 0; f < 300; f++) {
        const frame = randomBytes(pixels, 1000 * pixels + f);
        kernel.add(frame);
        for (let i = 0; i < pixels; i++) expected[i] = (expected[i]! + frame[i]!) & 0xffff;
      }
      expect(Array.from(kernel.sum)).toEqual(Array.from(expected));
    }
  });

  it('adds from a view into a larger buffer at any offset (OpenCV Mats are views)', () => {
    const kernel = new StillSumKernel(333);
    const big = randomBytes(1000, 9);
    const view = big.subarray(7, 7 + 333);
    kernel.add(view);
    kernel.add(view);
    expect(Array.from(kernel.sum)).toEqual(Array.from(view, (v) => 2 * v));
  });
});
