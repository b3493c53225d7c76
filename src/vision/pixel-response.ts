import type { Pixel } from '../camera/projection.ts';
import type { GreyImage } from './image.ts';
import { DEFAULT_ALIGN, measuringMisfit } from './quad-align.ts';
import { pixelsAround, type PixelSet } from './tag-footprint.ts';

/**
 * The camera's pixel response, learned from the reference sheets: the picture a measuring fit
 * renders a tag with (quad-align.ts).
 *
 * A tag of 12–20 mm at 720p or 1080p has cells of one or two pixels, so the exact shape of a
 * pixel's response turns its measured heading: the same tag keeps the same signed error frame
 * after frame, which no averaging removes (docs/recall.md, "Why a small tag's heading does not
 * average away"). Two shapes are tried, and the one that explains the sheets' long straight edges
 * best is used, with its blur:
 * - `gaussian`: each pixel sees the ink through one Gaussian of σ² + 1/12 px² (a lens blur wider
 *   than the pixel, the pixel's square folded into it);
 * - `boxed`: each pixel integrates the ink over its own square, and the sensor then filters the
 *   pixels with a sampled Gaussian of σ on the pixel grid (a filter applied after sampling:
 *   demosaicing, sharpening, a rendering pipeline).
 * The sheets are large and read from the first frame, so their edges hold thousands of pixels
 * that tell the two apart; the estimate stands once `minSheets` readings were seen.
 */

export type MeasuringFootprint = 'gaussian' | 'boxed';

export interface PixelResponse {
  readonly footprint: MeasuringFootprint;
  readonly sigmaPx: number;
}

/** Blurs tried, px: the ladder the best of each shape is interpolated on. */
const LADDER = [0.3, 0.4, 0.5, 0.6, 0.7, 0.85, 1.0, 1.2, 1.4, 1.7, 2.0, 2.4];
const SHAPES: readonly MeasuringFootprint[] = ['gaussian', 'boxed'];
/** Only pixels this close to the sheet's outline are compared (edgePixels). */
const EDGE_REACH_PX = 3;

export interface PixelResponseOptions {
  /** Sheet readings before the estimate is used. */
  readonly minSheets: number;
}

export const DEFAULT_PIXEL_RESPONSE: PixelResponseOptions = { minSheets: 3 };

export class PixelResponseEstimate {
  /** Per shape, per rung: summed log mean misfit over the sheets seen. */
  private readonly scores = SHAPES.map(() => new Float64Array(LADDER.length));
  private sheets = 0;

  constructor(readonly options: PixelResponseOptions = DEFAULT_PIXEL_RESPONSE) {}

  get sheetCount(): number {
    return this.sheets;
  }

  /** Whether enough sheets were seen (the response no longer changes). */
  get settled(): boolean {
    return this.sheets >= this.options.minSheets;
  }

  /** The response learned, or null before enough sheets were seen. */
  get response(): PixelResponse | null {
    if (!this.settled) return null;
    let best: PixelResponse | null = null;
    let bestScore = Infinity;
    SHAPES.forEach((footprint, s) => {
      const { sigmaPx, score } = minimumOf(this.scores[s]!);
      if (score < bestScore) {
        bestScore = score;
        best = { footprint, sigmaPx };
      }
    });
    return best;
  }

  /**
   * Adds one reference sheet's picture at its measured corners (marker order), `pattern` its code
   * (quad-align.ts markerPattern). Returns false when a shape could not render it.
   */
  observe(
    grey: GreyImage,
    corners: readonly [Pixel, Pixel, Pixel, Pixel],
    pattern: Float64Array,
    cells: number,
  ): boolean {
    const pixels = edgePixels(grey, corners, cells, EDGE_REACH_PX);
    if (!pixels) return false;
    const misfits = SHAPES.map((shape) =>
      LADDER.map((sigma) => measuringMisfit(pixels, corners, pattern, cells, shape, sigma)),
    );
    if (misfits.some((row) => row.some((m) => m === null))) return false;
    misfits.forEach((row, s) =>
      row.forEach((m, i) => {
        this.scores[s]![i]! += Math.log(Math.max(1e-9, m! / pixels.count));
      }),
    );
    this.sheets++;
    return true;
  }
}

/** The ladder's lowest score, interpolated by a parabola through it and its neighbours. */
function minimumOf(scores: Float64Array): { sigmaPx: number; score: number } {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! < scores[best]!) best = i;
  if (best === 0 || best === scores.length - 1) return { sigmaPx: LADDER[best]!, score: scores[best]! };
  const [a, b, c] = [scores[best - 1]!, scores[best]!, scores[best + 1]!];
  const lo = LADDER[best - 1]!;
  const mid = LADDER[best]!;
  const hi = LADDER[best + 1]!;
  // The parabola through three unevenly spaced rungs (Newton's form): a + d1·(x − lo) + k·(x − lo)(x − mid).
  const d1 = (b - a) / (mid - lo);
  const d2 = (c - b) / (hi - mid);
  const k = (d2 - d1) / (hi - lo);
  if (!(k > 0)) return { sigmaPx: mid, score: b };
  const sigmaPx = Math.min(hi, Math.max(lo, (lo + mid) / 2 - d1 / (2 * k)));
  const score = a + d1 * (sigmaPx - lo) + k * (sigmaPx - lo) * (sigmaPx - mid);
  return { sigmaPx, score };
}

/**
 * The pixels within `px` of the marker's outline (its black border against the white quiet zone),
 * or null when too few. Only edges tell the shapes apart; the outline's four long straight edges
 * hold enough of them, at every phase against the pixel grid (a sheet is never quite square to
 * the camera), and a sheet's inner cells would triple the cost for the same answer.
 */
function edgePixels(
  grey: GreyImage,
  corners: readonly [Pixel, Pixel, Pixel, Pixel],
  cells: number,
  px: number,
): PixelSet | null {
  const pixels = pixelsAround(grey, corners, cells, DEFAULT_ALIGN.marginCells);
  if (!pixels) return null;
  const side =
    (Math.hypot(corners[1].u - corners[0].u, corners[1].v - corners[0].v) +
      Math.hypot(corners[2].u - corners[1].u, corners[2].v - corners[1].v)) /
    2;
  const reach = (px * cells) / side;
  const near = (g: number, line: number) => Math.abs(g - line) < reach;
  const along = (g: number) => g > -reach && g < cells + reach;
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = pixels.toGrid;
  const keep: number[] = [];
  for (let i = 0; i < pixels.count; i++) {
    const u = pixels.u[i]!;
    const v = pixels.v[i]!;
    const w = h6 * u + h7 * v + h8;
    const gx = (h0 * u + h1 * v + h2) / w;
    const gy = (h3 * u + h4 * v + h5) / w;
    if (((near(gx, 0) || near(gx, cells)) && along(gy)) || ((near(gy, 0) || near(gy, cells)) && along(gx)))
      keep.push(i);
  }
  if (keep.length < 16) return null;
  return {
    u: Int32Array.from(keep, (i) => pixels.u[i]!),
    v: Int32Array.from(keep, (i) => pixels.v[i]!),
    values: Float64Array.from(keep, (i) => pixels.values[i]!),
    count: keep.length,
    toGrid: pixels.toGrid,
  };
}
