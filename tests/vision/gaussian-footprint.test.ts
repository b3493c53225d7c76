import { describe, expect, it } from 'vitest';
import { gradientAgainstDifferences } from './footprint-gradient.ts';
import type { Mat3 } from '../../src/vision/homography.ts';
import { homographyFrom, invert3 } from '../../src/vision/homography.ts';
import { kernelCdf, kernelPdf, predictWhitenessGaussian } from '../../src/vision/gaussian-footprint.ts';
import {
  gridToImage,
  pixelsAround,
  predictWhiteness,
  type PixelSet,
} from '../../src/vision/tag-footprint.ts';

const CELLS = 8;

/** A fixed, asymmetric pattern (border black, data cells a seeded mix). */
function pattern(): Float64Array {
  const p = new Float64Array(CELLS * CELLS);
  let state = 99;
  for (let y = 1; y < CELLS - 1; y++)
    for (let x = 1; x < CELLS - 1; x++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      p[y * CELLS + x] = state % 3 === 0 ? 0 : 1;
    }
  return p;
}

/**
 * The truth, by brute force: the pixel's footprint as an isotropic Gaussian in the image (σ² +
 * 1/12, the lens and the pixel's square), integrated on a fine grid of image points, each mapped
 * to the tag's grid through the exact perspective (not its local Jacobian).
 */
function bruteForce(pu: number, pv: number, toGrid: Mat3, pat: Float64Array, blur: number): number {
  const s = Math.sqrt(blur * blur + 1 / 12);
  const steps = 60;
  const reach = 4.5 * s;
  let sum = 0;
  let total = 0;
  for (let j = 0; j <= steps; j++)
    for (let i = 0; i <= steps; i++) {
      const du = -reach + (2 * reach * i) / steps;
      const dv = -reach + (2 * reach * j) / steps;
      const k = Math.exp(-(du * du + dv * dv) / (2 * s * s));
      const u = pu + du;
      const v = pv + dv;
      const w = toGrid[6] * u + toGrid[7] * v + toGrid[8];
      const gx = Math.floor((toGrid[0] * u + toGrid[1] * v + toGrid[2]) / w);
      const gy = Math.floor((toGrid[3] * u + toGrid[4] * v + toGrid[5]) / w);
      const value = gx >= 0 && gy >= 0 && gx < CELLS && gy < CELLS ? pat[gy * CELLS + gx]! : 1;
      sum += k * value;
      total += k;
    }
  return sum / total;
}

/** A tag of ~13 px foreshortened to 70 % along a direction 30° off its own axes (a tilted camera). */
function tiltedTag(): { corners: Array<{ u: number; v: number }>; pixels: PixelSet; toGrid: Mat3 } {
  const side = 13;
  const turn = (20 * Math.PI) / 180;
  const squash = { dir: (50 * Math.PI) / 180, scale: 0.7 };
  const corners = [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([x, y]) => {
    // Turn the square, then squash the image along `dir`, with a touch of perspective.
    let u = (side / 2) * (x! * Math.cos(turn) - y! * Math.sin(turn));
    let v = (side / 2) * (x! * Math.sin(turn) + y! * Math.cos(turn));
    const along = u * Math.cos(squash.dir) + v * Math.sin(squash.dir);
    u -= (1 - squash.scale) * along * Math.cos(squash.dir);
    v -= (1 - squash.scale) * along * Math.sin(squash.dir);
    const depth = 1 + 0.02 * y!;
    return { u: 32 + u * depth, v: 32 + v * depth };
  });
  const grey = { data: new Uint8Array(64 * 64), width: 64, height: 64 };
  const pixels = pixelsAround(grey, corners, CELLS, 1)!;
  const toGrid = invert3(gridToImage(corners, CELLS)!)!;
  return { corners, pixels, toGrid };
}

describe('kernelCdf and kernelPdf', () => {
  it('are the standard normal cut at ±3.5 σ and scaled to 1, to 10⁻⁶', () => {
    const tail = 2.32629079035525e-4; // Φ(−3.5)
    const known: Array<[number, number]> = [
      [-3, 0.0013498980316301],
      [-2, 0.022750131948179195],
      [-0.5, 0.3085375387259869],
      [0, 0.5],
      [0.3, 0.6179114221889527],
      [1, 0.8413447460685429],
      [2.5, 0.9937903346742238],
    ];
    for (const [x, p] of known) {
      expect(Math.abs(kernelCdf(x) - (p - tail) / (1 - 2 * tail))).toBeLessThan(1e-6);
      const density = Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI) / (1 - 2 * tail);
      expect(Math.abs(kernelPdf(x) - density)).toBeLessThan(1e-6);
    }
    expect(kernelCdf(-3.5)).toBe(0);
    expect(kernelCdf(3.5)).toBe(1);
    expect(kernelCdf(-3.5 + 1e-9)).toBeLessThan(1e-9);
  });
});

describe('predictWhitenessGaussian', () => {
  it('matches a brute-force Gaussian through the exact perspective on a foreshortened tag, closer than the tent', () => {
    const { pixels, toGrid } = tiltedTag();
    const pat = pattern();
    for (const blur of [0.7, 1.4]) {
      const gaussian = new Float64Array(pixels.count);
      const tent = new Float64Array(pixels.count);
      expect(predictWhitenessGaussian(pixels, toGrid, pat, CELLS, blur, gaussian)).toBe(true);
      expect(predictWhiteness(pixels, toGrid, pat, CELLS, blur, tent)).toBe(true);
      let worstGaussian = 0;
      let squaredGaussian = 0;
      let squaredTent = 0;
      for (let i = 0; i < pixels.count; i++) {
        const truth = bruteForce(pixels.u[i]!, pixels.v[i]!, toGrid, pat, blur);
        worstGaussian = Math.max(worstGaussian, Math.abs(gaussian[i]! - truth));
        squaredGaussian += (gaussian[i]! - truth) ** 2;
        squaredTent += (tent[i]! - truth) ** 2;
      }
      // Whiteness 0–1: a 200-level contrast makes 0.01 two grey levels.
      expect(worstGaussian).toBeLessThan(0.012);
      expect(squaredGaussian).toBeLessThan(0.2 * squaredTent);
    }
  });

  it('gives the gradient of the whiteness as the grid moves under a fixed kernel (finite differences)', () => {
    const { pixels, toGrid } = tiltedTag();
    const pat = pattern();
    const n = pixels.count;
    const w = new Float64Array(n);
    const gradient = { gradient: new Float64Array(2 * n), grid: new Float64Array(2 * n) };
    expect(predictWhitenessGaussian(pixels, toGrid, pat, CELLS, 0.9, w, gradient)).toBe(true);
    // Moving every grid position by δ is a translation after toGrid: the Jacobian, so the kernel, is unchanged.
    const { worst, largest } = gradientAgainstDifferences(toGrid, gradient.gradient, n, 1e-4, (t) => {
      const out = new Float64Array(n);
      expect(predictWhitenessGaussian(pixels, t, pat, CELLS, 0.9, out)).toBe(true);
      return out;
    });
    expect(largest).toBeGreaterThan(0.3);
    // The tables are linear between knots: their slopes are a few 10⁻³ off the true ones.
    expect(worst).toBeLessThan(0.01 * largest);
  });

  it('refuses a degenerate quad as the tent does', () => {
    const corners = [
      { u: 10, v: 10 },
      { u: 10.2, v: 10 },
      { u: 10.2, v: 10.2 },
      { u: 10, v: 10.2 },
    ];
    const grey = { data: new Uint8Array(32 * 32), width: 32, height: 32 };
    const pixels = pixelsAround(grey, corners, CELLS, 1)!;
    const toGrid = invert3(
      homographyFrom(
        [
          { x: 0, y: 0 },
          { x: CELLS, y: 0 },
          { x: CELLS, y: CELLS },
          { x: 0, y: CELLS },
        ],
        corners,
      )!,
    )!;
    const out = new Float64Array(pixels.count);
    expect(predictWhitenessGaussian(pixels, toGrid, pattern(), CELLS, 1, out)).toBe(false);
    expect(predictWhiteness(pixels, toGrid, pattern(), CELLS, 1, out)).toBe(false);
  });
});
