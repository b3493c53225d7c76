import type { OpenCV } from '../vision/opencv.ts';
import type { CameraProfile } from './profile.ts';
import { projectTablePoint, type Pixel } from './projection.ts';
import type { TablePose, Vec3 } from './table-pose.ts';

/** A table point and where it was seen in the image. */
export interface Correspondence {
  readonly table: Vec3;
  readonly image: Pixel;
}

export interface PoseFit {
  readonly pose: TablePose;
  /** Root-mean-square reprojection error over all correspondences, pixels. */
  readonly rmsPx: number;
}

/**
 * Solves the table pose from table↔image correspondences with OpenCV's solvePnP (SQPnP, which
 * needs no initial guess and handles the all-coplanar reference markers), then polishes it with
 * Levenberg–Marquardt. `guess`, when given, seeds an iterative solve instead (continuous tracking).
 */
export function solveTablePose(
  cv: OpenCV,
  camera: CameraProfile,
  points: readonly Correspondence[],
  guess?: TablePose,
): PoseFit {
  if (points.length < 4) throw new Error(`solveTablePose needs at least 4 points, got ${points.length}`);
  const objectPoints = cv.matFromArray(
    points.length,
    3,
    cv.CV_64F,
    points.flatMap((p) => [p.table.x, p.table.y, p.table.z]),
  );
  const imagePoints = cv.matFromArray(
    points.length,
    2,
    cv.CV_64F,
    points.flatMap((p) => [p.image.u, p.image.v]),
  );
  const K = cv.matFromArray(3, 3, cv.CV_64F, [camera.fx, 0, camera.cx, 0, camera.fy, camera.cy, 0, 0, 1]);
  const dist = cv.matFromArray(1, 5, cv.CV_64F, [...camera.distortion]);
  const rvec = new cv.Mat();
  const tvec = new cv.Mat();
  const rotation = new cv.Mat();
  try {
    if (guess) {
      const R = cv.matFromArray(3, 3, cv.CV_64F, [...guess.rotation]);
      cv.Rodrigues(R, rvec);
      R.delete();
      tvec.create(3, 1, cv.CV_64F);
      tvec.data64F.set(guess.translation);
      cv.solvePnP(objectPoints, imagePoints, K, dist, rvec, tvec, true, cv.SOLVEPNP_ITERATIVE);
    } else {
      cv.solvePnP(objectPoints, imagePoints, K, dist, rvec, tvec, false, cv.SOLVEPNP_SQPNP);
    }
    const criteria = new cv.TermCriteria(cv.TermCriteria_EPS + cv.TermCriteria_COUNT, 50, 1e-10);
    cv.solvePnPRefineLM(objectPoints, imagePoints, K, dist, rvec, tvec, criteria);
    cv.Rodrigues(rvec, rotation);
    const r = Array.from(rotation.data64F as Float64Array);
    const t = Array.from(tvec.data64F as Float64Array);
    const pose: TablePose = {
      rotation: r as unknown as TablePose['rotation'],
      translation: [t[0]!, t[1]!, t[2]!],
    };
    return { pose, rmsPx: reprojectionRms(camera, pose, points) };
  } finally {
    for (const m of [objectPoints, imagePoints, K, dist, rvec, tvec, rotation]) m.delete();
  }
}

/** Reprojection error of each correspondence under a pose, pixels. */
export function reprojectionErrors(
  camera: CameraProfile,
  pose: TablePose,
  points: readonly Correspondence[],
): number[] {
  return points.map((p) => {
    const q = projectTablePoint(camera, pose, p.table);
    return q ? Math.hypot(q.u - p.image.u, q.v - p.image.v) : Infinity;
  });
}

export function reprojectionRms(
  camera: CameraProfile,
  pose: TablePose,
  points: readonly Correspondence[],
): number {
  const errors = reprojectionErrors(camera, pose, points);
  return Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / errors.length);
}
