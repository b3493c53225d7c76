import { describe, expect, it } from 'vitest';
import {
  fitLevelsWithPlane,
  fitThreeLevels,
  MIN_PLANE_WEIGHT,
  surroundColumns,
} from '../../src/vision/level-fit.ts';
import type { Mat3 } from '../../src/vision/homography.ts';
import type { PixelSet } from '../../src/vision/tag-footprint.ts';

/** A seeded set of whiteness and outer weights for n pixels laid on a 16 × 16 block. */
function columns(n: number, outerScale: number) {
  let state = 5;
  const rand = () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const u = Int32Array.from({ length: n }, (_, i) => i % 16);
  const v = Int32Array.from({ length: n }, (_, i) => Math.floor(i / 16));
  const w = Float64Array.from({ length: n }, () => rand());
  const o = Float64Array.from({ length: n }, () => outerScale * rand());
  // The grid is the pixel block scaled to 8 cells: identity up to a factor of 2.
  const toGrid = [0.5, 0, 0, 0, 0.5, 0, 0, 0, 1] as unknown as Mat3;
  const pixels: PixelSet = { u, v, values: new Float64Array(n), count: n, toGrid };
  const plane = { x: new Float64Array(n), y: new Float64Array(n) };
  surroundColumns(pixels, toGrid, 8, o, plane);
  return { pixels, w, o, plane, rand };
}

describe('fitLevelsWithPlane', () => {
  it('recovers black, contrast, surround level and its slopes across the tag exactly', () => {
    const { pixels, w, o, plane } = columns(256, 0.5);
    const [a, b, c, e, f] = [21, 190, 40, -12, 7];
    const values = Float64Array.from(
      { length: 256 },
      (_, i) => a + b * w[i]! + c * o[i]! + e * plane.x[i]! + f * plane.y[i]!,
    );
    const fit = fitLevelsWithPlane(values, w, o, plane, pixels.count);
    for (const [got, want] of [
      [fit.a, a],
      [fit.b, b],
      [fit.c, c],
      [fit.e, e],
      [fit.f, f],
    ] as const)
      expect(got).toBeCloseTo(want, 6);
    expect(fit.sse).toBeLessThan(1e-6);
    // One level cannot explain a surround that changes across the tag.
    expect(fitThreeLevels(values, w, o, pixels.count).sse).toBeGreaterThan(100);
  });

  it('writes each pixel outer weight times its grid place from the centre, in tag sides', () => {
    const { pixels, o, plane } = columns(256, 0.5);
    for (const i of [0, 17, 255]) {
      expect(plane.x[i]).toBeCloseTo((o[i]! * (pixels.u[i]! / 2 - 4)) / 8, 12);
      expect(plane.y[i]).toBeCloseTo((o[i]! * (pixels.v[i]! / 2 - 4)) / 8, 12);
    }
  });

  it('fits three levels when too little of the surround is seen for a plane', () => {
    const n = 256;
    const scale = (0.9 * MIN_PLANE_WEIGHT) / (n / 2); // about 0.9 of the weight a plane needs
    const { pixels, w, o, plane, rand } = columns(n, scale);
    const values = Float64Array.from({ length: n }, (_, i) => 20 + 180 * w[i]! + 3 * (rand() - 0.5));
    const fit = fitLevelsWithPlane(values, w, o, plane, pixels.count);
    const three = fitThreeLevels(values, w, o, pixels.count);
    expect(fit).toEqual(three);
    expect(fit.e).toBe(0);
    expect(fit.f).toBe(0);
  });
});
