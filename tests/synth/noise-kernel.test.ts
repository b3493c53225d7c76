import { describe, expect, it } from 'vitest';
import { FIXED_SHIFT, NoiseKernel, SIMD_NOISE } from '../../src/synth/noise-kernel.ts';
import { Prng } from '../../src/synth/noise.ts';

describe('NoiseKernel (fixed-point noise, 16 samples a step)', () => {
  it('compiles to WebAssembly SIMD on this Node', () => {
    expect(SIMD_NOISE).toBe(true);
  });

  it('equals the scalar sum, rounding and clamping for any start, offset and length', () => {
    const kernel = new NoiseKernel(5000, 3000);
    const rng = new Prng(3);
    const span = (lo: number, hi: number) => lo + (rng.nextU32() % (hi - lo));
    for (let i = 0; i < 5000; i++) kernel.picture[i] = span(-128 * 64, 384 * 64);
    for (let i = 0; i < 3000; i++) kernel.noise[i] = span(-127 * 64, 127 * 64);
    for (const [i, k, length] of [
      [0, 0, 3000],
      [7, 13, 2501],
      [4999, 5, 1],
      [101, 2999, 1],
      [333, 1000, 15],
    ] as const) {
      kernel.out.fill(77);
      kernel.run(i, k, length);
      for (let j = 0; j < length; j++) {
        const v = (kernel.picture[i + j]! + kernel.noise[k + j]!) >> FIXED_SHIFT;
        expect(kernel.out[i + j]).toBe(Math.min(255, Math.max(0, v)));
      }
      expect(kernel.out[i + length] ?? 77).toBe(77); // nothing written past the run
    }
  });
});
