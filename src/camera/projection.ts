import type { CameraProfile } from './profile.ts';
import { tableToCamera, type TablePose, type Vec3 } from './table-pose.ts';

/**
 * Pixel ↔ table mapping through a camera profile. Pure TypeScript so the browser can draw
 * overlays with exactly the model the server measures with. OpenCV.js 4.12 does not export
 * `undistortPoints`, so the inverse distortion is the same fixed-point iteration OpenCV uses.
 */

export interface Pixel {
  readonly u: number;
  readonly v: number;
}

type Intrinsics = Pick<CameraProfile, 'fx' | 'fy' | 'cx' | 'cy' | 'distortion'>;

/** Applies lens distortion to normalised (z = 1) coordinates and maps them to pixels. */
export function normalisedToPixel(cam: Intrinsics, x: number, y: number): Pixel {
  const [k1, k2, p1, p2, k3] = cam.distortion;
  const r2 = x * x + y * y;
  const radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
  const xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
  const yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
  return { u: cam.fx * xd + cam.cx, v: cam.fy * yd + cam.cy };
}

/** Removes lens distortion: pixel → normalised undistorted coordinates. */
export function pixelToNormalised(cam: Intrinsics, px: Pixel, iterations = 20): { x: number; y: number } {
  const [k1, k2, p1, p2, k3] = cam.distortion;
  const xd = (px.u - cam.cx) / cam.fx;
  const yd = (px.v - cam.cy) / cam.fy;
  let x = xd;
  let y = yd;
  for (let i = 0; i < iterations; i++) {
    const r2 = x * x + y * y;
    const radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
    const dx = 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
    const dy = p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
    x = (xd - dx) / radial;
    y = (yd - dy) / radial;
  }
  return { x, y };
}

/** Projects a table point (mm, z up) into the image; null when it is behind the camera. */
export function projectTablePoint(cam: Intrinsics, pose: TablePose, p: Vec3): Pixel | null {
  const c = tableToCamera(pose, p);
  if (c.z <= 1e-6) return null;
  return normalisedToPixel(cam, c.x / c.z, c.y / c.z);
}

/**
 * Back-projects a pixel onto the horizontal plane at height z above the table: the point of
 * the table frame whose image is `px` and whose height is z. Null if the ray misses the plane.
 */
export function pixelToTablePlane(cam: Intrinsics, pose: TablePose, px: Pixel, z: number): Vec3 | null {
  const n = pixelToNormalised(cam, px);
  const [r0, r1, r2, r3, r4, r5, r6, r7, r8] = pose.rotation;
  const [tx, ty, tz] = pose.translation;
  // Camera centre C = −Rᵀt and ray direction d = Rᵀ(x, y, 1), both in table coordinates.
  const cx = -(r0 * tx + r3 * ty + r6 * tz);
  const cy = -(r1 * tx + r4 * ty + r7 * tz);
  const cz = -(r2 * tx + r5 * ty + r8 * tz);
  const dx = r0 * n.x + r3 * n.y + r6;
  const dy = r1 * n.x + r4 * n.y + r7;
  const dz = r2 * n.x + r5 * n.y + r8;
  if (Math.abs(dz) < 1e-12) return null;
  const s = (z - cz) / dz;
  if (s <= 0) return null;
  return { x: cx + s * dx, y: cy + s * dy, z };
}
