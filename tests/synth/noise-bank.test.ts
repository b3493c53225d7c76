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

describe('NoiseBank picture updates', () => {
  it('refreshing only the changed rectangle gives the frame a full refresh gives', () => {
    const width = 40;
    const height = 30;
    const n = width * height * 3;
    const before = Float32Array.from({ length: n }, (_, i) => (i * 7.31) % 260);
    const after = Float32Array.from(before);
    const rect = { x0: 5, y0: 7, x1: 23, y1: 19, width };
    for (let y = rect.y0; y < rect.y1; y++)
      for (let i = (y * width + rect.x0) * 3; i < (y * width + rect.x1) * 3; i++) after[i] = 255 - after[i]!;
    const partial = new NoiseBank(2, 5, 4096);
    partial.setPicture(before);
    partial.setPicture(after, rect);
    const full = new NoiseBank(2, 5, 4096);
    full.setPicture(after);
    const a = new Uint8Array(n);
    const b = new Uint8Array(n);
    partial.applyTo(a, 9);
    full.applyTo(b, 9);
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it('adds noise within a 64th of a grey level of the exact sum (noise-free bank: the picture rounded)', () => {
    const n = 1003; // not a multiple of the kernel's 16 samples
    const src = Float32Array.from({ length: n }, (_, i) => ((i * 37.17) % 300) - 20);
    const out = new Uint8Array(n);
    new NoiseBank(0, 1, 256).apply(src, out, 3);
    for (let i = 0; i < n; i++) {
      const exact = Math.min(255, Math.max(0, src[i]!));
      expect(Math.abs(out[i]! - exact)).toBeLessThanOrEqual(0.5 + 1 / 64);
    }
  });
});
