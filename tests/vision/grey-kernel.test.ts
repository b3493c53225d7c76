import { describe, expect, it } from 'vitest';
import { toGrayMat } from '../../src/vision/grey-mat.ts';
import { greyOf, rgbToGrey, SIMD_GREY } from '../../src/vision/grey-kernel.ts';
import { loadOpenCV } from '../../src/vision/opencv.ts';

function randomRgb(pixels: number, seed: number): Uint8Array {
  let state = seed >>> 0;
  return new Uint8Array(3 * pixels).map(
    () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 24,
  );
}

describe('RGB → grey kernel (cvtColor COLOR_RGB2GRAY, 16 pixels a step)', () => {
  it('compiles to WebAssembly SIMD on this Node', () => {
    expect(SIMD_GREY).toBe(true);
  });

  it('gives every one of the 16 777 216 RGB triples the grey OpenCV.js cvtColor gives it', async () => {
    const cv = await loadOpenCV();
    const pixels = 1 << 24;
    const rgb = new Uint8Array(3 * pixels);
    for (let i = 0; i < pixels; i++) {
      rgb[3 * i] = i >>> 16;
      rgb[3 * i + 1] = (i >>> 8) & 0xff;
      rgb[3 * i + 2] = i & 0xff;
    }
    const src = new cv.Mat(4096, 4096, cv.CV_8UC3);
    const reference = new cv.Mat();
    src.data.set(rgb);
    cv.cvtColor(src, reference, cv.COLOR_RGB2GRAY);
    const expected = reference.data as Uint8Array;
    const grey = new Uint8Array(pixels);
    rgbToGrey(rgb, grey);
    let wrong = 0;
    let formula = 0;
    for (let i = 0; i < pixels; i++) {
      if (grey[i] !== expected[i]) wrong++;
      if (greyOf(i >>> 16, (i >>> 8) & 0xff, i & 0xff) !== expected[i]) formula++;
    }
    src.delete();
    reference.delete();
    expect(wrong).toBe(0);
    expect(formula).toBe(0);
  });

  it('equals OpenCV.js cvtColor on random pictures of any size, and toGrayMat with it', async () => {
    const cv = await loadOpenCV();
    for (const [width, height] of [
      [1, 1],
      [5, 3],
      [17, 9],
      [640, 360],
      [333, 211],
    ] as const) {
      const data = randomRgb(width * height, width * 1000 + height);
      const src = new cv.Mat(height, width, cv.CV_8UC3);
      const reference = new cv.Mat();
      src.data.set(data);
      cv.cvtColor(src, reference, cv.COLOR_RGB2GRAY);
      const expected = Array.from(reference.data as Uint8Array);
      const mine = new Uint8Array(width * height);
      rgbToGrey(data, mine);
      expect(Array.from(mine), `${width}×${height}`).toEqual(expected);
      const plain = new Uint8Array(width * height);
      rgbToGrey(data, plain, false);
      expect(Array.from(plain), `${width}×${height}, plain loop`).toEqual(expected);
      const mat = toGrayMat(cv, { width, height, channels: 3, data });
      expect(Array.from(mat.data as Uint8Array), `${width}×${height}, toGrayMat`).toEqual(expected);
      for (const m of [src, reference, mat]) m.delete();
    }
  });

  it('refuses a grey buffer of the wrong size', () => {
    expect(() => rgbToGrey(new Uint8Array(30), new Uint8Array(11))).toThrow(/30 RGB bytes for 11 pixels/);
  });
});
