import { describe, expect, it } from 'vitest';
import { gradientAgainstDifferences } from './footprint-gradient.ts';
import { predictWhitenessBoxed, sampledGaussian } from '../../src/vision/boxed-footprint.ts';
import type { Mat3 } from '../../src/vision/homography.ts';
import { invert3 } from '../../src/vision/homography.ts';
import { gridToImage, pixelsAround, type PixelSet } from '../../src/vision/tag-footprint.ts';

const CELLS = 8;

/** A fixed, asymmetric pattern (border black, data cells a seeded mix). */
function pattern(): Float64Array {
  const p = new Float64Array(CELLS * CELLS);
  let state = 7;
  for (let y = 1; y < CELLS - 1; y++)
    for (let x = 1; x < CELLS - 1; x++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      p[y * CELLS + x] = state % 3 === 0 ? 0 : 1;
    }
  return p;
}

/** A tag of ~12 px turned 20°, foreshortened and with a touch of perspective (a tilted camera). */
function tiltedTag(): { pixels: PixelSet; toGrid: Mat3 } {
  const side = 12;
  const turn = (20 * Math.PI) / 180;
  const corners = [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([x, y]) => {
    const u = (side / 2) * (x! * Math.cos(turn) - y! * Math.sin(turn));
    const v = 0.75 * (side / 2) * (x! * Math.sin(turn) + y! * Math.cos(turn));
    const depth = 1 + 0.03 * y!;
    return { u: 32.3 + u * depth, v: 31.8 + v * depth };
  });
  const grey = { data: new Uint8Array(64 * 64), width: 64, height: 64 };
  return { pixels: pixelsAround(grey, corners, CELLS, 2)!, toGrid: invert3(gridToImage(corners, CELLS)!)! };
}

/**
 * The truth by brute force: each pixel's square sampled on a fine grid of points, each point mapped
 * to the tag's grid through the exact perspective (white, black, or past the quiet zone), then the
 * pixels filtered by the kernel.
 */
function bruteForce(
  toGrid: Mat3,
  pat: Float64Array,
  kernel: Float64Array,
  pu: number,
  pv: number,
): { white: number; outer: number } {
  const r = (kernel.length - 1) / 2;
  const steps = 40;
  let white = 0;
  let outer = 0;
  for (let j = -r; j <= r; j++)
    for (let i = -r; i <= r; i++) {
      let w = 0;
      let o = 0;
      for (let b = 0; b < steps; b++)
        for (let a = 0; a < steps; a++) {
          const u = pu + i - 0.5 + (a + 0.5) / steps;
          const v = pv + j - 0.5 + (b + 0.5) / steps;
          const z = toGrid[6] * u + toGrid[7] * v + toGrid[8];
          const gx = Math.floor((toGrid[0] * u + toGrid[1] * v + toGrid[2]) / z);
          const gy = Math.floor((toGrid[3] * u + toGrid[4] * v + toGrid[5]) / z);
          if (gx < -1 || gy < -1 || gx > CELLS || gy > CELLS) o++;
          else w += gx >= 0 && gy >= 0 && gx < CELLS && gy < CELLS ? pat[gy * CELLS + gx]! : 1;
        }
      const weight = kernel[i + r]! * kernel[j + r]!;
      white += (weight * w) / (steps * steps);
      outer += (weight * o) / (steps * steps);
    }
  return { white, outer };
}

describe('predictWhitenessBoxed', () => {
  it('is each pixel square’s ink through the exact perspective, filtered by the kernel (brute force)', () => {
    const { pixels, toGrid } = tiltedTag();
    const pat = pattern();
    for (const sigma of [0.7, 1.4]) {
      const kernel = sampledGaussian(sigma);
      const out = new Float64Array(pixels.count);
      const outer = { weight: new Float64Array(pixels.count), gradient: null };
      expect(predictWhitenessBoxed(pixels, toGrid, pat, CELLS, kernel, out, null, outer)).toBe(true);
      let worst = 0;
      let worstOuter = 0;
      let anyOuter = false;
      for (let i = 0; i < pixels.count; i++) {
        const truth = bruteForce(toGrid, pat, kernel, pixels.u[i]!, pixels.v[i]!);
        worst = Math.max(worst, Math.abs(out[i]! - truth.white));
        worstOuter = Math.max(worstOuter, Math.abs(outer.weight[i]! - truth.outer));
        anyOuter ||= truth.outer > 0.5;
      }
      // Sampling 40 × 40 points a pixel errs by up to ~1/40 of an edge's crossing.
      expect(worst).toBeLessThan(0.006);
      expect(worstOuter).toBeLessThan(0.006);
      expect(anyOuter).toBe(true);
    }
  });

  it('gives the gradient of the whiteness as the grid moves (finite differences of the picture)', () => {
    const { pixels, toGrid } = tiltedTag();
    const pat = pattern();
    const n = pixels.count;
    const kernel = sampledGaussian(0.8);
    const w = new Float64Array(n);
    const gradient = { gradient: new Float64Array(2 * n), grid: new Float64Array(2 * n) };
    expect(predictWhitenessBoxed(pixels, toGrid, pat, CELLS, kernel, w, gradient)).toBe(true);
    const { worst, largest } = gradientAgainstDifferences(toGrid, gradient.gradient, n, 1e-3, (t) => {
      const out = new Float64Array(n);
      expect(predictWhitenessBoxed(pixels, t, pat, CELLS, kernel, out)).toBe(true);
      return out;
    });
    expect(largest).toBeGreaterThan(0.3);
    expect(worst).toBeLessThan(0.01 * largest);
  });
});

describe('sampledGaussian', () => {
  it('sums to 1, is symmetric and reaches 3σ', () => {
    for (const sigma of [0.3, 0.7, 1.4]) {
      const k = sampledGaussian(sigma);
      expect(k.length).toBe(2 * Math.max(1, Math.ceil(3 * sigma)) + 1);
      expect(k.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      for (let i = 0; i < k.length; i++) expect(k[i]).toBeCloseTo(k[k.length - 1 - i]!, 15);
    }
  });
});
