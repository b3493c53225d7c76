import type { RasterImage } from '../vision/image.ts';
import type { CameraProfile } from './profile.ts';

/**
 * What a lens calibration takes and gives back: the photos, the thresholds it holds them to, the
 * per-view report, the result, and the refusal (with a machine-readable reason) when it will not
 * vouch for a profile. Types only; the work is in calibration.ts.
 */

export interface CalibrationView {
  /** A label for messages, usually the file name. */
  readonly name: string;
  readonly image: RasterImage;
}

export interface CalibrationOptions {
  /** Name written into the camera profile. Default `camera-<w>x<h>`. */
  readonly profileName?: string;
  /** Least number of usable, distinct views. Default 4. */
  readonly minViews: number;
  /** Least ChArUco corners for a view to count. Default: max(6, a quarter of the board's inner corners). */
  readonly minCornersPerView?: number;
  /**
   * Largest edge blur, in pixels, measured on the board region: √(E[|∇I|²] / 2E[(ΔI)²]), which is
   * exactly the σ of a Gaussian-blurred isolated edge and reads lower (≈ 0.7σ) on a board's fine
   * marker detail. On the 640×480 reference photos sharp views read 0.25–0.35 px; blurring them by
   * σ = 1.5 px reads 1.05 and loses a third of the corners, σ = 2 px reads 1.4 and loses almost all.
   * A sharp 1080p webcam frame reads below 1. Default 1.2.
   */
  readonly maxEdgeBlurPx: number;
  /**
   * Two views whose common corners moved by less than this fraction of the image diagonal (RMS)
   * count as one pose. Default 0.015 (12 px at 640×480, 33 px at 1920×1080).
   */
  readonly minViewSeparation: number;
  /**
   * A view counts as tilted when the board's far corner is this many times farther from the camera
   * than its near corner (read from the board-to-image homography, before any calibration). A board
   * held square-on to the lens in every photo leaves focal length and distance confounded.
   * Default 1.05; the reference photos read 1.42–1.50.
   */
  readonly minDepthRatio: number;
  /** Least number of tilted views. Default 2. */
  readonly minTiltedViews: number;
  /** Below this spread of board orientations (degrees) the result carries a warning. Default 10. */
  readonly warnTiltSpreadDeg: number;
  /** Refuse a fit whose overall RMS reprojection error is above this, in pixels. Default 1. */
  readonly maxRmsPx: number;
  /** ISO time stamped on the profile; default now. */
  readonly createdAt?: string;
}

export const DEFAULT_CALIBRATION_OPTIONS: CalibrationOptions = {
  minViews: 4,
  maxEdgeBlurPx: 1.2,
  minViewSeparation: 0.015,
  minDepthRatio: 1.05,
  minTiltedViews: 2,
  warnTiltSpreadDeg: 10,
  maxRmsPx: 1,
};

/**
 * 'used' in the fit; 'accepted' passed every check but the calibration was refused for another
 * reason; 'blurred' / 'too-few-corners' / 'duplicate' dropped; 'not-analysed' refused before checks.
 */
export type ViewStatus = 'used' | 'accepted' | 'blurred' | 'too-few-corners' | 'duplicate' | 'not-analysed';

export interface ViewReport {
  readonly index: number;
  readonly name: string;
  /** ChArUco inner corners found. */
  readonly cornersFound: number;
  /** Markers of the board's dictionary found (including any whose id is not on the board). */
  readonly markersFound: number;
  /** Marker ids seen that the board spec does not contain. */
  readonly outOfRangeMarkerIds: readonly number[];
  /** Edge blur σ on the board region, pixels (see `maxEdgeBlurPx`). */
  readonly edgeBlurPx: number;
  /** Far-to-near depth ratio of the board's corners (1 = square-on; see `minDepthRatio`); null if not measurable. */
  readonly depthRatio: number | null;
  readonly status: ViewStatus;
  /** Index of the earlier view this one duplicates, when status is 'duplicate'. */
  readonly duplicateOf?: number;
  /** Why the view was not used, in words. */
  readonly problem?: string;
  /** RMS reprojection error of this view in the final fit, pixels (used views only). */
  readonly rmsPx: number | null;
  /** Angle between the board's normal and the camera's optical axis, degrees (used views only). */
  readonly boardTiltDeg: number | null;
}

export interface CalibrationResult {
  readonly profile: CameraProfile;
  /** Overall RMS reprojection error, pixels. */
  readonly rmsPx: number;
  readonly views: readonly ViewReport[];
  /** One standard deviation of each intrinsic, as estimated by OpenCV from the fit. */
  readonly stdDev: { readonly fx: number; readonly fy: number; readonly cx: number; readonly cy: number };
  /** Fraction of an 8 × 6 grid over the image in which at least one used corner fell. */
  readonly coverage: number;
  /** Largest angle between the board orientations of two used views, degrees. */
  readonly tiltSpreadDeg: number;
  readonly warnings: readonly string[];
}

export type RefusalReason =
  | 'too-few-views'
  | 'image-size-mismatch'
  | 'board-mismatch'
  | 'blurred'
  | 'too-few-corners'
  | 'views-too-similar'
  | 'poor-fit'
  | 'calibration-failed';

export class CalibrationRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly views: readonly ViewReport[],
  ) {
    super(message);
    this.name = 'CalibrationRefused';
  }
}

export type MutableReport = { -readonly [K in keyof ViewReport]: ViewReport[K] };
