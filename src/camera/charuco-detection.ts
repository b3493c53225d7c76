import { toGrayMat } from '../vision/grey-mat.ts';
import type { OpenCV } from '../vision/opencv.ts';
import { BOARD_DICTIONARY_CONSTANTS, type BoardSpec } from './calibration-board.ts';
import type { CalibrationView } from './calibration-report.ts';
import type { Point2, Vec3 } from './calibration-geometry.ts';

/**
 * Finding a ChArUco board in photos with OpenCV.js: its inner corners and marker ids per view,
 * how blurred the board region is, how tilted the board is (from the board-to-image homography,
 * before any calibration), and, when markers are found but no corners, which spec mistake fits.
 */

export interface Detection {
  readonly corners: ReadonlyMap<number, Point2>;
  readonly markerIds: readonly number[];
  readonly edgeBlurPx: number;
  readonly depthRatio: number | null;
}

/** Message of an OpenCV.js exception (thrown as a pointer) or an ordinary error. */
export function cvErrorMessage(cv: OpenCV, err: unknown): string {
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

export function createBoard(
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

export function detectAll(cv: OpenCV, board: BoardSpec, views: readonly CalibrationView[]): Detection[] {
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
export function diagnoseLayout(cv: OpenCV, board: BoardSpec, views: readonly CalibrationView[]): string {
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
