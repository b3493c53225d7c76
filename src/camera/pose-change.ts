import type { CameraProfile } from './profile.ts';
import { projectTablePoint } from './projection.ts';
import type { TablePose } from './table-pose.ts';

/**
 * How far the table appears to have moved in the image between two poses: the largest shift,
 * in pixels, of the table's four corners. Pixels are what detection noise is measured in, so
 * one threshold serves every camera height and lens.
 */
export function poseShiftPx(
  camera: CameraProfile,
  table: { readonly widthMm: number; readonly depthMm: number },
  a: TablePose,
  b: TablePose,
): number {
  const corners = [
    { x: 0, y: 0, z: 0 },
    { x: table.widthMm, y: 0, z: 0 },
    { x: table.widthMm, y: table.depthMm, z: 0 },
    { x: 0, y: table.depthMm, z: 0 },
  ];
  let worst = 0;
  for (const c of corners) {
    const pa = projectTablePoint(camera, a, c);
    const pb = projectTablePoint(camera, b, c);
    if (!pa || !pb) return Infinity;
    worst = Math.max(worst, Math.hypot(pa.u - pb.u, pa.v - pb.v));
  }
  return worst;
}
