import type { MarkerBits } from './marker-bits.ts';

/**
 * How much of one sample's footprint on a printed marker is ink.
 *
 * A camera pixel adds up the light over its whole area. The renderer shades s × s point samples
 * a pixel, and a point on a marker is all ink or all paper, so every cell edge lands on a grid of
 * 1/s px: with the live table's 3 samples an edge is off by up to 1/6 px, the same way along a
 * whole edge. On a 12 mm tag at 1080p (12 px) that tilts the edges by up to ~0.8°, and the
 * benchmarks counted it as the detector's heading error (noise-free 12 mm tags at 1080p, heading
 * p95 0.48° with 3 samples, 0.18° with 9). Here each sample stands for its own footprint (a
 * parallelogram: the pixel's share mapped onto the marker's plane) and the ink under it is
 * integrated exactly, by clipping the footprint to each black cell it touches.
 */

/** More cells under one footprint than this (a grazing view): the caller point-samples instead. */
const MAX_CELLS = 64;

export class InkCoverage {
  // The footprint's parallelogram, loaded once per sample; scratch polygons for its clipped parts
  // (clipped by four axis lines it has at most 8 corners).
  private readonly px = new Float64Array(4);
  private readonly py = new Float64Array(4);
  private readonly ax = new Float64Array(12);
  private readonly ay = new Float64Array(12);
  private readonly bx = new Float64Array(12);
  private readonly by = new Float64Array(12);

  /**
   * The share of ink under the parallelogram centred at (a, b) with edges (uA, uB) and (vA, vB),
   * all in mm in the marker's frame (a along its right, b along its up, origin at its centre), for
   * a marker `sizeMm` wide with cells `bits`. Outside the cells is paper. NaN when the footprint is
   * degenerate or covers more than MAX_CELLS cells: the caller point-samples.
   */
  coverage(
    bits: MarkerBits,
    sizeMm: number,
    a: number,
    b: number,
    uA: number,
    uB: number,
    vA: number,
    vB: number,
  ): number {
    const n = bits.cells;
    const cell = sizeMm / n;
    // Grid units: x = column, y = row (rows run down the marker, against b).
    const gx = (a + sizeMm / 2) / cell;
    const gy = (sizeMm / 2 - b) / cell;
    const ux = uA / cell;
    const uy = -uB / cell;
    const vx = vA / cell;
    const vy = -vB / cell;
    const area = Math.abs(ux * vy - uy * vx);
    if (!(area > 1e-12)) return Number.NaN;
    const x0 = gx - (ux + vx) / 2;
    const y0 = gy - (uy + vy) / 2;
    const minX = x0 + Math.min(0, ux) + Math.min(0, vx);
    const maxX = x0 + Math.max(0, ux) + Math.max(0, vx);
    const minY = y0 + Math.min(0, uy) + Math.min(0, vy);
    const maxY = y0 + Math.max(0, uy) + Math.max(0, vy);
    const white = bits.white;
    const fc0 = Math.floor(minX);
    const fc1 = Math.floor(maxX);
    const fr0 = Math.floor(minY);
    const fr1 = Math.floor(maxY);
    // Wholly inside one cell (the common case on large cells): that cell's colour.
    if (fc0 === fc1 && fr0 === fr1) return inkAt(white, n, fc0, fr0) ? 1 : 0;
    this.loadParallelogram(x0, y0, ux, uy, vx, vy);
    // Across one cell edge only (most of the rest): one cut, and the two cells' colours.
    if (fr0 === fr1 && fc1 === fc0 + 1) {
      const left = inkAt(white, n, fc0, fr0);
      if (left === inkAt(white, n, fc1, fr0)) return left ? 1 : 0;
      const share = this.sideArea(0, fc1) / area;
      return Math.min(1, left ? share : 1 - share);
    }
    if (fc0 === fc1 && fr1 === fr0 + 1) {
      const top = inkAt(white, n, fc0, fr0);
      if (top === inkAt(white, n, fc0, fr1)) return top ? 1 : 0;
      const share = this.sideArea(1, fr1) / area;
      return Math.min(1, top ? share : 1 - share);
    }
    const c0 = Math.max(0, fc0);
    const c1 = Math.min(n - 1, fc1);
    const r0 = Math.max(0, fr0);
    const r1 = Math.min(n - 1, fr1);
    if (c0 > c1 || r0 > r1) return 0;
    if ((c1 - c0 + 1) * (r1 - r0 + 1) > MAX_CELLS) return Number.NaN;
    let inked = 0;
    for (let r = r0; r <= r1; r++)
      for (let c = c0; c <= c1; c++) if (white[r * n + c] === 0) inked += this.clippedArea(c, r);
    return Math.min(1, inked / area);
  }

  /** Area of the loaded parallelogram where coordinate `axis` is below `bound`. */
  private sideArea(axis: 0 | 1, bound: number): number {
    const m = clip(this.px, this.py, 4, this.bx, this.by, axis, bound, -1);
    return polygonArea(this.bx, this.by, m);
  }

  /** The parallelogram (x0, y0) + s·u + t·v, s, t ∈ [0, 1], as the sample's footprint. */
  private loadParallelogram(x0: number, y0: number, ux: number, uy: number, vx: number, vy: number): void {
    const { px, py } = this;
    px[0] = x0;
    py[0] = y0;
    px[1] = x0 + ux;
    py[1] = y0 + uy;
    px[2] = x0 + ux + vx;
    py[2] = y0 + uy + vy;
    px[3] = x0 + vx;
    py[3] = y0 + vy;
  }

  /** Area of the loaded parallelogram inside cell [c, c+1] × [r, r+1]. */
  private clippedArea(c: number, r: number): number {
    const { ax, ay, bx, by } = this;
    let m = clip(this.px, this.py, 4, bx, by, 0, c, 1);
    m = clip(bx, by, m, ax, ay, 0, c + 1, -1);
    m = clip(ax, ay, m, bx, by, 1, r, 1);
    m = clip(bx, by, m, ax, ay, 1, r + 1, -1);
    return polygonArea(ax, ay, m);
  }
}

/** Whether cell (c, r) of an n × n marker is ink (outside the marker is paper). */
function inkAt(white: Uint8Array, n: number, c: number, r: number): boolean {
  return c >= 0 && c < n && r >= 0 && r < n && white[r * n + c] === 0;
}

/** Area of polygon (xs, ys) of m corners (shoelace). */
function polygonArea(xs: Float64Array, ys: Float64Array, m: number): number {
  let twice = 0;
  for (let i = 0; i < m; i++) {
    const j = i + 1 === m ? 0 : i + 1;
    twice += xs[i]! * ys[j]! - xs[j]! * ys[i]!;
  }
  return Math.abs(twice) / 2;
}

/**
 * One Sutherland–Hodgman step: keeps the part of polygon (xs, ys, count) where
 * sign · (coordinate `axis` − bound) ≥ 0, into (ox, oy); returns its corner count.
 */
function clip(
  xs: Float64Array,
  ys: Float64Array,
  count: number,
  ox: Float64Array,
  oy: Float64Array,
  axis: 0 | 1,
  bound: number,
  sign: 1 | -1,
): number {
  let out = 0;
  for (let i = 0; i < count; i++) {
    const j = i + 1 === count ? 0 : i + 1;
    const di = sign * ((axis === 0 ? xs[i]! : ys[i]!) - bound);
    const dj = sign * ((axis === 0 ? xs[j]! : ys[j]!) - bound);
    if (di >= 0) {
      ox[out] = xs[i]!;
      oy[out] = ys[i]!;
      out++;
    }
    if (di >= 0 !== dj >= 0) {
      const t = di / (di - dj);
      ox[out] = xs[i]! + t * (xs[j]! - xs[i]!);
      oy[out] = ys[i]! + t * (ys[j]! - ys[i]!);
      out++;
    }
  }
  return out;
}
