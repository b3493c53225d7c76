import type { Pixel } from '../camera/projection.ts';
import type { GreyImage } from './image.ts';
import { pixelsAround, predictWhiteness } from './tag-footprint.ts';

/**
 * How much of a reading's contrast its data cells show: the slope of the data region's pixels
 * against the code's own rendering through the camera's blur, over the contrast fitted to the
 * whole tag. A printed code's data cells are as black and as white as its border and quiet zone
 * (about 1, whatever the blur: the rendering carries it). A dark ring or a base's outline on the
 * cloth has a border and a surround but a plain middle: its share is near 0, though its frame
 * alone can give a code whose data cells are mostly white a little evidence (a 25 mm-sized
 * outline was read as id 20, 12.6 nats, in the recall benchmark's clutter set).
 * Null when it cannot be measured (too few pixels, or a code with no variation in its data).
 */
export function dataContrastShare(
  grey: GreyImage,
  corners: readonly [Pixel, Pixel, Pixel, Pixel],
  cells: number,
  pattern: Float64Array,
  blurSigmaPx: number,
  contrast: number,
): number | null {
  if (!(contrast > 0)) return null;
  // The inner data cells only (a margin of −2 cells): a thick ring's inner half can pass for the
  // outer ring of data cells, its plain middle cannot.
  const pixels = pixelsAround(grey, corners, cells, -2);
  if (!pixels || pixels.count < 8) return null;
  const rendered = new Float64Array(pixels.count);
  if (!predictWhiteness(pixels, pixels.toGrid, pattern, cells, blurSigmaPx, rendered)) return null;
  let sw = 0;
  let sv = 0;
  for (let i = 0; i < pixels.count; i++) {
    sw += rendered[i]!;
    sv += pixels.values[i]!;
  }
  const mw = sw / pixels.count;
  const mv = sv / pixels.count;
  let cov = 0;
  let varW = 0;
  for (let i = 0; i < pixels.count; i++) {
    const dw = rendered[i]! - mw;
    cov += dw * (pixels.values[i]! - mv);
    varW += dw * dw;
  }
  if (varW < 1e-6 * pixels.count) return null;
  return cov / varW / contrast;
}
