import { describe, expect, it } from 'vitest';
import { GreyMatConverter, toGrayMat } from '../../src/vision/grey-mat.ts';
import type { RasterImage } from '../../src/vision/image.ts';
import { loadOpenCV } from '../../src/vision/opencv.ts';

/** A seeded random picture. */
function picture(width: number, height: number, channels: 1 | 3 | 4, seed: number): RasterImage {
  let state = seed;
  const data = Uint8Array.from({ length: width * height * channels }, () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state >> 23;
  });
  return { width, height, channels, data };
}

describe('GreyMatConverter', () => {
  it('gives the grey toGrayMat gives, frame after frame, through changes of size and channels', async () => {
    const cv = await loadOpenCV();
    const converter = new GreyMatConverter(cv);
    const frames = [
      picture(64, 48, 3, 1),
      picture(64, 48, 3, 2),
      picture(64, 48, 4, 3),
      picture(32, 40, 3, 4),
      picture(32, 40, 1, 5),
      picture(64, 48, 3, 6),
    ];
    for (const frame of frames) {
      const expected = toGrayMat(cv, frame);
      const got = converter.convert(frame);
      expect([got.rows, got.cols]).toEqual([frame.height, frame.width]);
      expect(Array.from(got.data as Uint8Array)).toEqual(Array.from(expected.data as Uint8Array));
      expected.delete();
    }
    converter.dispose();
  });
});
