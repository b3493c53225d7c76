import { describe, expect, it } from 'vitest';
import type { Pixel } from '../../src/camera/projection.ts';
import { PixelResponseEstimate } from '../../src/vision/pixel-response.ts';
import { markerPattern } from '../../src/vision/quad-align.ts';

const CELLS = 8;
const SIZE = 120;
/** Sub-samples per pixel along each axis in the test's own renderer. */
const SUB = 8;

type Quad = [Pixel, Pixel, Pixel, Pixel];

/** A sheet-sized marker (~9 px cells) turned and offset by `k`. */
function sheetCorners(k: number): Quad {
  const side = 70;
  const turn = ((11 + 13 * k) * Math.PI) / 180;
  const cu = 60.2 + 0.37 * k;
  const cv = 59.7 + 0.21 * k;
  return [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([x, y]) => ({
    u: cu + (side / 2) * (x! * Math.cos(turn) - y! * Math.sin(turn)),
    v: cv + (side / 2) * (x! * Math.sin(turn) + y! * Math.cos(turn)),
  })) as Quad;
}

/** A 1-D Gaussian on a grid of `step` spacing, to 3.5 σ, summing to 1 (the test's own). */
function gaussianTaps(sigma: number, step: number): Float64Array {
  const r = Math.max(1, Math.ceil((3.5 * sigma) / step));
  const taps = Float64Array.from({ length: 2 * r + 1 }, (_, i) =>
    Math.exp(-(((i - r) * step) ** 2) / (2 * sigma * sigma)),
  );
  const sum = taps.reduce((a, b) => a + b, 0);
  return taps.map((t) => t / sum);
}

/** Separable convolution of a w × h image, clamped at the border. */
function convolve(img: Float64Array, w: number, h: number, taps: Float64Array): Float64Array<ArrayBuffer> {
  const r = (taps.length - 1) / 2;
  const tmp = new Float64Array(w * h);
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++) s += taps[i + r]! * img[y * w + Math.min(w - 1, Math.max(0, x + i))]!;
      tmp[y * w + x] = s;
    }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++) s += taps[i + r]! * tmp[Math.min(h - 1, Math.max(0, y + i)) * w + x]!;
      out[y * w + x] = s;
    }
  return out;
}

/**
 * The marker rendered apart from the code under test: ink point-sampled SUB × SUB times a pixel
 * (pixel centres at integers), optionally blurred there by a lens (a continuous Gaussian), averaged
 * over each pixel's square, optionally filtered on the pixel grid by a sensor (a sampled
 * Gaussian), plus seeded noise. Black 40, paper 200, the base top past the quiet zone 120.
 */
function render(corners: Quad, pat: Float64Array, blur: { lens?: number; sensor?: number }, seed: number) {
  const [p0, p1, , p3] = corners;
  // The square is a parallelogram here: grid coordinates by the inverse of its two edge vectors.
  const ex = { u: (p1.u - p0.u) / CELLS, v: (p1.v - p0.v) / CELLS };
  const ey = { u: (p3.u - p0.u) / CELLS, v: (p3.v - p0.v) / CELLS };
  const det = ex.u * ey.v - ex.v * ey.u;
  const fine = SIZE * SUB;
  let img = new Float64Array(fine * fine);
  for (let j = 0; j < fine; j++)
    for (let i = 0; i < fine; i++) {
      const du = -0.5 + (i + 0.5) / SUB - p0.u;
      const dv = -0.5 + (j + 0.5) / SUB - p0.v;
      const gx = Math.floor((du * ey.v - dv * ey.u) / det);
      const gy = Math.floor((ex.u * dv - ex.v * du) / det);
      const past = gx < -1 || gy < -1 || gx > CELLS || gy > CELLS;
      const white = gx >= 0 && gy >= 0 && gx < CELLS && gy < CELLS ? pat[gy * CELLS + gx]! : 1;
      img[j * fine + i] = past ? 120 : 40 + 160 * white;
    }
  if (blur.lens) img = convolve(img, fine, fine, gaussianTaps(blur.lens, 1 / SUB));
  let pixels = new Float64Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      let s = 0;
      for (let b = 0; b < SUB; b++)
        for (let a = 0; a < SUB; a++) s += img[(y * SUB + b) * fine + x * SUB + a]!;
      pixels[y * SIZE + x] = s / (SUB * SUB);
    }
  if (blur.sensor) pixels = convolve(pixels, SIZE, SIZE, gaussianTaps(blur.sensor, 1));
  let state = seed;
  const uniform = () => ((state = (state * 1103515245 + 12345) & 0x7fffffff) + 1) / 0x80000001;
  const data = new Float32Array(SIZE * SIZE);
  for (let k = 0; k < data.length; k++)
    data[k] = pixels[k]! + 2 * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return { data, width: SIZE, height: SIZE };
}

const white: number[] = [];
for (let k = 0; k < 36; k++) if ((k * 7) % 5 < 2 || k % 11 === 0) white.push(k);
const PATTERN = markerPattern(CELLS, white);

function learn(blur: { lens?: number; sensor?: number }) {
  const estimate = new PixelResponseEstimate();
  expect(estimate.response).toBeNull();
  for (let k = 0; k < 3; k++) {
    const corners = sheetCorners(k);
    expect(estimate.observe(render(corners, PATTERN, blur, 11 + k), corners, PATTERN, CELLS)).toBe(true);
  }
  expect(estimate.settled).toBe(true);
  return estimate.response!;
}

describe('PixelResponseEstimate', () => {
  it('finds a filter applied after sampling, and its width, from sheets (box, then a sampled Gaussian σ 0.7)', () => {
    const response = learn({ sensor: 0.7 });
    expect(response.footprint).toBe('boxed');
    expect(Math.abs(response.sigmaPx - 0.7)).toBeLessThan(0.05);
  }, 60_000);

  it('finds a lens blur before sampling, and its width (a continuous Gaussian σ 0.9, then the box)', () => {
    const response = learn({ lens: 0.9 });
    expect(response.footprint).toBe('gaussian');
    expect(Math.abs(response.sigmaPx - 0.9)).toBeLessThan(0.07);
  }, 60_000);
});
