import type { OpenCV } from '../vision/opencv.ts';
import type { BoardSpec } from './calibration-board.ts';
import { CalibrationRefused, type ViewReport } from './calibration-report.ts';
import { angleDeg, type Point2, type Vec3 } from './calibration-geometry.ts';
import { createBoard, cvErrorMessage } from './charuco-detection.ts';

/**
 * The fit itself: OpenCV's calibrateCameraExtended over the kept views' corners, giving the
 * intrinsics with their standard deviations, per-view RMS and each board's normal and tilt.
 */

export interface Fit {
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

export function runCalibration(
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
