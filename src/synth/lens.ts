/**
 * The synthetic camera's own lens model: OpenCV's Brown–Conrady distortion (k1, k2, p1, p2, k3)
 * on normalised coordinates. Written here, independently of src/camera, so that the renderer
 * stays a trustworthy oracle for the code that measures its pictures.
 */

export type Distortion = readonly [number, number, number, number, number];

export interface Intrinsics {
  readonly fx: number;
  readonly fy: number;
  readonly cx: number;
  readonly cy: number;
  readonly distortion: Distortion;
}

/** Undistorted normalised (x, y) → distorted normalised, exactly as cv::projectPoints does. */
export function distort(
  d: Distortion,
  x: number,
  y: number,
  out: Float64Array | number[] = [0, 0],
): typeof out {
  const [k1, k2, p1, p2, k3] = d;
  const r2 = x * x + y * y;
  const radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
  out[0] = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
  out[1] = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
  return out;
}

/**
 * Distorted normalised → undistorted normalised by Newton's method on the full 2×2 Jacobian
 * (not OpenCV's fixed-point iteration: a different algorithm, so a shared bug is unlikely).
 * Converges to ~1e-15 in a handful of steps for any sane lens inside its image.
 */
export function undistort(
  d: Distortion,
  xd: number,
  yd: number,
  out: Float64Array | number[] = [0, 0],
  /** Starting guess (e.g. a neighbour's solution); defaults to the distorted point. */
  x0 = xd,
  y0 = yd,
): typeof out {
  const [k1, k2, p1, p2, k3] = d;
  let x = x0;
  let y = y0;
  for (let i = 0; i < 20; i++) {
    const r2 = x * x + y * y;
    const radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
    const fx = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x) - xd;
    const fy = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y - yd;
    // d(radial)/d(r2), then the chain rule through r2 = x² + y².
    const dRad = k1 + r2 * (2 * k2 + 3 * r2 * k3);
    const a = radial + 2 * x * x * dRad + 2 * p1 * y + 6 * p2 * x;
    const b = 2 * x * y * dRad + 2 * p1 * x + 2 * p2 * y;
    const c = 2 * x * y * dRad + 2 * p1 * x + 2 * p2 * y;
    const e = radial + 2 * y * y * dRad + 6 * p1 * y + 2 * p2 * x;
    const det = a * e - b * c;
    const dx = (e * fx - b * fy) / det;
    const dy = (a * fy - c * fx) / det;
    x -= dx;
    y -= dy;
    if (dx * dx + dy * dy < 1e-30) break;
  }
  out[0] = x;
  out[1] = y;
  return out;
}

/** Camera-frame point → pixel (centres at integer coordinates); null behind the camera. */
export function cameraPointToPixel(
  k: Intrinsics,
  xc: number,
  yc: number,
  zc: number,
): { u: number; v: number } | null {
  if (zc <= 1e-9) return null;
  const p = distort(k.distortion, xc / zc, yc / zc);
  return { u: k.fx * (p[0] ?? 0) + k.cx, v: k.fy * (p[1] ?? 0) + k.cy };
}
