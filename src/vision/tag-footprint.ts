import type { Pixel } from '../camera/projection.ts';
import { homographyFrom, invert3, type Mat3 } from './homography.ts';
import type { GreyImage } from './image.ts';
import { WorkArray } from './work-array.ts';

/**
 * How a square marker looks through the camera, pixel by pixel: the decoder's forward model
 * (which code is this?), and the aligner's where it only places a rough frame or takes a coarse
 * first step. Where the aligner measures a read tag's corners it renders the footprint as the
 * Gaussian it is, seen through the tag's perspective (gaussian-footprint.ts): the tent below
 * turns small tilted tags by a degree and more.
 *
 * A marker is a grid of `cells × cells` cells (the one-cell black border included) with a cell
 * of white paper round it, and past that whatever the base top is (OuterWeights). A pixel sees a small blurred patch of that grid: the lens blur and the
 * pixel's own square together, modelled as a separable tent (triangle) kernel of the same
 * variance (half-width √6·σ) in grid coordinates, scaled by the local magnification of the
 * quad's homography. The pixel's expected whiteness is the kernel's weight on the white cells.
 * A tent, unlike a box, never turns fine detail negative (its spectrum is sinc², not sinc), so it
 * still matches a Gaussian lens blur wider than a cell. Its weights are smooth in the quad's
 * corners, which is what the aligner's gradient needs.
 */

export type Grey = GreyImage;

/** Grid coordinates: corner 0 at (0, 0), 1 at (cells, 0), 2 at (cells, cells), 3 at (0, cells); x = column. */
export function gridToImage(corners: readonly Pixel[], cells: number): Mat3 | null {
  return homographyFrom(
    [
      { x: 0, y: 0 },
      { x: cells, y: 0 },
      { x: cells, y: cells },
      { x: 0, y: cells },
    ],
    corners,
  );
}

/** The pixels compared for a quad: every pixel whose centre maps within `marginCells` of the grid. */
export interface PixelSet {
  readonly u: Int32Array;
  readonly v: Int32Array;
  readonly values: Float64Array;
  readonly count: number;
  /** Image pixel → grid coordinates (cells) of the quad the set was gathered for. */
  readonly toGrid: Mat3;
}

/** pixelsAround's whole-box arrays, reused (the set it returns is trimmed copies of its own). */
const boxWork = {
  u: new WorkArray(Int32Array),
  v: new WorkArray(Int32Array),
  values: new WorkArray(Float64Array),
};

export function pixelsAround(
  grey: Grey,
  corners: readonly Pixel[],
  cells: number,
  marginCells: number,
): PixelSet | null {
  const toImage = gridToImage(corners, cells);
  const toGrid = toImage && invert3(toImage);
  if (!toGrid) return null;
  let u0 = Infinity;
  let v0 = Infinity;
  let u1 = -Infinity;
  let v1 = -Infinity;
  for (const c of corners) {
    u0 = Math.min(u0, c.u);
    v0 = Math.min(v0, c.v);
    u1 = Math.max(u1, c.u);
    v1 = Math.max(v1, c.v);
  }
  const pad = Math.ceil(((u1 - u0 + v1 - v0) / 2 / cells) * marginCells) + 1;
  const xa = Math.max(0, Math.floor(u0) - pad);
  const xb = Math.min(grey.width - 1, Math.ceil(u1) + pad);
  const ya = Math.max(0, Math.floor(v0) - pad);
  const yb = Math.min(grey.height - 1, Math.ceil(v1) + pad);
  if (!(xa < xb && ya < yb) || (xb - xa) * (yb - ya) > 250_000) return null;
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = toGrid;
  // Sized for the whole box, trimmed after: no growing arrays and no copies out of them.
  const box = (xb - xa + 1) * (yb - ya + 1);
  const us = boxWork.u.take(box);
  const vs = boxWork.v.take(box);
  const values = boxWork.values.take(box);
  const data = grey.data;
  const width = grey.width;
  let count = 0;
  for (let pv = ya; pv <= yb; pv++) {
    for (let pu = xa; pu <= xb; pu++) {
      const w = h6 * pu + h7 * pv + h8;
      const gx = (h0 * pu + h1 * pv + h2) / w;
      const gy = (h3 * pu + h4 * pv + h5) / w;
      if (gx < -marginCells || gy < -marginCells || gx > cells + marginCells || gy > cells + marginCells)
        continue;
      us[count] = pu;
      vs[count] = pv;
      values[count] = data[pv * width + pu]!;
      count++;
    }
  }
  return {
    u: us.slice(0, count),
    v: vs.slice(0, count),
    values: values.slice(0, count),
    count,
    toGrid,
  };
}

/** Half-width, in grid units, of the tent that stands for a pixel's blurred footprint. */
export function kernelHalfWidth(toGrid: Mat3, pu: number, pv: number, blurSigmaPx: number): number {
  const [h0, h1, , h3, h4, , h6, h7, h8] = toGrid;
  const w = h6 * pu + h7 * pv + h8;
  const gx = (h0 * pu + h1 * pv + toGrid[2]) / w;
  const gy = (h3 * pu + h4 * pv + toGrid[5]) / w;
  const det = Math.abs(((h0 - gx * h6) * (h4 - gy * h7) - (h1 - gx * h7) * (h3 - gy * h6)) / (w * w));
  const sigma = Math.sqrt(blurSigmaPx * blurSigmaPx + 1 / 12);
  return Math.sqrt(6) * sigma * Math.sqrt(det);
}

/**
 * A pixel's kernel wider than this many cells means the quad is degenerate (a corner thrown
 * across the tag): the model stops there instead of summing over thousands of cells.
 */
export const MAX_HALF_CELLS = 6;

/** The tent's cumulative weight up to x (tent centred on 0, half-width h). */
function tentCdf(x: number, h: number): number {
  if (x <= -h) return 0;
  if (x >= h) return 1;
  const t = (x + h) / h;
  return x <= 0 ? 0.5 * t * t : 1 - 0.5 * (2 - t) * (2 - t);
}

/** The tent's density at x (centred on 0, half-width h). */
function tentPdf(x: number, h: number): number {
  const a = Math.abs(x);
  return a >= h ? 0 : (h - a) / (h * h);
}

/** Weight of cell [c, c + 1] under a tent of half-width h centred on g. */
export function cellWeight(g: number, h: number, c: number): number {
  return tentCdf(c + 1 - g, h) - tentCdf(c - g, h);
}

/** One pixel's column weights and their slopes (a kernel spans at most 2·MAX_HALF_CELLS + 1 cells). */
const columnWeight = new Float64Array(2 * MAX_HALF_CELLS + 2);
const columnSlope = new Float64Array(2 * MAX_HALF_CELLS + 2);

/**
 * Each pixel's weight on what lies past the one-cell quiet zone (a base top, the cloth), whose
 * level a caller fits apart from the paper's, and with a gradient, its gradient in grid
 * coordinates (two per pixel).
 */
export interface OuterWeights {
  readonly weight: Float64Array;
  readonly gradient: Float64Array | null;
}

/**
 * The surround past the quiet zone gets a level of its own only when the pixels' weight on it adds
 * up to at least this many pixels' worth: a sharp tag's pixels barely reach past the paper, and a
 * level fitted to a few pixels' faint tails is a dummy that wipes out their residuals (and, in the
 * corner fit, a huge level times a tiny gradient). Below it the paper is taken to reach everywhere.
 */
export const MIN_OUTER_WEIGHT = 1;

/** Each pixel's whiteness gradient in grid coordinates and its grid position, two per pixel. */
export interface WhitenessGradient {
  readonly gradient: Float64Array;
  readonly grid: Float64Array;
}

/**
 * Expected whiteness of every pixel for one complete pattern (`cells × cells`, row-major,
 * 1 = white; the border included), written into `out` — the aligner's inner loop. With
 * `withGradient`, also each pixel's ∂w/∂gx, ∂w/∂gy (the kernel's width held fixed) and its grid
 * position, what the aligner's analytic Jacobian needs. With `outer`, what lies past the one-cell
 * quiet zone is not counted as white but weighed apart (OuterWeights); without it, the paper is
 * taken to reach everywhere. Returns false where the quad is degenerate.
 */
export function predictWhiteness(
  pixels: PixelSet,
  toGrid: Mat3,
  pattern: Float64Array,
  cells: number,
  blurSigmaPx: number,
  out: Float64Array,
  withGradient: WhitenessGradient | null = null,
  outer: OuterWeights | null = null,
): boolean {
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = toGrid;
  // kernelHalfWidth, with its constant factor taken out of the loop (same operations, same values).
  const scale = Math.sqrt(6) * Math.sqrt(blurSigmaPx * blurSigmaPx + 1 / 12);
  for (let i = 0; i < pixels.count; i++) {
    const pu = pixels.u[i]!;
    const pv = pixels.v[i]!;
    const w = h6 * pu + h7 * pv + h8;
    const gx = (h0 * pu + h1 * pv + h2) / w;
    const gy = (h3 * pu + h4 * pv + h5) / w;
    const det = Math.abs(((h0 - gx * h6) * (h4 - gy * h7) - (h1 - gx * h7) * (h3 - gy * h6)) / (w * w));
    const half = scale * Math.sqrt(det);
    if (!(half > 0 && half < MAX_HALF_CELLS) || !Number.isFinite(gx + gy)) return false;
    // The column weights (and their derivatives) are the same on every row of the kernel: once each.
    const cx0 = Math.floor(gx - half);
    const columns = Math.floor(gx + half) - cx0 + 1;
    for (let k = 0; k < columns; k++) {
      const cx = cx0 + k;
      columnWeight[k] = cellWeight(gx, half, cx);
      if (withGradient) columnSlope[k] = tentPdf(cx - gx, half) - tentPdf(cx + 1 - gx, half);
    }
    let sum = 0;
    let dx = 0;
    let dy = 0;
    let outerSum = 0;
    let odx = 0;
    let ody = 0;
    for (let cy = Math.floor(gy - half); cy <= Math.floor(gy + half); cy++) {
      const oy = cellWeight(gy, half, cy);
      // d/dg of F(c + 1 − g) − F(c − g) is −pdf(c + 1 − g) + pdf(c − g).
      const doy = withGradient ? tentPdf(cy - gy, half) - tentPdf(cy + 1 - gy, half) : 0;
      const inside = cy >= 0 && cy < cells;
      const rowPastQuiet = cy < -1 || cy > cells;
      for (let k = 0; k < columns; k++) {
        const cx = cx0 + k;
        const ox = columnWeight[k]!;
        if (outer && (rowPastQuiet || cx < -1 || cx > cells)) {
          outerSum += ox * oy;
          if (withGradient) {
            odx += columnSlope[k]! * oy;
            ody += ox * doy;
          }
          continue;
        }
        const value = inside && cx >= 0 && cx < cells ? pattern[cy * cells + cx]! : 1;
        sum += ox * oy * value;
        if (withGradient) {
          dx += columnSlope[k]! * oy * value;
          dy += ox * doy * value;
        }
      }
    }
    writePixel(i, out, withGradient, outer, sum, dx, dy, gx, gy, outerSum, odx, ody);
  }
  return true;
}

/**
 * Writes pixel i's outputs of a footprint model (predictWhiteness here, gaussian-footprint.ts):
 * its whiteness, with a gradient its gradient and grid place, with outer weights its weight past
 * the quiet zone and that weight's gradient.
 */
export function writePixel(
  i: number,
  out: Float64Array,
  withGradient: WhitenessGradient | null,
  outer: OuterWeights | null,
  sum: number,
  dx: number,
  dy: number,
  gx: number,
  gy: number,
  outerSum: number,
  odx: number,
  ody: number,
): void {
  out[i] = sum;
  if (outer) {
    outer.weight[i] = outerSum;
    if (outer.gradient) {
      outer.gradient[2 * i] = odx;
      outer.gradient[2 * i + 1] = ody;
    }
  }
  if (withGradient) {
    withGradient.gradient[2 * i] = dx;
    withGradient.gradient[2 * i + 1] = dy;
    withGradient.grid[2 * i] = gx;
    withGradient.grid[2 * i + 1] = gy;
  }
}
