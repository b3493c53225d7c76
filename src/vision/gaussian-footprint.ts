import type { Mat3 } from './homography.ts';
import {
  MAX_HALF_CELLS,
  writePixel,
  type OuterWeights,
  type PixelSet,
  type WhitenessGradient,
} from './tag-footprint.ts';

/**
 * The marker's picture for measuring it: each pixel's footprint as the Gaussian it is, seen
 * through the tag's perspective.
 *
 * tag-footprint.ts's tent is cheap and good enough to tell codes apart, but a measurement of a
 * 9–15 px tag's corners feels its two approximations:
 * - the tent is not the Gaussian the lens blurs with (a noise-free 12 mm tag at 1080p, truth
 *   corners, blur σ 0.7: 21 grey levels² a pixel of misfit, against 6.5 for a Gaussian; at σ 1.4,
 *   10.5 against 1.7);
 * - it is isotropic in grid coordinates, scaled by the homography's local area only. Through a
 *   tilted camera the tag is foreshortened along one image direction, so a round blur in the
 *   image is an ellipse on the tag's grid, turned with the tag. An isotropic kernel misplaces the
 *   code's cells differently along the two axes, and the code is not symmetric: the fit turns the
 *   tag to make up for it. Noise-free 12 mm tags at 1080p, heading p95 0.24° at tilt 0 but
 *   1.03° at 15° and 1.37° at 25°.
 *
 * Here the lens blur and the pixel's square (a Gaussian of σ² + 1/12 px², as the tent stands for)
 * are mapped to the grid through the homography's local Jacobian J: covariance s²·J·Jᵀ. A
 * Gaussian with a full covariance is the product of its marginal along the rows and, within a
 * row, its conditional along the columns (centre shifted by the row's mean, a narrower σ): the
 * weight of each cell is exact in the row direction and, across a row, uses the row's mean
 * offset. The same tags: heading p95 0.20° / 0.52° / 0.78° at tilt 0 / 15° / 25°.
 */

/**
 * The kernel is the normal distribution cut at ±REACH_SIGMAS (2 × Φ(−3.5) ≈ 5·10⁻⁴ of its weight
 * left out) and scaled back to 1. Cut, its CDF reaches exactly 0 and 1 where the cells summed end,
 * so a cell entering or leaving the sum as the tag moves changes nothing: the whiteness is
 * continuous in the corners, as the fit's steps and finite differences need.
 */
const REACH_SIGMAS = 3.5;

/** The cut kernel's CDF and density tabulated on [−REACH_SIGMAS, REACH_SIGMAS], linear in between. */
const TABLE_STEPS_PER_UNIT = 256;
const TABLE_SIZE = 2 * REACH_SIGMAS * TABLE_STEPS_PER_UNIT + 1;
const cdfTable = new Float64Array(TABLE_SIZE);
const pdfTable = new Float64Array(TABLE_SIZE);
const tail = 0.5 * erfc(REACH_SIGMAS / Math.SQRT2);
for (let i = 0; i < TABLE_SIZE; i++) {
  const x = i / TABLE_STEPS_PER_UNIT - REACH_SIGMAS;
  cdfTable[i] = (0.5 * erfc(-x / Math.SQRT2) - tail) / (1 - 2 * tail);
  pdfTable[i] = Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI) / (1 - 2 * tail);
}
cdfTable[0] = 0;
cdfTable[TABLE_SIZE - 1] = 1;

/** erfc by its continued-fraction-free Chebyshev fit (Numerical Recipes' erfcc, |error| < 1.2·10⁻⁷). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** The kernel's CDF: the standard normal cut at ±REACH_SIGMAS, from the table. */
export function kernelCdf(x: number): number {
  if (x <= -REACH_SIGMAS) return 0;
  if (x >= REACH_SIGMAS) return 1;
  const f = (x + REACH_SIGMAS) * TABLE_STEPS_PER_UNIT;
  const i = Math.min(TABLE_SIZE - 2, Math.floor(f));
  const t = f - i;
  return cdfTable[i]! + t * (cdfTable[i + 1]! - cdfTable[i]!);
}

/** The kernel's density, from the table (0 past the cut). */
export function kernelPdf(x: number): number {
  if (x <= -REACH_SIGMAS || x >= REACH_SIGMAS) return 0;
  const f = (x + REACH_SIGMAS) * TABLE_STEPS_PER_UNIT;
  const i = Math.min(TABLE_SIZE - 2, Math.floor(f));
  const t = f - i;
  return pdfTable[i]! + t * (pdfTable[i + 1]! - pdfTable[i]!);
}

/** The kernel's density with x held inside the cut: what a cell's first moment is taken at. */
function kernelEdgePdf(x: number): number {
  if (x <= -REACH_SIGMAS) return pdfTable[0]!;
  if (x >= REACH_SIGMAS) return pdfTable[TABLE_SIZE - 1]!;
  return kernelPdf(x);
}

/** One row's column weights and their slopes (∂/∂ column centre). */
const MAX_SPAN = 2 * Math.ceil(MAX_HALF_CELLS) + 2;
const columnWeight = new Float64Array(MAX_SPAN);
const columnSlope = new Float64Array(MAX_SPAN);

/**
 * Expected whiteness of every pixel for one complete pattern, as tag-footprint.ts's
 * predictWhiteness (same arguments, same outputs, gradients in grid coordinates with the kernel's
 * covariance held fixed), with the Gaussian footprint described above. False where the quad is
 * degenerate (a kernel wider than MAX_HALF_CELLS).
 */
export function predictWhitenessGaussian(
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
  const s = Math.sqrt(blurSigmaPx * blurSigmaPx + 1 / 12);
  for (let i = 0; i < pixels.count; i++) {
    const pu = pixels.u[i]!;
    const pv = pixels.v[i]!;
    const w = h6 * pu + h7 * pv + h8;
    const gx = (h0 * pu + h1 * pv + h2) / w;
    const gy = (h3 * pu + h4 * pv + h5) / w;
    // J = ∂g/∂p at the pixel; the footprint's covariance on the grid is s²·J·Jᵀ.
    const a11 = (h0 - gx * h6) / w;
    const a12 = (h1 - gx * h7) / w;
    const a21 = (h3 - gy * h6) / w;
    const a22 = (h4 - gy * h7) / w;
    const sxx = a11 * a11 + a12 * a12;
    const syy = a21 * a21 + a22 * a22;
    const sxy = a11 * a21 + a12 * a22;
    const sigmaY = s * Math.sqrt(syy);
    // Within a row: the column centre moves by `shear` per cell of row offset; σ conditional on the row.
    const shear = sxy / syy;
    const sigmaX = s * Math.sqrt(Math.max(0, sxx - sxy * shear));
    // Degenerate where the tent of the same σ would be (tag-footprint.ts); a wide kernel is cut at MAX_HALF_CELLS.
    if (
      !(sigmaY > 0 && sigmaX > 0) ||
      Math.sqrt(6) * Math.max(sigmaX, sigmaY) >= MAX_HALF_CELLS ||
      !Number.isFinite(gx + gy)
    )
      return false;
    const reachY = Math.min(MAX_HALF_CELLS, REACH_SIGMAS * sigmaY);
    const reachX = Math.min(MAX_HALF_CELLS, REACH_SIGMAS * sigmaX);
    const cellInSigmas = 1 / sigmaX;
    let sum = 0;
    let dx = 0;
    let dy = 0;
    let outerSum = 0;
    let odx = 0;
    let ody = 0;
    const cy0 = Math.floor(gy - reachY);
    const cy1 = Math.floor(gy + reachY);
    // Row boundaries in σ units; each row's upper boundary is the next one's lower.
    let zLo = (cy0 - gy) / sigmaY;
    let cdfLo = kernelCdf(zLo);
    let pdfLo = kernelPdf(zLo);
    for (let cy = cy0; cy <= cy1; cy++) {
      const zHi = (cy + 1 - gy) / sigmaY;
      const cdfHi = kernelCdf(zHi);
      const pdfHi = kernelPdf(zHi);
      const oy = cdfHi - cdfLo;
      if (oy > 1e-9) {
        // The row's mean offset from gy: σ·(φ(lo) − φ(hi))/oy with lo, hi held inside the cut
        // (kernelEdgePdf); and its slope in gy, where a boundary past the cut does not move.
        const moment = kernelEdgePdf(zLo) - kernelEdgePdf(zHi);
        const mean = (sigmaY * moment) / oy;
        const n = pdfLo - pdfHi;
        const dMean = ((zLo * pdfLo - zHi * pdfHi) * oy - moment * n) / (oy * oy);
        const dRow = n / sigmaY; // ∂oy/∂gy
        const centre = gx + shear * mean;
        const cx0 = Math.floor(centre - reachX);
        const columns = Math.floor(centre + reachX) - cx0 + 1;
        let xLo = (cx0 - centre) / sigmaX;
        let cLo = kernelCdf(xLo);
        let pLo = withGradient ? kernelPdf(xLo) : 0;
        for (let k = 0; k < columns; k++) {
          const xHi = xLo + cellInSigmas;
          const cHi = kernelCdf(xHi);
          columnWeight[k] = cHi - cLo;
          if (withGradient) {
            const pHi = kernelPdf(xHi);
            columnSlope[k] = (pLo - pHi) / sigmaX;
            pLo = pHi;
          }
          xLo = xHi;
          cLo = cHi;
        }
        const inside = cy >= 0 && cy < cells;
        const rowPastQuiet = cy < -1 || cy > cells;
        const centreByGy = shear * dMean;
        for (let k = 0; k < columns; k++) {
          const cx = cx0 + k;
          const ox = columnWeight[k]!;
          if (outer && (rowPastQuiet || cx < -1 || cx > cells)) {
            outerSum += ox * oy;
            if (withGradient) {
              odx += columnSlope[k]! * oy;
              ody += ox * dRow + columnSlope[k]! * centreByGy * oy;
            }
            continue;
          }
          const value = inside && cx >= 0 && cx < cells ? pattern[cy * cells + cx]! : 1;
          sum += ox * oy * value;
          if (withGradient) {
            dx += columnSlope[k]! * oy * value;
            dy += (ox * dRow + columnSlope[k]! * centreByGy * oy) * value;
          }
        }
      }
      zLo = zHi;
      cdfLo = cdfHi;
      pdfLo = pdfHi;
    }
    writePixel(i, out, withGradient, outer, sum, dx, dy, gx, gy, outerSum, odx, ody);
  }
  return true;
}
