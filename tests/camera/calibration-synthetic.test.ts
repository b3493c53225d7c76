import { beforeAll, afterAll, describe, expect, test } from 'vitest';
import { parseBoardSpec, type BoardSpec } from '../../src/camera/calibration-board.ts';
import {
  CalibrationRefused,
  calibrateFromCharuco,
  type CalibrationView,
} from '../../src/camera/calibration.ts';
import { boardRotation, charucoBoardImage } from '../../src/synth/charuco-board.ts';
import { loadOpenCV, type OpenCV } from '../../src/vision/opencv.ts';

/**
 * Calibration against a camera whose truth we chose: OpenCV draws the board (`generateImage`, via
 * src/synth/charuco-board.ts),
 * and this file alone projects it through a pinhole camera (its own homography K·[r1 r2 t], no
 * code from src/camera) with `warpPerspective`. The calibrator must recover f, cx, cy, and must
 * refuse a set of square-on boards, which cannot determine focal length.
 */

const W = 1280;
const H = 720;
const TRUTH = { f: 1000, cx: 652, cy: 353 };
const PX_PER_MM = 8;

let cv: OpenCV;
let boardImage: OpenCV;
let spec: BoardSpec;

beforeAll(async () => {
  cv = await loadOpenCV();
  spec = parseBoardSpec({
    squaresX: 7,
    squaresY: 9,
    squareLength: 25,
    markerLength: 18,
    dictionary: 'aruco_6x6_250',
  });
  // OpenCV's drawing of the board (src/synth/charuco-board.ts, shared with the synthetic camera).
  const printed = await charucoBoardImage(spec, PX_PER_MM);
  boardImage = new cv.Mat(printed.height, printed.width, cv.CV_8UC1);
  (boardImage.data as Uint8Array).set(printed.data);
});
afterAll(() => boardImage?.delete());

type M3 = number[][];
const mul = (A: M3, B: M3): M3 =>
  A.map((row) => B[0]!.map((_, j) => row.reduce((s, v, k) => s + v * B[k]![j]!, 0)));
const rotation = boardRotation;

/** The board centred at t (mm, camera frame), rotated by (ax, ay, az) degrees, seen by the true camera. */
function render(
  name: string,
  ax: number,
  ay: number,
  az: number,
  tx: number,
  ty: number,
  tz: number,
): CalibrationView {
  const R = rotation(ax, ay, az);
  const K = [
    [TRUTH.f, 0, TRUTH.cx],
    [0, TRUTH.f, TRUTH.cy],
    [0, 0, 1],
  ];
  const Rt = [
    [R[0]![0]!, R[0]![1]!, tx],
    [R[1]![0]!, R[1]![1]!, ty],
    [R[2]![0]!, R[2]![1]!, tz],
  ];
  // Board-image pixel → board mm, centred on the board.
  const S = [
    [1 / PX_PER_MM, 0, -(spec.squaresX * spec.squareLengthMm) / 2],
    [0, 1 / PX_PER_MM, -(spec.squaresY * spec.squareLengthMm) / 2],
    [0, 0, 1],
  ];
  const Hm = cv.matFromArray(3, 3, cv.CV_64F, mul(mul(K, Rt), S).flat());
  const out = new cv.Mat();
  try {
    cv.warpPerspective(
      boardImage,
      out,
      Hm,
      new cv.Size(W, H),
      cv.INTER_AREA,
      cv.BORDER_CONSTANT,
      new cv.Scalar(128),
    );
    return { name, image: { width: W, height: H, channels: 1, data: new Uint8Array(out.data) } };
  } finally {
    Hm.delete();
    out.delete();
  }
}

describe('calibration against a rendered camera of known intrinsics', () => {
  test('recovers f, cx, cy from eight varied views', async () => {
    const views = [
      render('v0', 25, 0, 0, -40, -30, 500),
      render('v1', -25, 0, 10, 40, -30, 520),
      render('v2', 0, 25, -10, -40, 30, 480),
      render('v3', 0, -25, 5, 40, 30, 510),
      render('v4', 15, 15, 0, 0, 0, 450),
      render('v5', -15, -20, 30, 0, 0, 550),
      render('v6', 30, -10, -20, 60, 10, 600),
      render('v7', -20, 30, 15, -60, -10, 580),
    ];
    const r = await calibrateFromCharuco(spec, views);
    console.log(
      `synthetic: RMS ${r.rmsPx.toFixed(3)} px, fx ${r.profile.fx.toFixed(1)} fy ${r.profile.fy.toFixed(1)} ` +
        `cx ${r.profile.cx.toFixed(1)} cy ${r.profile.cy.toFixed(1)} (truth f ${TRUTH.f}, ${TRUTH.cx}, ${TRUTH.cy})`,
    );
    expect(r.views.every((v) => v.status === 'used' && v.cornersFound === 48)).toBe(true);
    expect(Math.abs(r.profile.fx - TRUTH.f) / TRUTH.f).toBeLessThan(0.01);
    expect(Math.abs(r.profile.fy - TRUTH.f) / TRUTH.f).toBeLessThan(0.01);
    expect(Math.abs(r.profile.cx - TRUTH.cx)).toBeLessThan(5);
    expect(Math.abs(r.profile.cy - TRUTH.cy)).toBeLessThan(5);
    // The truth has no distortion. Single coefficients trade off against each other, so check the
    // displacement they cause: under a pixel out to 350 px from the centre, where the views reach.
    const [k1, k2, p1, p2, k3] = r.profile.distortion;
    for (let rad = 0.05; rad <= 0.35; rad += 0.05) {
      const radial = rad * (k1 * rad ** 2 + k2 * rad ** 4 + k3 * rad ** 6);
      expect(
        Math.abs(radial * TRUTH.f) + (Math.abs(p1) + Math.abs(p2)) * 3 * rad ** 2 * TRUTH.f,
      ).toBeLessThan(1);
    }
    expect(r.rmsPx).toBeLessThan(0.5);
    // Tilt read back for each view matches the rendered one within a degree.
    const tilt = (ax: number, ay: number) =>
      (Math.acos(Math.cos((ax * Math.PI) / 180) * Math.cos((ay * Math.PI) / 180)) * 180) / Math.PI;
    expect(r.views[0]!.boardTiltDeg!).toBeCloseTo(tilt(25, 0), 0);
    expect(r.views[4]!.boardTiltDeg!).toBeCloseTo(tilt(15, 15), 0);
  });

  test('refuses boards held square-on to the lens in every view', async () => {
    const views = [
      render('p0', 0, 0, 0, -60, -40, 500),
      render('p1', 0, 0, 15, 60, -40, 520),
      render('p2', 0, 0, -10, -60, 40, 480),
      render('p3', 0, 0, 5, 60, 40, 510),
      render('p4', 0, 0, 0, 0, 0, 450),
    ];
    let refused: CalibrationRefused | undefined;
    try {
      await calibrateFromCharuco(spec, views);
    } catch (err) {
      if (err instanceof CalibrationRefused) refused = err;
      else throw err;
    }
    expect(refused?.reason).toBe('views-too-similar');
    expect(refused?.message).toMatch(/square-on to the camera in every photo/);
    for (const v of refused!.views) expect(v.depthRatio!).toBeLessThan(1.02);
  });
});
