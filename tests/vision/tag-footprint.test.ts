import { describe, expect, it } from 'vitest';
import { invert3 } from '../../src/vision/homography.ts';
import {
  cellWeight,
  gridToImage,
  kernelHalfWidth,
  MAX_HALF_CELLS,
  pixelsAround,
  predictWhiteness,
  type WhitenessGradient,
} from '../../src/vision/tag-footprint.ts';

/** The tent's density (as in tag-footprint.ts), for the brute-force gradient. */
const pdf = (x: number, h: number) => (Math.abs(x) >= h ? 0 : (h - Math.abs(x)) / (h * h));

/**
 * The forward model written out plainly, every weight computed where it is used: what
 * predictWhiteness (which computes each column's weights once per pixel) must equal, to the bit.
 */
function bruteForce(
  us: Int32Array,
  vs: Int32Array,
  toGrid: readonly number[],
  pattern: Float64Array,
  cells: number,
  blur: number,
): { w: number[]; dx: number[]; dy: number[] } | null {
  const w: number[] = [];
  const dxs: number[] = [];
  const dys: number[] = [];
  for (let i = 0; i < us.length; i++) {
    const pu = us[i]!;
    const pv = vs[i]!;
    const den = toGrid[6]! * pu + toGrid[7]! * pv + toGrid[8]!;
    const gx = (toGrid[0]! * pu + toGrid[1]! * pv + toGrid[2]!) / den;
    const gy = (toGrid[3]! * pu + toGrid[4]! * pv + toGrid[5]!) / den;
    const half = kernelHalfWidth(toGrid as never, pu, pv, blur);
    if (!(half > 0 && half < MAX_HALF_CELLS)) return null;
    let sum = 0;
    let dx = 0;
    let dy = 0;
    for (let cy = Math.floor(gy - half); cy <= Math.floor(gy + half); cy++)
      for (let cx = Math.floor(gx - half); cx <= Math.floor(gx + half); cx++) {
        const ox = cellWeight(gx, half, cx);
        const oy = cellWeight(gy, half, cy);
        const value = cy >= 0 && cy < cells && cx >= 0 && cx < cells ? pattern[cy * cells + cx]! : 1;
        sum += ox * oy * value;
        dx += (pdf(cx - gx, half) - pdf(cx + 1 - gx, half)) * oy * value;
        dy += ox * (pdf(cy - gy, half) - pdf(cy + 1 - gy, half)) * value;
      }
    w.push(sum);
    dxs.push(dx);
    dys.push(dy);
  }
  return { w, dx: dxs, dy: dys };
}

describe('predictWhiteness', () => {
  it('equals the plainly written model exactly, with and without the gradient, over random quads and blurs', () => {
    let state = 12345;
    const rand = () => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state / 0x7fffffff;
    };
    const cells = 8;
    const size = 64;
    const grey = { data: new Uint8Array(size * size), width: size, height: size };
    let compared = 0;
    for (let trial = 0; trial < 40; trial++) {
      const side = 10 + 30 * rand();
      const angle = 2 * Math.PI * rand();
      const cu = 32 + 4 * (rand() - 0.5);
      const cv = 32 + 4 * (rand() - 0.5);
      // A rotated square with each corner pushed up to 15 % of the side (perspective, sloppy edges).
      const corners = [0, 1, 2, 3].map((k) => {
        const a = angle + (k * Math.PI) / 2 - (3 * Math.PI) / 4;
        return {
          u: cu + (side / Math.SQRT2) * Math.cos(a) + 0.15 * side * (rand() - 0.5),
          v: cv + (side / Math.SQRT2) * Math.sin(a) + 0.15 * side * (rand() - 0.5),
        };
      });
      const pattern = Float64Array.from({ length: cells * cells }, () => (rand() < 0.5 ? 0 : 1));
      const blur = 3 * rand();
      const pixels = pixelsAround(grey, corners, cells, 1);
      const toImage = gridToImage(corners, cells);
      const toGrid = toImage && invert3(toImage);
      expect(pixels && toGrid).toBeTruthy();
      const expected = bruteForce(pixels!.u, pixels!.v, toGrid!, pattern, cells, blur);
      const plain = new Float64Array(pixels!.count);
      const withGrad = new Float64Array(pixels!.count);
      const gradient: WhitenessGradient = {
        gradient: new Float64Array(2 * pixels!.count),
        grid: new Float64Array(2 * pixels!.count),
      };
      const ok = predictWhiteness(pixels!, toGrid!, pattern, cells, blur, plain);
      const okGrad = predictWhiteness(pixels!, toGrid!, pattern, cells, blur, withGrad, gradient);
      expect(ok).toBe(expected !== null);
      expect(okGrad).toBe(expected !== null);
      if (!expected) continue;
      compared += pixels!.count;
      expect(Array.from(plain)).toEqual(expected.w);
      expect(Array.from(withGrad)).toEqual(expected.w);
      expect(Array.from(gradient.gradient.filter((_, i) => i % 2 === 0))).toEqual(expected.dx);
      expect(Array.from(gradient.gradient.filter((_, i) => i % 2 === 1))).toEqual(expected.dy);
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
