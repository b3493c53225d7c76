import type { RasterImage } from '../vision/image.ts';
import { assertRaster } from '../vision/image.ts';
import { toGrayMat } from '../vision/grey-mat.ts';
import { loadOpenCV, type OpenCV } from '../vision/opencv.ts';
import {
  BOARD_DICTIONARY_CONSTANTS,
  boardCornerCount,
  boardMarkerCount,
  type BoardSpec,
} from './calibration-board.ts';
import type { CameraProfile } from './profile.ts';

/**
 * Lens calibration from photos of a ChArUco board, with OpenCV.js (`CharucoDetector` to find the
 * board's inner corners, `calibrateCameraExtended` to fit pinhole intrinsics plus k1 k2 p1 p2 k3).
 *
 * A pure function over decoded images and a board spec: no file I/O, so it runs unchanged in the
 * browser. It refuses (throws `CalibrationRefused` with a machine-readable `reason`) rather than
 * return a profile it cannot vouch for:
 *
 * - `too-few-views`: fewer than `minViews` photos supplied (default 4, the least that pins down
 *   focal length, principal point and five distortion terms with some redundancy; 10–20 are better);
 * - `image-size-mismatch`: the photos are not all the same size (one camera mode per profile);
 * - `board-mismatch`: the spec does not describe the board in the photos (no markers of its
 *   dictionary, marker ids beyond the board's range, or markers but no corners: wrong squaresX/Y or
 *   legacyPattern — the refusal says which alternative would have matched);
 * - `blurred`, `too-few-corners`, `views-too-similar`: after dropping blurred views, views with too
 *   few (or collinear) corners, and near-duplicate views, fewer than `minViews` remain; or all board
 *   orientations are within `minTiltSpreadDeg` of each other (parallel boards leave focal length and
 *   distance confounded);
 * - `poor-fit`: the fit's RMS reprojection error exceeds `maxRmsPx`;
 * - `calibration-failed`: OpenCV itself gave up.
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

type MutableReport = { -readonly [K in keyof ViewReport]: ViewReport[K] };

interface Point2 {
  readonly x: number;
  readonly y: number;
}

interface Detection {
  readonly corners: ReadonlyMap<number, Point2>;
  readonly markerIds: readonly number[];
  readonly edgeBlurPx: number;
  readonly depthRatio: number | null;
}

/** Calibrates a camera from ChArUco photos; throws `CalibrationRefused` when it should not. */
export async function calibrateFromCharuco(
  board: BoardSpec,
  views: readonly CalibrationView[],
  options: Partial<CalibrationOptions> = {},
): Promise<CalibrationResult> {
  const opts: CalibrationOptions = { ...DEFAULT_CALIBRATION_OPTIONS, ...options };
  const cv = await loadOpenCV();
  const blank = (v: CalibrationView, i: number): ViewReport => ({
    index: i,
    name: v.name,
    cornersFound: 0,
    markersFound: 0,
    outOfRangeMarkerIds: [],
    edgeBlurPx: NaN,
    depthRatio: null,
    status: 'not-analysed',
    rmsPx: null,
    boardTiltDeg: null,
  });

  if (views.length < opts.minViews) {
    throw new CalibrationRefused(
      'too-few-views',
      `${views.length} photo(s) given; calibration needs at least ${opts.minViews} photos of the board from different angles (10–20 is better).`,
      views.map(blank),
    );
  }
  for (const v of views) assertRaster(v.image);
  const { width, height } = views[0]!.image;
  const odd = views.filter((v) => v.image.width !== width || v.image.height !== height);
  if (odd.length > 0) {
    throw new CalibrationRefused(
      'image-size-mismatch',
      `all photos must come from one camera mode; ${views[0]!.name} is ${width}×${height} but ` +
        odd.map((v) => `${v.name} is ${v.image.width}×${v.image.height}`).join(', '),
      views.map(blank),
    );
  }

  const detections = detectAll(cv, board, views);
  const markerCount = boardMarkerCount(board);
  const totalCorners = boardCornerCount(board);
  const minCorners = opts.minCornersPerView ?? Math.max(6, Math.ceil(totalCorners / 4));

  // Reports before any view is dropped, for board-level refusals.
  const reports: MutableReport[] = detections.map((d, i) => {
    const outOfRange = [...new Set(d.markerIds.filter((id) => id >= markerCount))].sort((a, b) => a - b);
    return {
      index: i,
      name: views[i]!.name,
      cornersFound: d.corners.size,
      markersFound: d.markerIds.length,
      outOfRangeMarkerIds: outOfRange,
      edgeBlurPx: d.edgeBlurPx,
      depthRatio: d.depthRatio,
      status: 'not-analysed',
      rmsPx: null,
      boardTiltDeg: null,
    };
  });

  // The spec is wrong when the photos show marker ids the board cannot have.
  const foreign = reports.filter((r) => r.outOfRangeMarkerIds.length >= 2);
  if (foreign.length > 0) {
    const ids = [...new Set(foreign.flatMap((r) => r.outOfRangeMarkerIds))].sort((a, b) => a - b);
    throw new CalibrationRefused(
      'board-mismatch',
      `the photos show ${board.dictionary} marker ids ${formatIds(ids)}, but a ${board.squaresX}×${board.squaresY} board only has ids 0–${markerCount - 1}: ` +
        `squaresX/squaresY (or the dictionary) in the board spec do not match the printed board.`,
      reports,
    );
  }
  if (reports.every((r) => r.cornersFound === 0)) {
    if (reports.every((r) => r.edgeBlurPx > opts.maxEdgeBlurPx)) {
      throw new CalibrationRefused(
        'blurred',
        `every photo is blurred (edge blur ${reports.map((r) => r.edgeBlurPx.toFixed(1)).join(', ')} px; limit ${opts.maxEdgeBlurPx} px) and no board corner was found. ` +
          'Focus on the board, use more light or a shorter exposure, and hold the camera still.',
        reports,
      );
    }
    const mostMarkers = Math.max(...reports.map((r) => r.markersFound));
    if (mostMarkers > 0 && mostMarkers < 4) {
      throw new CalibrationRefused(
        'too-few-corners',
        `the board was barely found (at most ${mostMarkers} marker(s) in a photo, no corners). ` +
          'Fill more of the picture with the board, light it evenly without glare, and check focus.',
        reports,
      );
    }
    if (mostMarkers === 0) {
      throw new CalibrationRefused(
        'board-mismatch',
        `no ${board.dictionary} markers were found in any photo: check the board spec's dictionary, and that the board is in the pictures.`,
        reports,
      );
    }
    const hint = diagnoseLayout(cv, board, views);
    const seen = [...new Set(reports.flatMap((r) => detections[r.index]!.markerIds))].sort((x, y) => x - y);
    throw new CalibrationRefused(
      'board-mismatch',
      `${board.dictionary} markers were found (ids ${formatIds(seen)}) but no ChArUco corner matched a ${board.squaresX}×${board.squaresY} board` +
        `${board.legacyPattern ? ' (legacy pattern)' : ''}. ${hint}`,
      reports,
    );
  }

  // Per-view quality, then near-duplicate poses.
  for (const r of reports) {
    if (r.edgeBlurPx > opts.maxEdgeBlurPx) {
      r.status = 'blurred';
      r.problem = `blurred: edge blur ${r.edgeBlurPx.toFixed(2)} px > ${opts.maxEdgeBlurPx} px`;
    } else if (r.cornersFound < minCorners) {
      r.status = 'too-few-corners';
      r.problem = `only ${r.cornersFound} of ${totalCorners} corners found (need ${minCorners})`;
    } else if (collinear(detections[r.index]!.corners)) {
      r.status = 'too-few-corners';
      r.problem = `the ${r.cornersFound} corners found lie on one line`;
    }
  }
  const diagonal = Math.hypot(width, height);
  const kept: number[] = [];
  for (const r of reports) {
    if (r.status !== 'not-analysed') continue;
    const twin = kept.find(
      (k) =>
        poseDistancePx(detections[k]!.corners, detections[r.index]!.corners) <
        opts.minViewSeparation * diagonal,
    );
    if (twin !== undefined) {
      r.status = 'duplicate';
      r.duplicateOf = twin;
      r.problem = `board in almost the same place as in ${views[twin]!.name}`;
    } else {
      r.status = 'accepted';
      kept.push(r.index);
    }
  }
  if (kept.length < opts.minViews) {
    const counts = new Map<ViewStatus, number>();
    for (const r of reports) if (r.problem) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
    const order: Array<[ViewStatus, RefusalReason]> = [
      ['blurred', 'blurred'],
      ['too-few-corners', 'too-few-corners'],
      ['duplicate', 'views-too-similar'],
    ];
    const [, reason] = order.reduce((best, cur) =>
      (counts.get(cur[0]) ?? 0) > (counts.get(best[0]) ?? 0) ? cur : best,
    );
    const lines = reports.filter((r) => r.problem).map((r) => `  ${r.name}: ${r.problem}`);
    throw new CalibrationRefused(
      reason,
      `only ${kept.length} usable, distinct view(s); need ${opts.minViews}.\n${lines.join('\n')}\n${ADVICE[reason]}`,
      reports,
    );
  }

  const tilted = kept.filter((k) => (reports[k]!.depthRatio ?? 1) >= opts.minDepthRatio);
  if (tilted.length < opts.minTiltedViews) {
    throw new CalibrationRefused(
      'views-too-similar',
      `the board is square-on to the camera in ${tilted.length === 0 ? 'every photo' : `all but ${tilted.length} photo(s)`} ` +
        `(far/near corner depth ratios ${kept.map((k) => (reports[k]!.depthRatio ?? 1).toFixed(2)).join(', ')}; ` +
        `need ${opts.minTiltedViews} views at ≥ ${opts.minDepthRatio}): with parallel boards the focal length cannot be told apart from distance. ` +
        ADVICE['views-too-similar'],
      reports,
    );
  }

  const fit = runCalibration(
    cv,
    board,
    kept.map((k) => detections[k]!.corners),
    { width, height },
    reports,
  );
  kept.forEach((k, j) => {
    const r = reports[k]!;
    r.status = 'used';
    r.rmsPx = fit.perViewRms[j]!;
    r.boardTiltDeg = fit.tiltDeg[j]!;
  });

  let tiltSpreadDeg = 0;
  for (let i = 0; i < fit.normals.length; i++) {
    for (let j = i + 1; j < fit.normals.length; j++)
      tiltSpreadDeg = Math.max(tiltSpreadDeg, angleDeg(fit.normals[i]!, fit.normals[j]!));
  }
  if (!(fit.rms <= opts.maxRmsPx)) {
    const worst = kept
      .map((k) => reports[k]!)
      .sort((a, b) => (b.rmsPx ?? 0) - (a.rmsPx ?? 0))
      .slice(0, 3)
      .map((r) => `${r.name} ${r.rmsPx!.toFixed(2)} px`);
    throw new CalibrationRefused(
      'poor-fit',
      `reprojection error ${fit.rms.toFixed(2)} px is above the ${opts.maxRmsPx} px limit (worst views: ${worst.join(', ')}). ` +
        'Check squareLength/markerLength and that the printed board lies flat, and retake blurred or glare-spoiled photos.',
      reports,
    );
  }

  const used = kept.map((k) => detections[k]!.corners);
  const coverage = gridCoverage(used, width, height, 8, 6);
  const warnings: string[] = [];
  if (tiltSpreadDeg < opts.warnTiltSpreadDeg)
    warnings.push(
      `the board's orientation varies by only ${tiltSpreadDeg.toFixed(1)}° across the photos; tilting it different ways (forward, back, left, right) pins the focal length down better.`,
    );
  if (kept.length < 10)
    warnings.push(
      `${kept.length} views used; 10–20 varied views give a steadier calibration, and the distortion terms are poorly determined with few.`,
    );
  if (coverage < 0.5)
    warnings.push(
      `board corners reached only ${Math.round(coverage * 100)}% of the picture; add photos with the board near the edges and corners of the frame, where lens distortion is strongest.`,
    );
  const dropped = reports.filter((r) => r.status !== 'used');
  if (dropped.length)
    warnings.push(
      `${dropped.length} photo(s) not used: ${dropped.map((r) => `${r.name} (${r.problem})`).join('; ')}`,
    );

  const profile: CameraProfile = {
    name: opts.profileName ?? `camera-${width}x${height}`,
    source: 'calibration',
    imageWidth: width,
    imageHeight: height,
    fx: fit.fx,
    fy: fit.fy,
    cx: fit.cx,
    cy: fit.cy,
    distortion: fit.distortion,
    rmsPx: fit.rms,
    createdAt: opts.createdAt ?? new Date().toISOString(),
    notes:
      `ChArUco calibration: board ${board.name} (${board.squaresX}×${board.squaresY} squares of ${board.squareLengthMm} mm, ` +
      `${board.dictionary}${board.legacyPattern ? ', legacy pattern' : ''}), ${kept.length} views, ` +
      `RMS ${fit.rms.toFixed(4)} px; 1σ fx ${fit.stdDev.fx.toFixed(2)}, fy ${fit.stdDev.fy.toFixed(2)}, ` +
      `cx ${fit.stdDev.cx.toFixed(2)}, cy ${fit.stdDev.cy.toFixed(2)} px.`,
  };
  return { profile, rmsPx: fit.rms, views: reports, stdDev: fit.stdDev, coverage, tiltSpreadDeg, warnings };
}

const ADVICE: Record<RefusalReason, string> = {
  'too-few-views': 'Take more photos of the board from different angles.',
  'image-size-mismatch': 'Use photos from one camera at one resolution.',
  'board-mismatch': 'Check the board spec against the printed board.',
  blurred:
    'Retake the blurred photos: focus on the board, use more light or a shorter exposure, hold the camera still.',
  'too-few-corners': 'Retake those photos with the whole board in the frame, unobstructed and without glare.',
  'views-too-similar':
    'Move the board between photos: tilt it 20–45° towards and away from the camera about both axes, and place it in different parts of the frame, including the corners.',
  'poor-fit': 'Check the board spec and retake the worst photos.',
  'calibration-failed': 'Retake the photos with more varied board positions.',
};

/** Sorted ids as ranges: 0–16, 20, 22–23. */
function formatIds(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length;) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j++;
    parts.push(j > i ? `${ids[i]}–${ids[j]}` : String(ids[i]));
    i = j + 1;
  }
  return parts.join(', ');
}

/** Message of an OpenCV.js exception (thrown as a pointer) or an ordinary error. */
function cvErrorMessage(cv: OpenCV, err: unknown): string {
  if (typeof err === 'number') {
    try {
      const msg: unknown = cv.exceptionFromPtr(err)?.msg;
      if (typeof msg === 'string') return msg.trim();
    } catch {
      /* fall through */
    }
    return `OpenCV exception ${err}`;
  }
  return err instanceof Error ? err.message : String(err);
}

function createBoard(
  cv: OpenCV,
  b: Pick<
    BoardSpec,
    'squaresX' | 'squaresY' | 'squareLengthMm' | 'markerLengthMm' | 'dictionary' | 'legacyPattern'
  >,
) {
  const dictionary = cv.getPredefinedDictionary(cv[BOARD_DICTIONARY_CONSTANTS[b.dictionary]]);
  const noIds = new cv.Mat();
  const board = new cv.aruco_CharucoBoard(
    new cv.Size(b.squaresX, b.squaresY),
    b.squareLengthMm,
    b.markerLengthMm,
    dictionary,
    noIds,
  );
  board.setLegacyPattern(b.legacyPattern);
  noIds.delete();
  dictionary.delete();
  const charucoParams = new cv.aruco_CharucoParameters();
  const detectorParams = new cv.aruco_DetectorParameters();
  const refineParams = new cv.aruco_RefineParameters(10, 3, true);
  const detector = new cv.aruco_CharucoDetector(board, charucoParams, detectorParams, refineParams);
  charucoParams.delete();
  detectorParams.delete();
  refineParams.delete();
  // Inner corners in board coordinates (mm, z = 0), indexed by ChArUco corner id.
  const chess = board.getChessboardCorners();
  const objectCorners: Vec3[] = [];
  for (let i = 0; i < chess.size(); i++) {
    const p = chess.get(i);
    objectCorners.push([p.x, p.y, p.z]);
  }
  chess.delete();
  return {
    board,
    detector,
    objectCorners,
    delete() {
      detector.delete();
      board.delete();
    },
  };
}

interface BoardDetection {
  readonly corners: Map<number, Point2>;
  readonly markerIds: number[];
  /** Bounding box of everything found, or null. */
  readonly box: { x0: number; y0: number; x1: number; y1: number } | null;
}

function detectBoard(cv: OpenCV, detector: OpenCV, gray: OpenCV): BoardDetection {
  const corners = new cv.Mat();
  const ids = new cv.Mat();
  const markerCorners = new cv.MatVector();
  const markerIds = new cv.Mat();
  try {
    detector.detectBoard(gray, corners, ids, markerCorners, markerIds);
    const found = new Map<number, Point2>();
    let box: BoardDetection['box'] = null;
    const grow = (x: number, y: number) => {
      box = box
        ? {
            x0: Math.min(box.x0, x),
            y0: Math.min(box.y0, y),
            x1: Math.max(box.x1, x),
            y1: Math.max(box.y1, y),
          }
        : { x0: x, y0: y, x1: x, y1: y };
    };
    const c = corners.data32F as Float32Array;
    for (let k = 0; k < ids.rows; k++) {
      const p = { x: c[2 * k]!, y: c[2 * k + 1]! };
      found.set(ids.intAt(k, 0), p);
      grow(p.x, p.y);
    }
    const mids: number[] = [];
    for (let k = 0; k < markerIds.rows; k++) {
      mids.push(markerIds.intAt(k, 0));
      const quad = markerCorners.get(k);
      const q = quad.data32F as Float32Array;
      for (let j = 0; j < 4; j++) grow(q[2 * j]!, q[2 * j + 1]!);
      quad.delete();
    }
    return { corners: found, markerIds: mids, box };
  } finally {
    corners.delete();
    ids.delete();
    markerCorners.delete();
    markerIds.delete();
  }
}

function detectAll(cv: OpenCV, board: BoardSpec, views: readonly CalibrationView[]): Detection[] {
  const { detector, objectCorners, delete: dispose } = createBoard(cv, board);
  const outline: Array<[number, number]> = [
    [0, 0],
    [board.squaresX * board.squareLengthMm, 0],
    [0, board.squaresY * board.squareLengthMm],
    [board.squaresX * board.squareLengthMm, board.squaresY * board.squareLengthMm],
  ];
  try {
    return views.map((v) => {
      const gray = toGrayMat(cv, v.image);
      try {
        const d = detectBoard(cv, detector, gray);
        // Measured on the board when enough of it was found, else on the whole picture (a box
        // around one or two markers is all fine detail and reads falsely sharp).
        const edgeBlurPx = edgeBlur(cv, gray, d.corners.size >= 6 ? d.box : null);
        const depthRatio = boardDepthRatio(cv, objectCorners, d.corners, outline);
        return { corners: d.corners, markerIds: d.markerIds, edgeBlurPx, depthRatio };
      } finally {
        gray.delete();
      }
    });
  } finally {
    dispose();
  }
}

/**
 * Edge blur σ in pixels over a region (the board, or the whole image when nothing was found):
 * for a step edge blurred by a Gaussian of σ, E[|∇I|²] / E[(ΔI)²] = 2σ², whatever the contrast
 * and the amount of edge in the region, so this is comparable across boards and exposures.
 */
export function edgeBlur(
  cv: OpenCV,
  gray: OpenCV,
  box: { x0: number; y0: number; x1: number; y1: number } | null,
): number {
  let x0 = 0;
  let y0 = 0;
  let x1 = gray.cols;
  let y1 = gray.rows;
  if (box && box.x1 - box.x0 >= 16 && box.y1 - box.y0 >= 16) {
    x0 = Math.max(0, Math.floor(box.x0));
    y0 = Math.max(0, Math.floor(box.y0));
    x1 = Math.min(gray.cols, Math.ceil(box.x1) + 1);
    y1 = Math.min(gray.rows, Math.ceil(box.y1) + 1);
  }
  const roi = gray.roi(new cv.Rect(x0, y0, x1 - x0, y1 - y0));
  const f = new cv.Mat();
  const gx = new cv.Mat();
  const gy = new cv.Mat();
  const lap = new cv.Mat();
  try {
    roi.convertTo(f, cv.CV_32F);
    cv.Sobel(f, gx, cv.CV_32F, 1, 0, 3);
    cv.Sobel(f, gy, cv.CV_32F, 0, 1, 3);
    cv.Laplacian(f, lap, cv.CV_32F, 1);
    // A 3×3 Sobel is 8× the derivative (central difference ×2, smoothing 1-2-1 ×4).
    const grad2 = (meanSquare(cv, gx) + meanSquare(cv, gy)) / 64;
    const lap2 = meanSquare(cv, lap);
    return lap2 > 0 ? Math.sqrt(grad2 / (2 * lap2)) : Infinity;
  } finally {
    roi.delete();
    f.delete();
    gx.delete();
    gy.delete();
    lap.delete();
  }
}

function meanSquare(cv: OpenCV, m: OpenCV): number {
  const mean = new cv.Mat();
  const sd = new cv.Mat();
  try {
    cv.meanStdDev(m, mean, sd);
    return (mean.doubleAt(0, 0) as number) ** 2 + (sd.doubleAt(0, 0) as number) ** 2;
  } finally {
    mean.delete();
    sd.delete();
  }
}

/**
 * How much farther the board's far outline corner is from the camera than its near one, from the
 * board-plane → image homography alone: for H = K[r1 r2 t], the third row gives each point's depth
 * up to one common scale, whatever K is. 1 means the board is square-on to the lens.
 */
function boardDepthRatio(
  cv: OpenCV,
  objectCorners: readonly Vec3[],
  corners: ReadonlyMap<number, Point2>,
  outline: ReadonlyArray<[number, number]>,
): number | null {
  if (corners.size < 6) return null;
  const src: number[] = [];
  const dst: number[] = [];
  for (const [id, p] of corners) {
    const o = objectCorners[id];
    if (!o) continue;
    src.push(o[0], o[1]);
    dst.push(p.x, p.y);
  }
  const a = cv.matFromArray(src.length / 2, 1, cv.CV_32FC2, src);
  const b = cv.matFromArray(dst.length / 2, 1, cv.CV_32FC2, dst);
  let H: OpenCV = null;
  try {
    H = cv.findHomography(a, b);
    if (H.empty()) return null;
    const h = H.data64F as Float64Array;
    const w = outline.map(([x, y]) => h[6]! * x + h[7]! * y + h[8]!);
    const lo = Math.min(...w);
    const hi = Math.max(...w);
    if (lo <= 0 || hi <= 0) return null;
    return hi / lo;
  } catch {
    return null;
  } finally {
    a.delete();
    b.delete();
    H?.delete();
  }
}

/** When markers are found but no corners, tries the likely spec mistakes and names the one that fits. */
function diagnoseLayout(cv: OpenCV, board: BoardSpec, views: readonly CalibrationView[]): string {
  const alternatives: Array<[string, BoardSpec]> = [];
  if (board.squaresY % 2 === 0)
    alternatives.push([
      `set "legacyPattern": ${!board.legacyPattern}`,
      { ...board, legacyPattern: !board.legacyPattern },
    ]);
  if (board.squaresX !== board.squaresY) {
    alternatives.push([
      `swap squaresX and squaresY (${board.squaresY}×${board.squaresX})`,
      { ...board, squaresX: board.squaresY, squaresY: board.squaresX },
    ]);
    if (board.squaresX % 2 === 0)
      alternatives.push([
        `swap squaresX and squaresY (${board.squaresY}×${board.squaresX}) and set "legacyPattern": ${!board.legacyPattern}`,
        { ...board, squaresX: board.squaresY, squaresY: board.squaresX, legacyPattern: !board.legacyPattern },
      ]);
  }
  const sample = views.slice(0, 3);
  for (const [advice, alt] of alternatives) {
    const { detector, delete: dispose } = createBoard(cv, alt);
    try {
      const hits = sample.reduce((n, v) => {
        const gray = toGrayMat(cv, v.image);
        try {
          return n + detectBoard(cv, detector, gray).corners.size;
        } finally {
          gray.delete();
        }
      }, 0);
      if (hits > 0) return `The photos match if you ${advice}.`;
    } finally {
      dispose();
    }
  }
  return 'Check squaresX (squares across) and squaresY (squares down), and legacyPattern for boards made with OpenCV before 4.6.';
}

/** True when all corners lie on one line (within 1 % of their spread). */
function collinear(corners: ReadonlyMap<number, Point2>): boolean {
  const pts = [...corners.values()];
  if (pts.length < 3) return true;
  const mx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const my = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of pts) {
    sxx += (p.x - mx) ** 2;
    syy += (p.y - my) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  const tr = sxx + syy;
  const disc = Math.sqrt(((sxx - syy) / 2) ** 2 + sxy ** 2);
  const small = tr / 2 - disc;
  const large = tr / 2 + disc;
  return large <= 0 || Math.sqrt(Math.max(small, 0) / large) < 0.01;
}

/** RMS distance between the corners two views share; Infinity if they share fewer than 4. */
function poseDistancePx(a: ReadonlyMap<number, Point2>, b: ReadonlyMap<number, Point2>): number {
  let sum = 0;
  let n = 0;
  for (const [id, p] of a) {
    const q = b.get(id);
    if (!q) continue;
    sum += (p.x - q.x) ** 2 + (p.y - q.y) ** 2;
    n++;
  }
  return n >= 4 ? Math.sqrt(sum / n) : Infinity;
}

function gridCoverage(
  views: ReadonlyArray<ReadonlyMap<number, Point2>>,
  width: number,
  height: number,
  nx: number,
  ny: number,
): number {
  const hit = new Set<number>();
  for (const v of views) {
    for (const p of v.values()) {
      const gx = Math.min(nx - 1, Math.max(0, Math.floor((p.x / width) * nx)));
      const gy = Math.min(ny - 1, Math.max(0, Math.floor((p.y / height) * ny)));
      hit.add(gy * nx + gx);
    }
  }
  return hit.size / (nx * ny);
}

type Vec3 = readonly [number, number, number];

function angleDeg(a: Vec3, b: Vec3): number {
  const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
  return (Math.acos(Math.min(1, dot)) * 180) / Math.PI;
}

interface Fit {
  readonly rms: number;
  readonly fx: number;
  readonly fy: number;
  readonly cx: number;
  readonly cy: number;
  readonly distortion: [number, number, number, number, number];
  readonly stdDev: { fx: number; fy: number; cx: number; cy: number };
  readonly perViewRms: readonly number[];
  /** Board normal in camera coordinates, per view. */
  readonly normals: readonly Vec3[];
  readonly tiltDeg: readonly number[];
}

function runCalibration(
  cv: OpenCV,
  board: BoardSpec,
  views: ReadonlyArray<ReadonlyMap<number, Point2>>,
  size: { width: number; height: number },
  reports: readonly ViewReport[],
): Fit {
  const owned: OpenCV[] = [];
  const own = <T>(m: T): T => {
    owned.push(m);
    return m;
  };
  try {
    const { objectCorners, delete: dispose } = createBoard(cv, board);
    dispose();

    const objectPoints = own(new cv.MatVector());
    const imagePoints = own(new cv.MatVector());
    for (const v of views) {
      const obj = new cv.Mat(v.size, 1, cv.CV_32FC3);
      const img = new cv.Mat(v.size, 1, cv.CV_32FC2);
      let k = 0;
      for (const [id, p] of [...v].sort((a, b) => a[0] - b[0])) {
        const o = objectCorners[id]!;
        obj.data32F.set(o, 3 * k);
        img.data32F.set([p.x, p.y], 2 * k);
        k++;
      }
      objectPoints.push_back(obj);
      imagePoints.push_back(img);
      obj.delete();
      img.delete();
    }
    const K = own(new cv.Mat());
    const D = own(new cv.Mat());
    const rvecs = own(new cv.MatVector());
    const tvecs = own(new cv.MatVector());
    const stdIntrinsics = own(new cv.Mat());
    const stdExtrinsics = own(new cv.Mat());
    const perView = own(new cv.Mat());
    let rms: number;
    try {
      rms = cv.calibrateCameraExtended(
        objectPoints,
        imagePoints,
        new cv.Size(size.width, size.height),
        K,
        D,
        rvecs,
        tvecs,
        stdIntrinsics,
        stdExtrinsics,
        perView,
        0,
      );
    } catch (err) {
      throw new CalibrationRefused(
        'calibration-failed',
        `OpenCV could not calibrate: ${cvErrorMessage(cv, err)}`,
        reports,
      );
    }
    const k = (i: number) => K.doubleAt(Math.floor(i / 3), i % 3) as number;
    const d = Array.from(D.data64F as Float64Array);
    const s = Array.from(stdIntrinsics.data64F as Float64Array);
    const normals: Vec3[] = [];
    const tiltDeg: number[] = [];
    const R = own(new cv.Mat());
    for (let i = 0; i < rvecs.size(); i++) {
      const rv = rvecs.get(i);
      cv.Rodrigues(rv, R);
      rv.delete();
      // Third column of R: the board's z axis (its normal) in camera coordinates.
      const n: Vec3 = [R.doubleAt(0, 2), R.doubleAt(1, 2), R.doubleAt(2, 2)];
      normals.push(n);
      tiltDeg.push(angleDeg(n, [0, 0, 1]));
    }
    return {
      rms,
      fx: k(0),
      fy: k(4),
      cx: k(2),
      cy: k(5),
      distortion: [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0, d[3] ?? 0, d[4] ?? 0],
      stdDev: { fx: s[0] ?? NaN, fy: s[1] ?? NaN, cx: s[2] ?? NaN, cy: s[3] ?? NaN },
      perViewRms: Array.from(perView.data64F as Float64Array),
      normals,
      tiltDeg,
    };
  } finally {
    for (const m of owned) m.delete();
  }
}
