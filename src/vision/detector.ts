import type { Pixel } from '../camera/projection.ts';
import type { FindingStage } from './candidates.ts';
import type { MarkerDictionaryName } from '../table/scenario.ts';
import { dictionaryConstant } from './dictionary.ts';
import { DEFAULT_EDGE_REFINE, refineMarkerCorners } from './edge-refine.ts';
import { toGrayMat } from './grey-mat.ts';
import { assertRaster, type RasterImage } from './image.ts';
import { loadOpenCV, type OpenCV } from './opencv.ts';

/** One marker found in an image: its id and four corners in OpenCV order (TL, TR, BR, BL of the tag). */
export interface DetectedMarker {
  readonly id: number;
  readonly corners: readonly [Pixel, Pixel, Pixel, Pixel];
  /** Which stage of the search found it (candidates.ts); absent from the plain detector. */
  readonly stage?: FindingStage;
  /** Evidence for the id, nats (Infinity when OpenCV read the exact code). */
  readonly evidence?: number;
  /** The tag's own one-sigma errors when it was measured as a square on the table (table-fit.ts). */
  readonly fitSigma?: { readonly mm: number; readonly headingDeg: number };
}

/**
 * Detector parameters, explicit and documented in the AprilTag library's manner.
 * Defaults favour small tags (20–35 px across) at 1080p, measured on the synthetic table.
 */
export interface DetectorOptions {
  readonly dictionary: MarkerDictionaryName;
  /** Sub-pixel corner refinement: 'subpix' (cornerSubPix on the quad corners) is the accurate default. */
  readonly cornerRefinement: 'subpix' | 'contour' | 'apriltag' | 'none';
  /** After OpenCV, fit lines to each marker's four outer edges for sub-pixel corners (see edge-refine.ts). */
  readonly edgeRefinement: boolean;
  /** Largest half-size of the cornerSubPix search window, pixels. */
  readonly cornerRefinementWinSize: number;
  /**
   * Window half-size as a fraction of one marker cell in pixels (OpenCV 4.12 uses the smaller of
   * this and the absolute size). OpenCV's default 0.3 leaves a 1 px window on 3 px cells, which
   * barely refines at all.
   */
  readonly relativeCornerRefinementWinSize: number;
  /**
   * Smallest marker perimeter as a fraction of the image's larger side (OpenCV default 0.03 is too big
   * for tabletops). Relative, so it must allow the smallest marker at the highest resolution: 0.02 threw
   * away a third of the 15 mm markers at 4K (perimeter < 77 px); 0.01 (≈ 10 px sides at 4K) finds them all.
   */
  readonly minMarkerPerimeterRate: number;
  /**
   * Resolution of the unwarped marker when its bits are read. OpenCV's default 4 px per cell
   * aliases small rotated tags into misreads; 8 found every tag of the shuffled test scenes.
   */
  readonly perspectiveRemovePixelPerCell: number;
  /**
   * Fraction of each cell's edge left out when its bit is read. OpenCV's 0.13 lets the blurred
   * edges of neighbouring cells vote; on 2–3 px cells reading only the middle (0.3) halves the
   * bit errors (bench/accuracy.ts).
   */
  readonly perspectiveRemoveIgnoredMarginPerCell: number;
  /**
   * Bit errors corrected when a pattern is matched to a marker, per dictionary. OpenCV 4.12 ships
   * AprilTag 36h11 with no correction at all (one misread bit loses the marker: half the 20 mm tags
   * at 1080p) and ArUco MIP 36h12 with 7 (more than its minimum Hamming distance of 12 can correct
   * safely; one random pattern in seven would pass as a marker). Four bits keeps both 6 × 6
   * dictionaries under 0.3 % random acceptance; 4 × 4 and 5 × 5 keep OpenCV's 0 and 1.
   * See docs/markers.md for the figures.
   */
  readonly correctionBits: Readonly<Record<MarkerDictionaryName, number>>;
  /** Adaptive threshold window sizes scanned, in pixels. */
  readonly adaptiveThreshWinSizeMin: number;
  readonly adaptiveThreshWinSizeMax: number;
  readonly adaptiveThreshWinSizeStep: number;
}

export const DEFAULT_DETECTOR_OPTIONS: DetectorOptions = {
  dictionary: 'apriltag_36h11',
  cornerRefinement: 'subpix',
  edgeRefinement: true,
  cornerRefinementWinSize: 3,
  relativeCornerRefinementWinSize: 0.3,
  minMarkerPerimeterRate: 0.01,
  perspectiveRemovePixelPerCell: 8,
  perspectiveRemoveIgnoredMarginPerCell: 0.3,
  correctionBits: { apriltag_36h11: 4, aruco_mip_36h12: 4, aruco_5x5_250: 1, aruco_4x4_250: 0 },
  adaptiveThreshWinSizeMin: 3,
  adaptiveThreshWinSizeMax: 23,
  adaptiveThreshWinSizeStep: 10,
};

function refinementConstant(cv: OpenCV, method: DetectorOptions['cornerRefinement']): number {
  switch (method) {
    case 'subpix':
      return cv.CORNER_REFINE_SUBPIX;
    case 'contour':
      return cv.CORNER_REFINE_CONTOUR;
    case 'apriltag':
      return cv.CORNER_REFINE_APRILTAG;
    case 'none':
      return cv.CORNER_REFINE_NONE;
  }
}

/** Finds fiducial markers with OpenCV's ArucoDetector; knows nothing of units or tables. */
export class MarkerDetector {
  private constructor(
    private readonly cv: OpenCV,
    private readonly detector: OpenCV,
    readonly options: DetectorOptions,
    /** Cells across a marker of the dictionary, black border included. */
    private readonly cells: number,
  ) {}

  static async create(options: Partial<DetectorOptions> = {}): Promise<MarkerDetector> {
    const cv = await loadOpenCV();
    const opts = { ...DEFAULT_DETECTOR_OPTIONS, ...options };
    const dictionary = cv.getPredefinedDictionary(dictionaryConstant(cv, opts.dictionary));
    // Absolute bit count: errorCorrectionRate 1 × our own maxCorrectionBits.
    dictionary.maxCorrectionBits = opts.correctionBits[opts.dictionary];
    const params = new cv.aruco_DetectorParameters();
    params.cornerRefinementMethod = refinementConstant(cv, opts.cornerRefinement);
    params.cornerRefinementWinSize = opts.cornerRefinementWinSize;
    params.relativeCornerRefinmentWinSize = opts.relativeCornerRefinementWinSize;
    params.minMarkerPerimeterRate = opts.minMarkerPerimeterRate;
    params.perspectiveRemovePixelPerCell = opts.perspectiveRemovePixelPerCell;
    params.perspectiveRemoveIgnoredMarginPerCell = opts.perspectiveRemoveIgnoredMarginPerCell;
    params.errorCorrectionRate = 1;
    params.adaptiveThreshWinSizeMin = opts.adaptiveThreshWinSizeMin;
    params.adaptiveThreshWinSizeMax = opts.adaptiveThreshWinSizeMax;
    params.adaptiveThreshWinSizeStep = opts.adaptiveThreshWinSizeStep;
    const refine = new cv.aruco_RefineParameters(10, 3, true);
    const cells = (dictionary.markerSize as number) + 2;
    const detector = new cv.aruco_ArucoDetector(dictionary, params, refine);
    dictionary.delete();
    params.delete();
    refine.delete();
    return new MarkerDetector(cv, detector, opts, cells);
  }

  detect(image: RasterImage): DetectedMarker[] {
    assertRaster(image);
    const cv = this.cv;
    const gray = toGrayMat(cv, image);
    const corners = new cv.MatVector();
    const ids = new cv.Mat();
    const rejected = new cv.MatVector();
    try {
      this.detector.detectMarkers(gray, corners, ids, rejected);
      const found: DetectedMarker[] = [];
      const grey = { data: gray.data as Uint8Array, width: image.width, height: image.height };
      for (let i = 0; i < ids.rows; i++) {
        const quad = corners.get(i);
        const d = quad.data32F as Float32Array;
        const coarse: DetectedMarker['corners'] = [
          { u: d[0]!, v: d[1]! },
          { u: d[2]!, v: d[3]! },
          { u: d[4]!, v: d[5]! },
          { u: d[6]!, v: d[7]! },
        ];
        quad.delete();
        const refined = this.options.edgeRefinement
          ? refineMarkerCorners(grey, coarse, this.edgeOptions(coarse))
          : null;
        found.push({ id: ids.intAt(i, 0), corners: refined ?? coarse });
      }
      return found;
    } finally {
      gray.delete();
      corners.delete();
      ids.delete();
      rejected.delete();
    }
  }

  /**
   * Edge search scaled to the marker's cells: it must stay inside the one-cell black border and
   * the one-cell quiet zone, so a 2 px cell gets ±1.5 px, never more than the default ±2 px.
   */
  private edgeOptions(corners: DetectedMarker['corners']) {
    let perimeter = 0;
    for (let i = 0; i < 4; i++) {
      const a = corners[i]!;
      const b = corners[(i + 1) % 4]!;
      perimeter += Math.hypot(b.u - a.u, b.v - a.v);
    }
    const cellPx = perimeter / 4 / this.cells;
    return {
      ...DEFAULT_EDGE_REFINE,
      searchPx: Math.min(DEFAULT_EDGE_REFINE.searchPx, Math.max(1, 0.75 * cellPx)),
    };
  }

  dispose(): void {
    this.detector.delete();
  }
}
