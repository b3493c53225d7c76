import type { CameraProfile } from '../camera/profile.ts';
import type { TablePose, Vec3 } from '../camera/table-pose.ts';
import { cameraPointToPixel, distort, type Distortion, type Intrinsics } from './lens.ts';

/**
 * The virtual camera of the synthetic table: intrinsics, lens and where it hangs above the
 * table. All of its maths lives in src/synth so the renderer never borrows the Locator's.
 */
export interface SynthCamera extends Intrinsics {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  /** Row-major rotation, table → camera (Xc = R·X + t), OpenCV axes (+x right, +y down, +z forward). */
  readonly rotation: readonly [number, number, number, number, number, number, number, number, number];
  /** Translation in millimetres. */
  readonly translation: readonly [number, number, number];
}

export const RESOLUTIONS = {
  '720p': { width: 1280, height: 720 },
  '1080p': { width: 1920, height: 1080 },
  '4k': { width: 3840, height: 2160 },
} as const;
export type ResolutionName = keyof typeof RESOLUTIONS;

export interface FrameTableOptions {
  /** '720p' | '1080p' | '4k' or explicit size; default '1080p'. */
  readonly resolution?: ResolutionName | { readonly width: number; readonly height: number };
  /** Height of the optical centre above the table, mm (default 1200). */
  readonly heightMm?: number;
  /** Tilt from straight down, degrees, the camera pulled back toward the near (y = 0) edge (default 10). */
  readonly tiltDeg?: number;
  /** Extra sideways/forward shift of the camera in table mm, applied after the tilt (default 0). */
  readonly offsetMm?: { readonly x: number; readonly y: number };
  /** Point looked at (default the table centre, z = 0). */
  readonly lookAt?: Vec3;
  /** Roll about the optical axis, degrees (default 0). */
  readonly rollDeg?: number;
  /** Table border kept in view around the table, mm (default 40). */
  readonly marginMm?: number;
  /** Lens distortion [k1, k2, p1, p2, k3] (default a mild barrel lens). */
  readonly distortion?: Distortion;
  /** fy / fx (default 1: square pixels). */
  readonly aspect?: number;
  /** Principal point offset from the image centre, px (default a small realistic offset). */
  readonly principalOffsetPx?: { readonly x: number; readonly y: number };
  readonly name?: string;
}

export const DEFAULT_DISTORTION: Distortion = [-0.08, 0.03, 0.0006, -0.0004, 0];

type Mat3 = [number, number, number, number, number, number, number, number, number];

function normalise3(v: [number, number, number]): [number, number, number] {
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}
function cross3(a: readonly number[], b: readonly number[]): [number, number, number] {
  const [a0 = 0, a1 = 0, a2 = 0] = a;
  const [b0 = 0, b1 = 0, b2 = 0] = b;
  return [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0];
}

/**
 * A camera hung above the table looking at its centre, tilted back toward the players' (y = 0)
 * edge, with the focal length chosen so that the table plus `marginMm` fills the frame.
 * Image "up" is table +y, image right is table +x (as a player standing at y = 0 sees it).
 */
export function frameTable(
  table: { readonly widthMm: number; readonly depthMm: number },
  options: FrameTableOptions = {},
): SynthCamera {
  const res =
    typeof options.resolution === 'object' ? options.resolution : RESOLUTIONS[options.resolution ?? '1080p'];
  const { width, height } = res;
  const h = options.heightMm ?? 1200;
  const tilt = ((options.tiltDeg ?? 10) * Math.PI) / 180;
  const target = options.lookAt ?? { x: table.widthMm / 2, y: table.depthMm / 2, z: 0 };
  const off = options.offsetMm ?? { x: 0, y: 0 };
  const centre: [number, number, number] = [
    target.x + off.x,
    target.y - (h - target.z) * Math.tan(tilt) + off.y,
    h,
  ];

  // Look-at frame: z toward the target; x as close to table +x as the view allows.
  const z = normalise3([target.x - centre[0], target.y - centre[1], target.z - centre[2]]);
  // x: the part of table +x perpendicular to the optical axis (z × (eₓ × z)); y = z × x.
  let x = normalise3(cross3(z, cross3([1, 0, 0], z)));
  let y = cross3(z, x);
  const roll = ((options.rollDeg ?? 0) * Math.PI) / 180;
  if (roll !== 0) {
    const c = Math.cos(roll);
    const s = Math.sin(roll);
    const xr: [number, number, number] = [c * x[0] + s * y[0], c * x[1] + s * y[1], c * x[2] + s * y[2]];
    const yr: [number, number, number] = [-s * x[0] + c * y[0], -s * x[1] + c * y[1], -s * x[2] + c * y[2]];
    x = xr;
    y = yr;
  }
  const rotation: Mat3 = [x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]];
  const translation: [number, number, number] = [
    -(x[0] * centre[0] + x[1] * centre[1] + x[2] * centre[2]),
    -(y[0] * centre[0] + y[1] * centre[1] + y[2] * centre[2]),
    -(z[0] * centre[0] + z[1] * centre[1] + z[2] * centre[2]),
  ];

  const distortion = options.distortion ?? DEFAULT_DISTORTION;
  const aspect = options.aspect ?? 1;
  const pp = options.principalOffsetPx ?? { x: width * 0.004, y: -height * 0.005 };
  const cx = (width - 1) / 2 + pp.x;
  const cy = (height - 1) / 2 + pp.y;

  // Focal length: the largest f for which every point of the table border (+ margin) lands
  // inside the image after distortion. Sample the border densely; distortion is not linear.
  const m = options.marginMm ?? 40;
  const border: [number, number][] = [];
  const n = 64;
  for (let i = 0; i <= n; i++) {
    const tx = -m + ((table.widthMm + 2 * m) * i) / n;
    const ty = -m + ((table.depthMm + 2 * m) * i) / n;
    border.push([tx, -m], [tx, table.depthMm + m], [-m, ty], [table.widthMm + m, ty]);
  }
  const d = [0, 0];
  let f = Infinity;
  for (const [bx, by] of border) {
    const xc = rotation[0] * bx + rotation[1] * by + translation[0];
    const yc = rotation[3] * bx + rotation[4] * by + translation[1];
    const zc = rotation[6] * bx + rotation[7] * by + translation[2];
    distort(distortion, xc / zc, yc / zc, d);
    const dx = d[0] ?? 0;
    const dy = (d[1] ?? 0) * aspect;
    // Room from the principal point to the image edge in the direction of this point.
    const roomX = dx >= 0 ? width - 0.5 - cx : cx + 0.5;
    const roomY = dy >= 0 ? height - 0.5 - cy : cy + 0.5;
    if (Math.abs(dx) > 1e-12) f = Math.min(f, roomX / Math.abs(dx));
    if (Math.abs(dy) > 1e-12) f = Math.min(f, roomY / Math.abs(dy));
  }
  return {
    name: options.name ?? `synthetic-${width}x${height}`,
    width,
    height,
    fx: f,
    fy: f * aspect,
    cx,
    cy,
    distortion,
    rotation,
    translation,
  };
}

/** The camera as a profile the rest of Vedette reads (source 'synthetic'). */
export function syntheticCameraProfile(cam: SynthCamera): CameraProfile {
  return {
    name: cam.name,
    source: 'synthetic',
    imageWidth: cam.width,
    imageHeight: cam.height,
    fx: cam.fx,
    fy: cam.fy,
    cx: cam.cx,
    cy: cam.cy,
    distortion: [...cam.distortion],
    notes: 'Exact intrinsics of the synthetic table camera (src/synth/camera.ts).',
  };
}

/** Where the table really is, seen from this camera. */
export function truePose(cam: SynthCamera): TablePose {
  return { rotation: [...cam.rotation], translation: [...cam.translation] };
}

/** The camera's optical centre in table millimetres (−Rᵀt). */
export function cameraCentre(cam: SynthCamera): Vec3 {
  const r = cam.rotation;
  const [tx, ty, tz] = cam.translation;
  return {
    x: -(r[0] * tx + r[3] * ty + r[6] * tz),
    y: -(r[1] * tx + r[4] * ty + r[7] * tz),
    z: -(r[2] * tx + r[5] * ty + r[8] * tz),
  };
}

/** Projects a table point (mm) to a pixel with the synthetic camera's own model. */
export function projectPoint(cam: SynthCamera, p: Vec3): { u: number; v: number } | null {
  const r = cam.rotation;
  const [tx, ty, tz] = cam.translation;
  return cameraPointToPixel(
    cam,
    r[0] * p.x + r[1] * p.y + r[2] * p.z + tx,
    r[3] * p.x + r[4] * p.y + r[5] * p.z + ty,
    r[6] * p.x + r[7] * p.y + r[8] * p.z + tz,
  );
}
