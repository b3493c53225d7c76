import { describe, expect, it } from 'vitest';
import { NoiseBank } from '../../src/synth/noise.ts';

describe('NoiseBank (the live demo’s sensor noise)', () => {
  it('gives every pixel fresh noise of the stated sigma each frame, clamped to 0–255', () => {
    const n = 200_000;
    const src = new Float32Array(n).fill(100.25);
    src[0] = -20;
    src[1] = 300;
    const bank = new NoiseBank(3, 11, 1 << 16);
    const a = new Uint8Array(n);
    const b = new Uint8Array(n);
    bank.apply(src, a, 1);
    bank.apply(src, b, 2);
    expect(a[0]).toBe(0);
    expect(a[1]).toBe(255);
    let sum = 0;
    let sq = 0;
    let same = 0;
    for (let i = 2; i < n; i++) {
      const d = a[i]! - 100.25;
      sum += d;
      sq += d * d;
      if (a[i] === b[i]) same++;
    }
    const mean = sum / (n - 2);
    const sd = Math.sqrt(sq / (n - 2) - mean * mean);
    expect(Math.abs(mean)).toBeLessThan(0.1);
    // Rounding to whole grey levels adds 1/12 to the variance.
    expect(sd).toBeGreaterThan(2.9);
    expect(sd).toBeLessThan(3.1);
    // Two frames agree at a pixel only as often as two independent draws would (about 13 % at σ 3).
    expect(same / (n - 2)).toBeLessThan(0.2);
  });
});
