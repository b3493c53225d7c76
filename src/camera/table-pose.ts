/**
 * Where the table is, seen from the camera: a point X in table millimetres maps to camera
 * coordinates R·X + t (camera looks along +z, +x right, +y down, as in OpenCV).
 */
export interface TablePose {
  /** Row-major 3×3 rotation matrix. */
  readonly rotation: readonly [number, number, number, number, number, number, number, number, number];
  /** Translation in millimetres. */
  readonly translation: readonly [number, number, number];
}

export interface Vec3 {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

export function tableToCamera(pose: TablePose, p: Vec3): Vec3 {
  const [r0, r1, r2, r3, r4, r5, r6, r7, r8] = pose.rotation;
  const [tx, ty, tz] = pose.translation;
  return {
    x: r0 * p.x + r1 * p.y + r2 * p.z + tx,
    y: r3 * p.x + r4 * p.y + r5 * p.z + ty,
    z: r6 * p.x + r7 * p.y + r8 * p.z + tz,
  };
}

/** The camera's optical centre in table coordinates: −Rᵀ·t. */
export function cameraCentreOnTable(pose: TablePose): Vec3 {
  const [r0, r1, r2, r3, r4, r5, r6, r7, r8] = pose.rotation;
  const [tx, ty, tz] = pose.translation;
  return {
    x: -(r0 * tx + r3 * ty + r6 * tz),
    y: -(r1 * tx + r4 * ty + r7 * tz),
    z: -(r2 * tx + r5 * ty + r8 * tz),
  };
}
