import { blockMeans, medianOf } from './change-map.ts';
import { clampRect, type Rect } from './mosaic.ts';

export interface DimRegionOptions {
  /** Side of the blocks whose brightness is compared, px. */
  readonly blockPx: number;
  /** A block darker than this share of the median block is dim. */
  readonly dimShare: number;
}

export const DEFAULT_DIM_REGIONS: DimRegionOptions = { blockPx: 32, dimShare: 0.75 };

/**
 * The parts of a frame lit far less than the rest: a shadow, the dark side of a lamp's spot, a
 * vignetted corner. OpenCV's threshold takes a pixel as dark when it is a fixed number of grey
 * levels below its neighbourhood's mean; where the light is a half of elsewhere, so is a tag's
 * contrast, and a small tag's one-cell border is lost. These regions are searched again with a
 * smaller constant (pipeline.ts), which over the whole frame would break noisy cloth into
 * contours. Each run of dim blocks in a row of blocks is one region, widened by `marginPx` so a
 * tag on its edge is whole in it.
 */
export function dimRegions(
  grey: { data: ArrayLike<number>; width: number; height: number },
  marginPx: number,
  options: DimRegionOptions = DEFAULT_DIM_REGIONS,
): Rect[] {
  const b = options.blockPx;
  const cols = Math.floor(grey.width / b);
  const rows = Math.floor(grey.height / b);
  if (cols === 0 || rows === 0) return [];
  const means = blockMeans(grey, b, cols, rows);
  const limit = options.dimShare * medianOf(means);
  const regions: Rect[] = [];
  for (let r = 0; r < rows; r++) {
    let c = 0;
    while (c < cols) {
      if (means[r * cols + c]! >= limit) {
        c++;
        continue;
      }
      const start = c;
      while (c < cols && means[r * cols + c]! < limit) c++;
      const rect = clampRect(
        {
          x0: start * b - marginPx,
          y0: r * b - marginPx,
          w: (c - start) * b + 2 * marginPx,
          h: b + 2 * marginPx,
        },
        grey.width,
        grey.height,
      );
      if (rect) regions.push(rect);
    }
  }
  return regions;
}
