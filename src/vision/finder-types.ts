import type { CandidatePassResult } from './candidate-pass.ts';
import type { FindingStage, Quad } from './candidates.ts';
import type { FindingPriors } from './finding-priors.ts';
import type { FirmnessOptions } from './firm-reading.ts';
import type { GreyImage } from './image.ts';
import type { Rect } from './mosaic.ts';
import type { OpenCV } from './opencv.ts';

/** The marker finder's settings, input and output (marker-finder.ts). */

export interface FinderOptions extends FirmnessOptions {
  /** Readings at least this good but not firm are looked at again (regions, frames). */
  readonly tentativeEvidence: number;
  /**
   * A marker not in play needs cells at least this wide (px) to be reported at all. It must also
   * read exactly (no bit corrected; the default MIP 36h12 words differ in 12 or more bits), so
   * clutter rarely passes; 2 px keeps a 1 in marker on the demo table (2.35 px cells).
   */
  readonly foreignMinCellPx: number;
  /** Regions searched again per frame, at most. */
  readonly maxRegionsPerFrame: number;
  /**
   * A marker whose edges moved more than this (px) since the frame before is being carried and is
   * measured by its edges alone (carried-markers.ts); Infinity measures every frame in full.
   */
  readonly carriedMinMovePx: number;
}

/**
 * Tuned on the tuning scenes (seeds 1000–1999: 12–25 mm tags, 720p–4K, tilt 0–25°, clutter),
 * never on the benchmark's. At 12 nats no reading of a wrong id passed there; correct readings of
 * 15 mm tags at 1080p have a median evidence above 100. Dice read as tags in 480 clutter frames
 * at 1080p (seeds 1300–1345; 3, each a die showing four) had fit 0.32–0.34 and quiet zone
 * 0.29–0.33; of the firm checks of correct readings of 12–20 mm tags at 1080p under every
 * condition (seeds 1401–1418, ~1,300) 3 fell under both limits at 0.36 and 5 at 0.40. Those fits
 * took paper to reach everywhere round the tag (now `paperFit`); with the surround past the quiet
 * zone at its own level a die gains fit (a white die showing four on the cloth read as id 42 at
 * 0.45, clutter seed 1361; another at 0.51 in the recall benchmark's clutter set, seed 5705, which
 * is therefore no longer independent evidence), so the fit limit is 0.6: clutter seeds 1360–1363
 * (1080p, tilt 15/25°, declared 12/15 mm, 384 frames) 0 false; 1080p 15 mm tags under blur and
 * uneven light (seeds 1901–1902, tilt 15°) 177 of 216 found, 180 at a limit of 0.5, 183 at 0.38,
 * and 165 with `paperFit` under 0.38 asked instead.
 */
export const DEFAULT_FINDER: FinderOptions = {
  firmEvidence: 12,
  minPlausibility: 3,
  minContrast: 25,
  tentativeEvidence: 1,
  foreignMinCellPx: 2,
  maxRegionsPerFrame: 48,
  carriedMinMovePx: 1,
  alignBelowCellPx: 3,
  minDarkSurroundFit: 0.6,
  minQuietZone: 0.38,
  minDataContrastShare: 0.25,
  rivalCheckBelowEvidence: 60,
  blurredEvidenceFrom: 0.6,
  blurredEvidenceSpan: 0.15,
  blurredFitMargin: 1.5,
};

/** A reference sheet teaches the blur as this many small tags (blur-estimate.ts). */
export const SHEET_BLUR_WEIGHT = 2;

/** A marker found in a frame. */
export interface FoundMarker {
  readonly id: number;
  readonly corners: Quad;
  readonly stage: FindingStage;
  /** Evidence for the id (nats); Infinity when OpenCV read the exact code. */
  readonly evidence: number;
  /** The tag's own one-sigma errors when measured as a square on the table (table-fit.ts). */
  readonly fitSigma?: { readonly mm: number; readonly headingDeg: number };
}

export interface FinderInput {
  /** The frame, grey, as an OpenCV Mat (for the region search) and as plain pixels. */
  readonly gray: OpenCV;
  readonly grey: GreyImage;
  readonly pass: CandidatePassResult;
  /**
   * A second look for reference sheets the pass did not read (reference-search.ts), asked only
   * when some are missing.
   */
  readonly moreReferences?: () => ReadonlyArray<{ readonly id: number; readonly quad: Quad }>;
  /**
   * A second look at the frame the finder was last given (the pipeline looks again when it has
   * just learned the camera's blur): its pixels are not added to the frames summed over time again.
   */
  readonly sameFrame?: boolean;
  /**
   * Where the picture changed since the frame before (change-map.ts); absent when it could not
   * be compared. A still tag there is measured again first once it settles (still-markers.ts).
   */
  readonly changed?: readonly Rect[];
  /** When the frame was captured (ms): still tags' re-measures refill with time (remeasure-budget.ts). */
  readonly capturedAt: number;
}

/** What the table knows once the reference sheets are read: the priors, and where known bases should be. */
export interface TableKnowledge {
  readonly priors: FindingPriors;
  readonly expected: ReadonlyArray<{ readonly id: number; readonly quad: Quad }>;
}

export interface FinderResult {
  readonly markers: readonly FoundMarker[];
  /** Ids not in play, read exactly (a new base being bound, or a stranger's marker). */
  readonly unknown: readonly FoundMarker[];
  /** Still tags measured again on their averaged pixels in this frame so far (still-remeasure.ts). */
  readonly stillRemeasures: StillRemeasures;
}

/**
 * Still tags measured again: fitted afresh, those whose place was coarse and the others
 * (routine); and moved by one step from their last fit (stepped, kept-linearisation.ts).
 */
export interface StillRemeasures {
  readonly coarse: number;
  readonly routine: number;
  readonly stepped: number;
}
