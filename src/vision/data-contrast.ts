import type { Pixel } from '../camera/projection.ts';
import type { GreyImage } from './image.ts';
import { fitLevels } from './level-fit.ts';
import { pixelsAround, predictWhiteness } from './tag-footprint.ts';

/**
 * How much of a reading's contrast its data cells show: the slope of the data region's pixels
 * against the code's own rendering through the camera's blur, over the contrast fitted to the
 * whole tag. A printed code's data cells are as black and as white as its border and quiet zone
 * (about 1, whatever the blur: the rendering carries it). A dark ring or a base's outline on the
 * cloth has a border and a surround but a plain middle: its share is near 0, though its frame
 * alone can give a code whose data cells are mostly white a little evidence (a 25 mm-sized
 * outline was read as id 20, 12.6 nats, in the recall benchmark's clutter set).
 * Null when it cannot be measured (too few pixels, or a code whose inner cells are all one colour).
 */
export function dataContrastShare(
  grey: GreyImage,
  corners: readonly [Pixel, Pixel, Pixel, Pixel],
  cells: number,
  pattern: Float64Array,
  blurSigmaPx: number,
  contrast: number,
): number | null {
  if (!(contrast > 0) || innerCellsUniform(pattern, cells)) return null;
  // The inner data cells only (a margin of −2 cells): a thick ring's inner half can pass for the
  // outer ring of data cells, its plain middle cannot.
  const pixels = pixelsAround(grey, corners, cells, -2);
  if (!pixels || pixels.count < 8) return null;
  const rendered = new Float64Array(pixels.count);
  if (!predictWhiteness(pixels, pixels.toGrid, pattern, cells, blurSigmaPx, rendered)) return null;
  return fitLevels(pixels.values, rendered, pixels.count).b / contrast;
}

/** Whether a code's inner cells (two in from each edge) are all one colour: nothing to compare. */
function innerCellsUniform(pattern: Float64Array, cells: number): boolean {
  const first = pattern[2 * cells + 2];
  for (let r = 2; r < cells - 2; r++)
    for (let c = 2; c < cells - 2; c++) if (pattern[r * cells + c] !== first) return false;
  return true;
}
