import type { Mat3 } from './homography.ts';
import { MIN_OUTER_WEIGHT, type PixelSet } from './tag-footprint.ts';
import { solveSpd } from './solve-spd.ts';
import { WorkArray } from './work-array.ts';

/**
 * The grey levels of a rendered marker, by least squares against the pixels: black `a`, white − black
 * `b`, and what lies past the one-cell quiet zone (a base top, its edge, the cloth): level `c` over
 * black, and with a surround plane, `e` and `f` per tag side along the grid's x and y.
 *
 * Why a plane: past the quiet zone a tag's surround is not one level. The sticker reaches further on
 * one side than another, a base's edge and its wall show on the camera's side of it. Under a lens
 * blur of about a cell, each pixel near the border sees some of it, and a single level leaves the
 * difference in the residual on one side and not the other, which the fit answers by moving and
 * turning the tag. Noise-free renders, truth corners, 15 mm tags at 1080p tilted 15°, blur σ 1.4:
 * misfit 2.7 grey levels² a pixel with one level, 1.0 with a plane.
 */

export interface Fit {
  sse: number;
  a: number;
  b: number;
  /** Level of what lies past the quiet zone, over black (0 when nothing past it is seen). */
  c: number;
  /** The surround's change across the tag along grid x and y (grey levels per tag side; 0 without a plane). */
  e: number;
  f: number;
}

/**
 * Each pixel's outer weight times its grid position from the tag's centre, in tag sides: the
 * surround plane's two columns.
 */
export interface SurroundColumns {
  readonly x: Float64Array;
  readonly y: Float64Array;
}

/**
 * The plane needs at least this many pixels' worth of outer weight (MIN_OUTER_WEIGHT gives a
 * level of its own; a plane has two more unknowns and is fitted to the same faint tails).
 */
export const MIN_PLANE_WEIGHT = 4 * MIN_OUTER_WEIGHT;

/** Writes the surround plane's columns for the pixels, through `toGrid` of the quad being rendered. */
export function surroundColumns(
  pixels: PixelSet,
  toGrid: Mat3,
  cells: number,
  o: Float64Array,
  out: SurroundColumns,
): void {
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = toGrid;
  const half = cells / 2;
  for (let i = 0; i < pixels.count; i++) {
    const pu = pixels.u[i]!;
    const pv = pixels.v[i]!;
    const w = h6 * pu + h7 * pv + h8;
    out.x[i] = (o[i]! * ((h0 * pu + h1 * pv + h2) / w - half)) / cells;
    out.y[i] = (o[i]! * ((h3 * pu + h4 * pv + h5) / w - half)) / cells;
  }
}

/** Least-squares a + b·w against the pixel values. */
export function fitLevels(values: Float64Array, w: Float64Array, n: number): Fit {
  let sw = 0;
  let si = 0;
  let sww = 0;
  let swi = 0;
  let sii = 0;
  for (let i = 0; i < n; i++) {
    const x = w[i]!;
    const y = values[i]!;
    sw += x;
    si += y;
    sww += x * x;
    swi += x * y;
    sii += y * y;
  }
  const varW = sww - (sw * sw) / n;
  const sst = sii - (si * si) / n;
  if (varW <= 1e-12) return { sse: sst, a: si / n, b: 0, c: 0, e: 0, f: 0 };
  const b = (swi - (sw * si) / n) / varW;
  const a = (si - b * sw) / n;
  return { sse: Math.max(0, sst - b * (swi - (sw * si) / n)), a, b, c: 0, e: 0, f: 0 };
}

/** Least-squares a + b·(w + o): paper everywhere past the border, the surround at the white level (c = b). */
function paperLevels(values: Float64Array, w: Float64Array, o: Float64Array, n: number): Fit {
  const paper = work.paper.take(n);
  for (let i = 0; i < n; i++) paper[i] = w[i]! + o[i]!;
  const fit = fitLevels(values, paper, n);
  return { ...fit, c: fit.b };
}

/**
 * Least-squares a + b·w + c·o against the pixel values: o is each pixel's weight on what lies
 * past the quiet zone (OuterWeights), at a level of its own. Two levels when no pixel sees it.
 */
export function fitThreeLevels(values: Float64Array, w: Float64Array, o: Float64Array, n: number): Fit {
  let sw = 0;
  let so = 0;
  let si = 0;
  let sww = 0;
  let soo = 0;
  let swo = 0;
  let swi = 0;
  let soi = 0;
  let sii = 0;
  for (let i = 0; i < n; i++) {
    const x = w[i]!;
    const z = o[i]!;
    const y = values[i]!;
    sw += x;
    so += z;
    si += y;
    sww += x * x;
    soo += z * z;
    swo += x * z;
    swi += x * y;
    soi += z * y;
    sii += y * y;
  }
  const varW = sww - (sw * sw) / n;
  const varO = soo - (so * so) / n;
  const covWO = swo - (sw * so) / n;
  const det = varW * varO - covWO * covWO;
  if (so < MIN_OUTER_WEIGHT || det <= 1e-9 * varW * varO) return paperLevels(values, w, o, n);
  const sst = sii - (si * si) / n;
  const covW = swi - (sw * si) / n;
  const covO = soi - (so * si) / n;
  const b = (varO * covW - covWO * covO) / det;
  const c = (varW * covO - covWO * covW) / det;
  const a = (si - b * sw - c * so) / n;
  return { sse: Math.max(0, sst - b * covW - c * covO), a, b, c, e: 0, f: 0 };
}

/**
 * Least-squares a + b·w + c·o + e·ox + f·oy (ox, oy: surroundColumns): the surround as a plane.
 * Three levels (fitThreeLevels) when too little of the surround is seen for a plane or its
 * columns are degenerate.
 */
export function fitLevelsWithPlane(
  values: Float64Array,
  w: Float64Array,
  o: Float64Array,
  plane: SurroundColumns,
  n: number,
): Fit {
  let so = 0;
  for (let i = 0; i < n; i++) so += o[i]!;
  if (so < MIN_PLANE_WEIGHT) return fitThreeLevels(values, w, o, n);
  // Normal equations over the columns 1, w, o, ox, oy (5 × 5, upper triangle summed, then mirrored).
  const m = work.normal.take(25);
  const r = work.rhs.take(5);
  const row = work.row.take(5);
  let sii = 0;
  for (let i = 0; i < n; i++) {
    row[0] = 1;
    row[1] = w[i]!;
    row[2] = o[i]!;
    row[3] = plane.x[i]!;
    row[4] = plane.y[i]!;
    const y = values[i]!;
    sii += y * y;
    for (let j = 0; j < 5; j++) {
      const rj = row[j]!;
      r[j]! += rj * y;
      for (let k = j; k < 5; k++) m[j * 5 + k]! += rj * row[k]!;
    }
  }
  for (let j = 0; j < 5; j++) for (let k = 0; k < j; k++) m[j * 5 + k] = m[k * 5 + j]!;
  const x = solveSpd(m, r, 5);
  if (!x) return fitThreeLevels(values, w, o, n);
  // sse = Σy² − xᵀ·(Aᵀy) at the least-squares solution.
  let explained = 0;
  for (let j = 0; j < 5; j++) explained += x[j]! * r[j]!;
  return { sse: Math.max(0, sii - explained), a: x[0]!, b: x[1]!, c: x[2]!, e: x[3]!, f: x[4]! };
}

const work = {
  paper: new WorkArray(Float64Array),
  normal: new WorkArray(Float64Array),
  rhs: new WorkArray(Float64Array),
  row: new WorkArray(Float64Array),
};
