import { describe, expect, test } from 'vitest';
import {
  boardCornerCount,
  boardLayout,
  boardMarkerCount,
  parseBoardSpec,
  type BoardSpec,
} from '../../src/camera/calibration-board.ts';
import { loadOpenCV } from '../../src/vision/opencv.ts';

/**
 * The pure-TypeScript board layout (used to print boards) must be OpenCV's: for each spec, OpenCV
 * draws the board (`CharucoBoard.generateImage`), its ArucoDetector finds the markers, and every
 * marker id must sit where our layout puts it; black squares must be black where we say.
 */

const PX_PER_MM = 4;

async function compare(spec: BoardSpec): Promise<void> {
  const cv = await loadOpenCV();
  const layout = boardLayout(spec);
  expect(layout.markers).toHaveLength(boardMarkerCount(spec));
  expect(layout.corners).toHaveLength(boardCornerCount(spec));

  const dictionary = cv.getPredefinedDictionary(cv.DICT_6X6_250);
  const noIds = new cv.Mat();
  const board = new cv.aruco_CharucoBoard(
    new cv.Size(spec.squaresX, spec.squaresY),
    spec.squareLengthMm,
    spec.markerLengthMm,
    dictionary,
    noIds,
  );
  board.setLegacyPattern(spec.legacyPattern);
  const margin = 40;
  const img = new cv.Mat();
  board.generateImage(
    new cv.Size(layout.widthMm * PX_PER_MM + 2 * margin, layout.heightMm * PX_PER_MM + 2 * margin),
    img,
    margin,
    1,
  );
  const params = new cv.aruco_DetectorParameters();
  const refine = new cv.aruco_RefineParameters(10, 3, true);
  const detector = new cv.aruco_ArucoDetector(dictionary, params, refine);
  const corners = new cv.MatVector();
  const ids = new cv.Mat();
  const rejected = new cv.MatVector();
  try {
    detector.detectMarkers(img, corners, ids, rejected);
    const found = new Map<number, { x: number; y: number }>();
    for (let i = 0; i < ids.rows; i++) {
      const q = corners.get(i);
      const d = q.data32F as Float32Array;
      found.set(ids.intAt(i, 0), {
        x: (d[0]! + d[2]! + d[4]! + d[6]!) / 4,
        y: (d[1]! + d[3]! + d[5]! + d[7]!) / 4,
      });
      q.delete();
    }
    expect([...found.keys()].sort((a, b) => a - b)).toEqual(layout.markers.map((m) => m.id));
    for (const m of layout.markers) {
      const c = found.get(m.id)!;
      // Pixel centres: OpenCV's px (i, j) covers [i, i+1); the marker centre in px is at mm × scale − 0.5.
      expect(Math.abs(c.x - (margin + (m.x + m.side / 2) * PX_PER_MM - 0.5))).toBeLessThan(1);
      expect(Math.abs(c.y - (margin + (m.y + m.side / 2) * PX_PER_MM - 0.5))).toBeLessThan(1);
    }
    for (const s of layout.blackSquares) {
      const px = Math.round(margin + (s.x + spec.squareLengthMm / 2) * PX_PER_MM);
      const py = Math.round(margin + (s.y + spec.squareLengthMm / 2) * PX_PER_MM);
      expect(img.ucharAt(py, px)).toBe(0);
    }
    expect(layout.blackSquares.length + layout.markers.length).toBe(spec.squaresX * spec.squaresY);
    // Inner corners agree with OpenCV's object points.
    const chess = board.getChessboardCorners();
    for (const c of layout.corners) {
      const p = chess.get(c.id);
      expect(p.x).toBeCloseTo(c.x, 3);
      expect(p.y).toBeCloseTo(c.y, 3);
    }
    chess.delete();
  } finally {
    for (const m of [img, corners, ids, rejected, detector, params, refine, board, noIds, dictionary])
      m.delete();
  }
}

const spec = (squaresX: number, squaresY: number, legacyPattern: boolean) =>
  parseBoardSpec({
    squaresX,
    squaresY,
    squareLength: 25,
    markerLength: 18,
    dictionary: 'aruco_6x6_250',
    legacyPattern,
  });

describe('board layout matches OpenCV CharucoBoard', () => {
  test('7 × 9 (odd rows; the default printable board)', () => compare(spec(7, 9, false)));
  test('5 × 6 (even rows, current pattern)', () => compare(spec(5, 6, false)));
  test('5 × 6 (even rows, legacy pattern)', () => compare(spec(5, 6, true)));
  test('6 × 7 (even columns)', () => compare(spec(6, 7, false)));
});
