import type { Pixel } from '../camera/projection.ts';

/**
 * A plane-to-image homography from four point pairs, and its inverse.
 *
 * Written by hand rather than asking OpenCV's getPerspectiveTransform: the decoder needs one per
 * candidate quad, and crossing into WebAssembly with Mats for an 8 × 8 solve costs more than the
 * solve itself.
 */

/** Row-major 3 × 3 matrix. */
export type Mat3 = readonly [number, number, number, number, number, number, number, number, number];

/**
 * The 8 × 8 system of a four-point homography, reused from call to call: the decoder and the
 * aligner make thousands a frame, and fresh row arrays for each were a large part of the vision
 * worker's garbage. Same elimination, same operations in the same order, so the same numbers.
 */
const N = 8;
const system = new Float64Array(N * N);
const rhs = new Float64Array(N);
const solution = new Float64Array(N);

/** Solves system · x = rhs (row-major) by Gaussian elimination with partial pivoting, into `solution`; false if singular. */
function solveSystem(): boolean {
  const a = system;
  const b = rhs;
  for (let col = 0; col < N; col++) {
    let pivot = col;
    for (let r = col + 1; r < N; r++)
      if (Math.abs(a[r * N + col]!) > Math.abs(a[pivot * N + col]!)) pivot = r;
    if (Math.abs(a[pivot * N + col]!) < 1e-12) return false;
    if (pivot !== col) {
      for (let c = 0; c < N; c++) {
        const t = a[col * N + c]!;
        a[col * N + c] = a[pivot * N + c]!;
        a[pivot * N + c] = t;
      }
      const t = b[col]!;
      b[col] = b[pivot]!;
      b[pivot] = t;
    }
    for (let r = col + 1; r < N; r++) {
      const f = a[r * N + col]! / a[col * N + col]!;
      if (f === 0) continue;
      for (let c = col; c < N; c++) a[r * N + c]! -= f * a[col * N + c]!;
      b[r]! -= f * b[col]!;
    }
  }
  const x = solution;
  x.fill(0);
  for (let r = N - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let c = r + 1; c < N; c++) s -= a[r * N + c]! * x[c]!;
    x[r] = s / a[r * N + r]!;
  }
  return true;
}

/** The homography H with H·(x, y, 1) ∝ (u, v, 1) for four pairs; null when the points are degenerate. */
export function homographyFrom(
  from: readonly { readonly x: number; readonly y: number }[],
  to: readonly Pixel[],
): Mat3 | null {
  if (from.length !== 4 || to.length !== 4) throw new Error('a homography needs exactly four point pairs');
  const a = system;
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { u, v } = to[i]!;
    const r0 = 2 * i * N;
    const r1 = r0 + N;
    a[r0] = x;
    a[r0 + 1] = y;
    a[r0 + 2] = 1;
    a[r0 + 3] = 0;
    a[r0 + 4] = 0;
    a[r0 + 5] = 0;
    a[r0 + 6] = -u * x;
    a[r0 + 7] = -u * y;
    rhs[2 * i] = u;
    a[r1] = 0;
    a[r1 + 1] = 0;
    a[r1 + 2] = 0;
    a[r1 + 3] = x;
    a[r1 + 4] = y;
    a[r1 + 5] = 1;
    a[r1 + 6] = -v * x;
    a[r1 + 7] = -v * y;
    rhs[2 * i + 1] = v;
  }
  if (!solveSystem()) return null;
  const h = solution;
  for (let k = 0; k < N; k++) if (!Number.isFinite(h[k]!)) return null;
  return [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!, 1];
}

export function applyHomography(h: Mat3, x: number, y: number): Pixel {
  const w = h[6] * x + h[7] * y + h[8];
  return { u: (h[0] * x + h[1] * y + h[2]) / w, v: (h[3] * x + h[4] * y + h[5]) / w };
}

/** The inverse of a 3 × 3 matrix (adjugate over determinant); null when singular. */
export function invert3(m: Mat3): Mat3 | null {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-15) return null;
  const k = 1 / det;
  return [
    A * k,
    -(b * i - c * h) * k,
    (b * f - c * e) * k,
    B * k,
    (a * i - c * g) * k,
    -(a * f - c * d) * k,
    C * k,
    -(a * h - b * g) * k,
    (a * e - b * d) * k,
  ];
}
