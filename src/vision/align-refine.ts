import type { Pixel } from '../camera/projection.ts';
import { invert3, type Mat3 } from './homography.ts';
import type { KeptLinearisation } from './kept-linearisation.ts';
import {
  fitLevelsWithPlane,
  fitThreeLevels,
  surroundColumns,
  type Fit,
  type SurroundColumns,
} from './level-fit.ts';
import { solveSpd } from './solve-spd.ts';
import { gridToImage, predictWhiteness, type PixelSet } from './tag-footprint.ts';
import { WorkArray } from './work-array.ts';

/**
 * The Levenberg–Marquardt engine of a measuring fit (quad-align.ts): the marker rendered through
 * its corners, its levels fitted, and its corners (or a model's parameters) moved with an
 * analytic Jacobian until the rendering matches the picture. quad-align.ts chooses what to
 * render and from where; this file moves the corners.
 */

/** What a fit renders: the pattern, its cells, the blur and the footprint's model. */
export interface Rendering {
  readonly pattern: Float64Array;
  readonly cells: number;
  readonly blur: number;
  readonly footprint: typeof predictWhiteness;
  /** The surround past the quiet zone as a plane (level-fit.ts), or as one level. */
  readonly plane: boolean;
}

/**
 * Renders the marker through `corners` into `w` (whiteness) and `o` (weight past the quiet zone)
 * and fits its levels, the surround as a plane (level-fit.ts, its columns written into `plane`);
 * null where the quad is degenerate.
 */
export function renderAndFit(
  pixels: PixelSet,
  corners: readonly Pixel[],
  r: Rendering,
  w: Float64Array,
  o: Float64Array,
  plane: SurroundColumns,
): Fit | null {
  const toImage = gridToImage(corners, r.cells);
  const toGrid = toImage && invert3(toImage);
  if (
    !toGrid ||
    !r.footprint(pixels, toGrid, r.pattern, r.cells, r.blur, w, null, { weight: o, gradient: null })
  )
    return null;
  if (!r.plane) return fitThreeLevels(pixels.values, w, o, pixels.count);
  surroundColumns(pixels, toGrid, r.cells, o, plane);
  return fitLevelsWithPlane(pixels.values, w, o, plane, pixels.count);
}

export function withParams(params: Float64Array): [Pixel, Pixel, Pixel, Pixel] {
  return [
    { u: params[0]!, v: params[1]! },
    { u: params[2]!, v: params[3]! },
    { u: params[4]!, v: params[5]! },
    { u: params[6]!, v: params[7]! },
  ];
}

/**
 * refine's work arrays, reused (refine is never re-entered; alignQuad runs it twice in turn):
 * per-pixel arrays made fresh for every run were most of the vision worker's garbage.
 */
export const fitWork = {
  w: new WorkArray(Float64Array),
  wStep: new WorkArray(Float64Array),
  o: new WorkArray(Float64Array),
  oStep: new WorkArray(Float64Array),
  oGradient: new WorkArray(Float64Array),
  given: new WorkArray(Float64Array),
  givenOuter: new WorkArray(Float64Array),
  jac: new WorkArray(Float64Array),
  gradient: new WorkArray(Float64Array),
  grid: new WorkArray(Float64Array),
  planeX: new WorkArray(Float64Array),
  planeY: new WorkArray(Float64Array),
  planeXStep: new WorkArray(Float64Array),
  planeYStep: new WorkArray(Float64Array),
  jtj: new WorkArray(Float64Array),
  jtr: new WorkArray(Float64Array),
  damped: new WorkArray(Float64Array),
  perCorner: new WorkArray(Float64Array),
};

/** ∂corners/∂params (8 × k, row-major) by forward differences of the model; null if it fails. */
function modelJacobian(model: CornerModel, params: Float64Array, at: Float64Array): Float64Array | null {
  const k = model.steps.length;
  const out = new Float64Array(8 * k);
  for (let m = 0; m < k; m++) {
    const p = Float64Array.from(params);
    const step = model.steps[m]!;
    p[m]! += step;
    const c = model.corners(p);
    if (!c) return null;
    for (let j = 0; j < 8; j++) out[j * k + m] = (c[j]! - at[j]!) / step;
  }
  return out;
}

function largestMove(a: Float64Array, b: Float64Array): number {
  let most = 0;
  for (let j = 0; j < 8; j++) most = Math.max(most, Math.abs(b[j]! - a[j]!));
  return most;
}

/**
 * The corners as a function of fewer parameters than their eight coordinates (table-fit.ts: a
 * square of known size on the table plane has three). `corners` returns u0, v0, … u3, v3 or null;
 * `steps` are the parameters' finite-difference steps for the corners' Jacobian.
 */
export interface CornerModel {
  readonly steps: Float64Array;
  corners(params: Float64Array): Float64Array | null;
}

/**
 * One Levenberg–Marquardt run at a given blur; returns the fitted parameters (the corners
 * themselves without a model) or null. `keep`: with a model, keep the last linearisation
 * (Refined.kept) for the caller to measure the same pixels again.
 */
export function refine(
  pixels: PixelSet,
  start: Float64Array,
  r: Rendering,
  maxIterations: number,
  model: CornerModel | null = null,
  keep = false,
): Refined | null {
  const { pattern, cells, blur } = r;
  const n = pixels.count;
  const k = model ? model.steps.length : 8;
  const cornersOf = (p: Float64Array): Float64Array | null => (model ? model.corners(p) : p);
  const w = fitWork.w.take(n);
  const wStep = fitWork.wStep.take(n);
  const o = fitWork.o.take(n);
  const oStep = fitWork.oStep.take(n);
  const oGradient = fitWork.oGradient.take(2 * n);
  const jac = fitWork.jac.take(n * k);
  const gradient = fitWork.gradient.take(2 * n);
  const grid = fitWork.grid.take(2 * n);
  const plane = { x: fitWork.planeX.take(n), y: fitWork.planeY.take(n) };
  const planeStep = { x: fitWork.planeXStep.take(n), y: fitWork.planeYStep.take(n) };
  let params = Float64Array.from(start);
  let at = cornersOf(params);
  let fit = at && renderAndFit(pixels, withParams(at), r, w, o, plane);
  if (!fit) return null;
  let lambda = 1e-3;
  const eps = 0.01;
  // JᵀJ at the last linearisation: the fit's information about its parameters (ModelAlignment).
  let information: Float64Array | null = null;
  // With a model, the last linearisation kept (kept-linearisation.ts): the rendering at the final
  // parameters, the Jacobian where it was last taken (the final parameters, or the step before,
  // under 0.005 px from them when the fit converged).
  const kept = (): KeptLinearisation | null =>
    keep && model && information
      ? {
          u: pixels.u.slice(0, n),
          v: pixels.v.slice(0, n),
          count: n,
          w: w.slice(0, n),
          o: o.slice(0, n),
          plane: r.plane ? { x: plane.x.slice(0, n), y: plane.y.slice(0, n) } : null,
          jac: jac.slice(0, n * k),
          information,
          k,
          params: Float64Array.from(params),
        }
      : null;
  for (let iter = 0; iter < maxIterations; iter++) {
    // Analytic Jacobian: whiteness gradient in grid coordinates, times how each pixel's grid
    // position moves with each corner. A pixel p sees grid point g = H⁻¹(p); moving corner
    // coordinate j moves the image of g by D_j = ∂H(g)/∂θ_j, so g moves by −(∂p/∂g)⁻¹·D_j, and
    // (∂p/∂g)⁻¹ is the Jacobian of H⁻¹ at p.
    const corners = withParams(at!);
    const toImage = gridToImage(corners, cells);
    const toGrid = toImage && invert3(toImage);
    const outer = { weight: o, gradient: oGradient };
    if (
      !toImage ||
      !toGrid ||
      !r.footprint(pixels, toGrid, pattern, cells, blur, w, { gradient, grid }, outer)
    )
      return null;
    const moved: Mat3[] = [];
    for (let j = 0; j < 8; j++) {
      const p = Float64Array.from(at!);
      p[j]! += eps;
      const h = gridToImage(withParams(p), cells);
      if (!h) return null;
      moved.push(h);
    }
    // With a model, how each corner coordinate moves with each parameter (8 × k).
    const chain = model ? modelJacobian(model, params, at!) : null;
    if (model && !chain) return null;
    const perCorner = fitWork.perCorner.take(8);
    const [i0, i1, , i3, i4, , i6, i7, i8] = toGrid;
    for (let i = 0; i < n; i++) {
      const pu = pixels.u[i]!;
      const pv = pixels.v[i]!;
      const gx = grid[2 * i]!;
      const gy = grid[2 * i + 1]!;
      // Jacobian of H⁻¹ at the pixel: ∂g/∂p.
      const den = i6 * pu + i7 * pv + i8;
      const a11 = (i0 - gx * i6) / den;
      const a12 = (i1 - gx * i7) / den;
      const a21 = (i3 - gy * i6) / den;
      const a22 = (i4 - gy * i7) / den;
      // The levels held: the rendering moves by b·∇w + s·∇o + o·∇s, s the surround's level here.
      const surround = fit.c + (fit.e * (gx - cells / 2) + fit.f * (gy - cells / 2)) / cells;
      const dwx = fit.b * gradient[2 * i]! + surround * oGradient[2 * i]! + (o[i]! * fit.e) / cells;
      const dwy = fit.b * gradient[2 * i + 1]! + surround * oGradient[2 * i + 1]! + (o[i]! * fit.f) / cells;
      for (let j = 0; j < 8; j++) {
        const h = moved[j]!;
        const z = h[6] * gx + h[7] * gy + h[8];
        const du = ((h[0] * gx + h[1] * gy + h[2]) / z - pu) / eps;
        const dv = ((h[3] * gx + h[4] * gy + h[5]) / z - pv) / eps;
        const dgx = -(a11 * du + a12 * dv);
        const dgy = -(a21 * du + a22 * dv);
        const d = dwx * dgx + dwy * dgy;
        if (chain) perCorner[j] = d;
        else jac[i * 8 + j] = d;
      }
      if (chain)
        for (let m = 0; m < k; m++) {
          let d = 0;
          for (let j = 0; j < 8; j++) d += perCorner[j]! * chain[j * k + m]!;
          jac[i * k + m] = d;
        }
    }
    // Normal equations for the parameters, the levels held at their best fit (variable projection).
    const jtj = fitWork.jtj.take(k * k);
    const jtr = fitWork.jtr.take(k);
    for (let i = 0; i < n; i++) {
      const r =
        pixels.values[i]! - fit.a - fit.b * w[i]! - fit.c * o[i]! - fit.e * plane.x[i]! - fit.f * plane.y[i]!;
      const row = i * k;
      for (let j = 0; j < k; j++) {
        const jj = jac[row + j]!;
        jtr[j]! += jj * r;
        for (let l = 0; l <= j; l++) jtj[j * k + l]! += jj * jac[row + l]!;
      }
    }
    for (let j = 0; j < k; j++) for (let l = 0; l < j; l++) jtj[l * k + j] = jtj[j * k + l]!;
    information = Float64Array.from(jtj);
    let improved = false;
    for (let attempt = 0; attempt < 6 && !improved; attempt++) {
      const damped = fitWork.damped.take(k * k);
      damped.set(jtj);
      for (let j = 0; j < k; j++) damped[j * k + j]! *= 1 + lambda;
      const step = solveSpd(damped, jtr, k);
      if (!step) {
        lambda *= 10;
        continue;
      }
      const next = Float64Array.from(params, (x, j) => x + step[j]!);
      const nextAt = cornersOf(next);
      const nextFit = nextAt && renderAndFit(pixels, withParams(nextAt), r, wStep, oStep, planeStep);
      if (!nextFit) {
        lambda *= 10;
        continue;
      }
      if (nextFit.sse < fit.sse) {
        // How far the corners moved (px): the step itself when the parameters are the corners.
        const shift = model ? largestMove(at!, nextAt) : Math.max(...step.map(Math.abs));
        params = next;
        at = nextAt;
        fit = nextFit;
        w.set(wStep);
        o.set(oStep);
        plane.x.set(planeStep.x);
        plane.y.set(planeStep.y);
        lambda = Math.max(1e-6, lambda / 10);
        improved = true;
        if (shift < 0.005) return { params, fit, information, kept: kept() };
      } else lambda *= 10;
    }
    if (!improved) break;
  }
  return { params, fit, information, kept: kept() };
}

export interface Refined {
  readonly params: Float64Array;
  readonly fit: Fit;
  /** JᵀJ (parameters × parameters) at the last linearisation, the levels held; null if none was made. */
  readonly information: Float64Array | null;
  /** With a model: the last linearisation (kept-linearisation.ts). */
  readonly kept: KeptLinearisation | null;
}

/**
 * Most of a fit's steps need not see the Gaussian footprint, which costs 4–5 times the tent's
 * render: the tent brings the corners to within a few hundredths of a pixel of where the Gaussian
 * wants them, and a few Gaussian steps finish from there.
 */
const POLISH_ITERATIONS = 3;

export function refineThenPolish(
  pixels: PixelSet,
  start: Float64Array,
  r: Rendering,
  maxIterations: number,
  model: CornerModel | null = null,
): Refined | null {
  // Only the last run's linearisation is kept: the rough run's is not the one the fit ends on.
  const keep = model !== null;
  if (r.footprint === predictWhiteness || POLISH_ITERATIONS >= maxIterations)
    return refine(pixels, start, r, maxIterations, model, keep);
  const rough = refine(pixels, start, { ...r, footprint: predictWhiteness }, maxIterations, model);
  const polishFrom = rough ? rough.params : start;
  return refine(pixels, polishFrom, r, rough ? POLISH_ITERATIONS : maxIterations, model, keep);
}
