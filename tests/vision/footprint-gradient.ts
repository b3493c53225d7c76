import type { Mat3 } from '../../src/vision/homography.ts';

/**
 * A footprint's reported gradient against central differences of its own picture as the grid
 * moves by ±`step` (a translation after `toGrid`: the Jacobian, so the kernel, is unchanged).
 * `render(toGrid)` returns each pixel's whiteness; `gradient` is the footprint's (∂/∂gx, ∂/∂gy
 * interleaved). Returns the worst difference and the largest finite-difference slope.
 */
export function gradientAgainstDifferences(
  toGrid: Mat3,
  gradient: Float64Array,
  count: number,
  step: number,
  render: (toGrid: Mat3) => Float64Array,
): { worst: number; largest: number } {
  const shifted = (dx: number, dy: number): Float64Array => {
    const t = Array.from(toGrid) as number[];
    for (let k = 0; k < 3; k++) {
      t[k] = t[k]! + dx * t[6 + k]!;
      t[3 + k] = t[3 + k]! + dy * t[6 + k]!;
    }
    return render(t as unknown as Mat3);
  };
  const [xp, xm, yp, ym] = [shifted(step, 0), shifted(-step, 0), shifted(0, step), shifted(0, -step)];
  let worst = 0;
  let largest = 0;
  for (let i = 0; i < count; i++) {
    const fx = (xp[i]! - xm[i]!) / (2 * step);
    const fy = (yp[i]! - ym[i]!) / (2 * step);
    worst = Math.max(worst, Math.abs(gradient[2 * i]! - fx), Math.abs(gradient[2 * i + 1]! - fy));
    largest = Math.max(largest, Math.abs(fx), Math.abs(fy));
  }
  return { worst, largest };
}
