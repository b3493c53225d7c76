import type { GreyImage } from './image.ts';
import { fitLevelsWithPlane, fitThreeLevels, type SurroundColumns } from './level-fit.ts';
import { solveSpd } from './solve-spd.ts';

/**
 * A measuring fit's last linearisation, kept so a still tag can be measured again without
 * rendering it again.
 *
 * A still tag is measured again on the mean of the frames it has stood in (still-markers.ts):
 * the same pixels, the same model, only less noise. Its corners then move by the first frame's
 * noise (hundredths to tenths of a pixel), where the rendering is linear in its parameters to
 * well under that noise, so one Gauss–Newton step from where the tag was measured, with the
 * rendering and the Jacobian of that fit, is the measurement on the mean. A full fit renders
 * the tag six to nine times with the measuring footprint (~1.8 ms a 1080p 15 mm tag with the
 * boxed one); the step reads the pixels and solves two small systems.
 */
export interface KeptLinearisation {
  /** The pixels compared (image coordinates). */
  readonly u: Int32Array;
  readonly v: Int32Array;
  readonly count: number;
  /** The rendering at `params`: whiteness, weight past the quiet zone, the surround plane's columns. */
  readonly w: Float64Array;
  readonly o: Float64Array;
  /** Null when the surround is one level (the decoder's picture). */
  readonly plane: SurroundColumns | null;
  /** ∂rendering/∂params at the last linearisation, `count × k` row-major, and JᵀJ (k × k). */
  readonly jac: Float64Array;
  readonly information: Float64Array;
  readonly k: number;
  /** The parameters the rendering was made at. */
  readonly params: Float64Array;
}

/** One step from a kept linearisation on another picture of the same pixels. */
export interface LinearStep {
  readonly params: Float64Array;
  /** Residual sum of squares after the step (the linear model's), and the pixels compared. */
  readonly sse: number;
  readonly pixels: number;
}

/**
 * The Gauss–Newton step from `kept` on `grey` (the same camera picture size; the kept pixels
 * must lie in it): the levels fitted to the new values with the kept rendering, then the
 * parameters moved by (JᵀJ)⁻¹Jᵀr. Null when the system cannot be solved.
 */
export function stepFromKept(kept: KeptLinearisation, grey: GreyImage): LinearStep | null {
  const n = kept.count;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = kept.u[i]!;
    const v = kept.v[i]!;
    if (u < 0 || v < 0 || u >= grey.width || v >= grey.height) return null;
    values[i] = grey.data[v * grey.width + u]!;
  }
  const fit = kept.plane
    ? fitLevelsWithPlane(values, kept.w, kept.o, kept.plane, n)
    : fitThreeLevels(values, kept.w, kept.o, n);
  const k = kept.k;
  const jtr = new Float64Array(k);
  const px = kept.plane?.x;
  const py = kept.plane?.y;
  for (let i = 0; i < n; i++) {
    let model = fit.a + fit.b * kept.w[i]! + fit.c * kept.o[i]!;
    if (px && py) model += fit.e * px[i]! + fit.f * py[i]!;
    const r = values[i]! - model;
    for (let j = 0; j < k; j++) jtr[j]! += kept.jac[i * k + j]! * r;
  }
  const step = solveSpd(kept.information, jtr, k);
  if (!step) return null;
  // ‖r − JΔ‖² = ‖r‖² − Δᵀ Jᵀr where JᵀJ Δ = Jᵀr.
  let gain = 0;
  for (let j = 0; j < k; j++) gain += step[j]! * jtr[j]!;
  return {
    params: Float64Array.from(kept.params, (x, j) => x + step[j]!),
    sse: Math.max(0, fit.sse - gain),
    pixels: n,
  };
}
