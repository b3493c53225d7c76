import type { Pixel } from '../camera/projection.ts';
import {
  fitWork,
  refine,
  refineThenPolish,
  renderAndFit,
  withParams,
  type CornerModel,
} from './align-refine.ts';
import { predictWhitenessBoxedAt } from './boxed-footprint.ts';
import { predictWhitenessGaussian } from './gaussian-footprint.ts';
import type { KeptLinearisation } from './kept-linearisation.ts';
import { pixelsAround, predictWhiteness, type Grey, type PixelSet } from './tag-footprint.ts';

export type { CornerModel } from './align-refine.ts';

/**
 * Fits a quad's four corners to the image by rendering the marker and moving the corners until
 * the rendering matches what the camera saw (Levenberg–Marquardt on the eight corner
 * coordinates plus the grey levels of black, white and the surround, level-fit.ts). The picture
 * is rendered with each pixel's footprint the Gaussian it is, through the tag's perspective
 * (gaussian-footprint.ts); the surround past the quiet zone as a plane, not one level.
 *
 * Corner detectors look for edges and corners; on a 15 mm tag at 1080p the black border is
 * 1.5 px wide, so its inner edge (and the data cells behind it) pull any edge fit off by a third
 * of a pixel or more. A rendering knows where every cell is, so all of the tag's pixels —
 * border, quiet zone and data cells — pull the corners toward the one place where the picture
 * fits: from corners 0.7 px off to 0.13 px (worst corner, p90, tests/vision/quad-align.test.ts).
 * It needs the code: the marker is read first (template-decoder.ts). Fitting before reading is
 * unsafe — corners can be pulled until a wrong code fits — and with the data cells unknown
 * (rendered mid-grey) the fit is worse than edge fitting.
 */

/**
 * Which picture of the tag a fit renders:
 * - `gaussian` measures a read tag's corners: each pixel's footprint the Gaussian it is
 *   (gaussian-footprint.ts), the surround past the quiet zone a plane (level-fit.ts);
 * - `boxed` measures them where the camera's response is each pixel's square and then a filter
 *   on the pixel grid (boxed-footprint.ts); which of the two, and the blur, are learned from the
 *   reference sheets (pixel-response.ts);
 * - `tent` is the decoder's picture (tag-footprint.ts, the surround at one level): cheaper, and
 *   what decisions between codes were tuned with. A rough frame placed to be read uses it
 *   (table-fit.ts fitFrameOnTable: on the sticker test scene the Gaussian placed 17 of 54 tags
 *   where the tent placed 20), and so does a close call between two codes fitted at their best
 *   (rival-check.ts): with the measuring picture, every code's residual is smaller, their margin
 *   is not the one the limit was set on, and blurred tiny tags were read as other codes more often
 *   (tuning scenes, blur σ 1.4, 720p 12–15 mm and 1080p 12 mm, seeds 1712–1723: 6 bases against 2).
 */
export type Footprint = 'gaussian' | 'boxed' | 'tent';

/** A measuring fit renders the surround as a plane; the decoder's picture has it at one level. */
function measuring(options: AlignOptions): boolean {
  return options.footprint !== 'tent';
}

function footprintOf(footprint: Footprint): typeof predictWhiteness {
  return footprint === 'tent'
    ? predictWhiteness
    : footprint === 'boxed'
      ? predictWhitenessBoxedAt
      : predictWhitenessGaussian;
}

export interface AlignOptions {
  /** Optical blur of the camera (Gaussian σ, px). */
  readonly blurSigmaPx: number;
  /** Pixels compared reach this far outside the black border, in cells. */
  readonly marginCells: number;
  /** Extra blur of the first, coarse pass: a smoother fit that reaches further (px). */
  readonly coarseBlurPx: number;
  readonly maxIterations: number;
  /** A corner that moves further than this from where it started is not trusted (px). */
  readonly maxShiftPx: number;
  readonly footprint: Footprint;
}

export const DEFAULT_ALIGN: AlignOptions = {
  blurSigmaPx: 0.6,
  marginCells: 0.5,
  coarseBlurPx: 0.8,
  maxIterations: 8,
  maxShiftPx: 2.5,
  footprint: 'gaussian',
};

export interface AlignedQuad {
  readonly corners: [Pixel, Pixel, Pixel, Pixel];
  /** Residual sum of squares of the final fit, and the pixels compared. */
  readonly sse: number;
  readonly pixels: number;
  /** Fitted white − black, grey levels. */
  readonly contrast: number;
}

/**
 * A marker's pattern for rendering: `cells × cells`, 1 white, 0 black, border black; the data
 * bits given as `white` indices (row-major within the data area).
 */
export function markerPattern(cells: number, white: ArrayLike<number>): Float64Array {
  const side = cells - 2;
  const pattern = new Float64Array(cells * cells);
  for (let i = 0; i < white.length; i++) {
    const k = white[i]!;
    pattern[(Math.floor(k / side) + 1) * cells + (k % side) + 1] = 1;
  }
  return pattern;
}

/**
 * Aligns a quad to the image, `pattern` from markerPattern() with the marker's code. Returns null
 * when the fit fails or runs away.
 */
export function alignQuad(
  grey: Grey,
  corners: readonly [Pixel, Pixel, Pixel, Pixel],
  pattern: Float64Array,
  cells: number,
  options: AlignOptions = DEFAULT_ALIGN,
): AlignedQuad | null {
  const pixels = pixelsAround(grey, corners, cells, options.marginCells);
  if (!pixels || pixels.count < 16) return null;
  const start = Float64Array.from(corners.flatMap((c) => [c.u, c.v]));
  let params: Float64Array = start;
  const footprint = footprintOf(options.footprint);
  if (options.coarseBlurPx > 0) {
    // A smoother picture to reach further from: its footprint's exact shape does not matter, and the tent is cheaper.
    const blur = Math.hypot(options.blurSigmaPx, options.coarseBlurPx);
    const coarse = refine(
      pixels,
      params,
      { pattern, cells, blur, footprint: predictWhiteness, plane: measuring(options) },
      options.maxIterations,
    );
    if (coarse) params = coarse.params;
  }
  const rendering = { pattern, cells, blur: options.blurSigmaPx, footprint, plane: measuring(options) };
  const fine = refineThenPolish(pixels, params, rendering, options.maxIterations);
  if (!fine) return null;
  for (let k = 0; k < 4; k++) {
    if (
      Math.hypot(fine.params[2 * k]! - start[2 * k]!, fine.params[2 * k + 1]! - start[2 * k + 1]!) >
      options.maxShiftPx
    )
      return null;
  }
  return { corners: withParams(fine.params), sse: fine.fit.sse, pixels: pixels.count, contrast: fine.fit.b };
}

export interface ModelAlignment {
  /** The model's fitted parameters and the corners they give. */
  readonly params: Float64Array;
  readonly corners: [Pixel, Pixel, Pixel, Pixel];
  /** Residual sum of squares of the fit, and of the given corners, over the same pixels. */
  readonly sse: number;
  readonly startSse: number;
  readonly pixels: number;
  /**
   * JᵀJ of the fit's parameters (row-major, parameters × parameters) at its end, the levels held
   * at their best: with the residual's variance, the parameters' covariance. Null if never formed.
   */
  readonly information: Float64Array | null;
  /** The last linearisation, to measure the same pixels again in one step (kept-linearisation.ts). */
  readonly kept: KeptLinearisation | null;
}

/**
 * Fits a corner model's parameters to the image (one fine pass at the camera's blur), over the
 * pixels around the given corners; the given corners' own residual over those pixels is returned
 * too, so a caller can ask whether the model's fewer parameters still explain the picture.
 */
export function alignWithModel(
  grey: Grey,
  corners: readonly [Pixel, Pixel, Pixel, Pixel],
  pattern: Float64Array,
  cells: number,
  model: CornerModel,
  start: Float64Array,
  options: AlignOptions = DEFAULT_ALIGN,
): ModelAlignment | null {
  const pixels = pixelsAround(grey, corners, cells, options.marginCells);
  if (!pixels || pixels.count < 16) return null;
  const given = fitWork.given.take(pixels.count);
  const givenOuter = fitWork.givenOuter.take(pixels.count);
  const givenPlane = { x: fitWork.planeX.take(pixels.count), y: fitWork.planeY.take(pixels.count) };
  const rendering = {
    pattern,
    cells,
    blur: options.blurSigmaPx,
    footprint: footprintOf(options.footprint),
    plane: measuring(options),
  };
  const givenFit = renderAndFit(pixels, corners, rendering, given, givenOuter, givenPlane);
  if (!givenFit) return null;
  const startSse = givenFit.sse;
  const fine = refineThenPolish(pixels, start, rendering, options.maxIterations, model);
  const at = fine && model.corners(fine.params);
  if (!fine || !at) return null;
  return {
    params: fine.params,
    corners: withParams(at),
    sse: fine.fit.sse,
    startSse,
    pixels: pixels.count,
    information: fine.information,
    kept: fine.kept,
  };
}

/**
 * How well a footprint at a blur explains a marker's picture at given corners, over `pixels`
 * (edgePixels): the residual sum of squares of the measuring picture (levels and surround plane
 * fitted); null where the quad is degenerate. What pixel-response.ts compares footprints by.
 */
export function measuringMisfit(
  pixels: PixelSet,
  corners: readonly [Pixel, Pixel, Pixel, Pixel],
  pattern: Float64Array,
  cells: number,
  footprint: Exclude<Footprint, 'tent'>,
  blurSigmaPx: number,
): number | null {
  const n = pixels.count;
  const plane = { x: fitWork.planeX.take(n), y: fitWork.planeY.take(n) };
  const rendering = { pattern, cells, blur: blurSigmaPx, footprint: footprintOf(footprint), plane: true };
  const fit = renderAndFit(
    pixels,
    corners,
    rendering,
    fitWork.given.take(n),
    fitWork.givenOuter.take(n),
    plane,
  );
  return fit && fit.sse;
}
