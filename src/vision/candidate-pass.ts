import type { MarkerDictionaryName } from '../table/scenario.ts';
import type { Quad } from './candidates.ts';
import { dictionaryConstant } from './dictionary.ts';
import { loadOpenCV, type OpenCV } from './opencv.ts';

/**
 * OpenCV's ArucoDetector used as a quad finder: every dark square it sees, whether it could read
 * it or not. Vedette reads the quads itself (template-decoder.ts), so this pass is tuned to find
 * small squares, not to read them:
 * - one adaptive-threshold window instead of OpenCV's three (3, 13, 23 px): a 5 px window finds
 *   the black border of tags from 1.2 px cells up to the 80 mm reference sheets, and one pass
 *   costs a third of three;
 * - a looser polygon fit (5 % of the perimeter instead of 3 %): a 12 px square's corners are
 *   rounded by blur and the contour of its 1.5 px border is ragged;
 * - no corner refinement (Vedette refines what it reads) and no bit correction (OpenCV's reading
 *   is only used as a hint; any quad it could not read is kept as a candidate).
 * Measured on the tuning scenes (seeds 1000–1999): 15 mm tags at 1080p found as quads 108/108
 * with one 5 px window, against 103/108 with OpenCV's three windows and 3 % polygons.
 */
export interface CandidatePassOptions {
  readonly dictionary: MarkerDictionaryName;
  /** Adaptive threshold window, pixels (odd). */
  readonly thresholdWindowPx: number;
  /** Polygon approximation tolerance, fraction of the contour perimeter. */
  readonly polygonAccuracy: number;
  /** Smallest quad perimeter as a fraction of the image's larger side. */
  readonly minPerimeterRate: number;
  /** Quads closer than this to the image border (px) are dropped. */
  readonly minDistanceToBorderPx: number;
  /** A pixel is dark when this many grey levels below its window's mean (OpenCV's default 7). */
  readonly thresholdConstant: number;
}

export const DEFAULT_CANDIDATE_PASS: Omit<CandidatePassOptions, 'dictionary'> = {
  thresholdWindowPx: 5,
  polygonAccuracy: 0.05,
  minPerimeterRate: 0.01,
  minDistanceToBorderPx: 3,
  thresholdConstant: 7,
};

export interface CandidatePassResult {
  /** Quads OpenCV also read, with the id it read (a hint, not a verdict). */
  readonly read: ReadonlyArray<{ readonly id: number; readonly quad: Quad }>;
  /** Quads OpenCV could not read. */
  readonly unread: readonly Quad[];
  /**
   * Light squares (found on the negative picture): a tag's white sticker or a base top, never a
   * tag's own black square, whatever their size.
   */
  readonly light?: readonly Quad[];
}

function quadsOf(vector: OpenCV): Quad[] {
  const out: Quad[] = [];
  for (let i = 0; i < vector.size(); i++) {
    const m = vector.get(i);
    const d = m.data32F as Float32Array;
    out.push([
      { u: d[0]!, v: d[1]! },
      { u: d[2]!, v: d[3]! },
      { u: d[4]!, v: d[5]! },
      { u: d[6]!, v: d[7]! },
    ]);
    m.delete();
  }
  return out;
}

/** What may change from one run of a pass to the next. */
export type PassTuning = Pick<
  CandidatePassOptions,
  'minPerimeterRate' | 'thresholdWindowPx' | 'thresholdConstant' | 'minDistanceToBorderPx'
>;

/** The run-to-run settings a pass starts with. */
export const passTuning = (o: CandidatePassOptions): PassTuning => ({
  minPerimeterRate: o.minPerimeterRate,
  thresholdWindowPx: o.thresholdWindowPx,
  thresholdConstant: o.thresholdConstant,
  minDistanceToBorderPx: o.minDistanceToBorderPx,
});

export class CandidatePass {
  private tuning: PassTuning;

  private constructor(
    private readonly cv: OpenCV,
    private readonly detector: OpenCV,
    readonly options: CandidatePassOptions,
  ) {
    this.tuning = passTuning(options);
  }

  static async create(
    options: Partial<CandidatePassOptions> & { dictionary: MarkerDictionaryName },
  ): Promise<CandidatePass> {
    const cv = await loadOpenCV();
    const o: CandidatePassOptions = { ...DEFAULT_CANDIDATE_PASS, ...options };
    const dictionary = cv.getPredefinedDictionary(dictionaryConstant(cv, o.dictionary));
    dictionary.maxCorrectionBits = 0;
    const params = detectorParameters(cv, o, o);
    const refine = new cv.aruco_RefineParameters(10, 3, true);
    const detector = new cv.aruco_ArucoDetector(dictionary, params, refine);
    dictionary.delete();
    params.delete();
    refine.delete();
    return new CandidatePass(cv, detector, o);
  }

  /**
   * Ignores quads with a perimeter under this fraction of the image's larger side. The scenario's
   * smallest marker, seen where the table is furthest, sets it (less contour work on cloth and
   * texture); unchanged values cost nothing.
   */
  setMinPerimeterRate(rate: number): void {
    this.tune({ minPerimeterRate: rate });
  }

  /** The adaptive threshold window in use, px. */
  get windowPx(): number {
    return this.tuning.thresholdWindowPx;
  }

  /**
   * Changes the adaptive threshold window (odd, px). A blurred camera spreads a small tag's
   * black border over a 5 px window, so its quad is lost; a wider window keeps it (pipeline.ts
   * picks the window from the blur the finder has learned).
   */
  setThresholdWindow(windowPx: number): void {
    this.tune({ thresholdWindowPx: windowPx });
  }

  /** Changes any of the run-to-run settings; OpenCV's parameters are rebuilt only when one differs. */
  tune(change: Partial<PassTuning>): void {
    const next = { ...this.tuning, ...change };
    const same =
      Math.abs(next.minPerimeterRate - this.tuning.minPerimeterRate) < 1e-6 &&
      next.thresholdWindowPx === this.tuning.thresholdWindowPx &&
      next.thresholdConstant === this.tuning.thresholdConstant &&
      next.minDistanceToBorderPx === this.tuning.minDistanceToBorderPx;
    if (same) return;
    this.tuning = next;
    const params = detectorParameters(this.cv, this.options, next);
    this.detector.setDetectorParameters(params);
    params.delete();
  }

  /** Runs the pass on an 8-bit grey Mat (the caller keeps ownership). */
  run(gray: OpenCV): CandidatePassResult {
    const cv = this.cv;
    const corners = new cv.MatVector();
    const ids = new cv.Mat();
    const rejected = new cv.MatVector();
    try {
      this.detector.detectMarkers(gray, corners, ids, rejected);
      const quads = quadsOf(corners);
      return {
        read: quads.map((quad, i) => ({ id: ids.intAt(i, 0) as number, quad })),
        unread: quadsOf(rejected),
      };
    } finally {
      corners.delete();
      ids.delete();
      rejected.delete();
    }
  }

  dispose(): void {
    this.detector.delete();
  }
}

function detectorParameters(cv: OpenCV, o: CandidatePassOptions, t: PassTuning): OpenCV {
  const params = new cv.aruco_DetectorParameters();
  params.cornerRefinementMethod = cv.CORNER_REFINE_NONE;
  params.adaptiveThreshWinSizeMin = t.thresholdWindowPx;
  params.adaptiveThreshWinSizeMax = t.thresholdWindowPx;
  params.adaptiveThreshWinSizeStep = 10;
  params.polygonalApproxAccuracyRate = o.polygonAccuracy;
  params.minMarkerPerimeterRate = t.minPerimeterRate;
  params.minDistanceToBorder = t.minDistanceToBorderPx;
  params.errorCorrectionRate = 0;
  params.adaptiveThreshConstant = t.thresholdConstant;
  return params;
}
