import type { Mat3 } from './homography.ts';
import {
  writePixel,
  type OuterWeights,
  type PixelSet,
  type predictWhiteness,
  type WhitenessGradient,
} from './tag-footprint.ts';
import { WorkArray } from './work-array.ts';

/**
 * The marker's picture as a camera makes it in two steps: each pixel integrates the ink over its
 * own square (exactly: the square mapped onto the tag's grid and cut against the cells), and the
 * pixels are then filtered by a small discrete kernel (lens blur as the sensor samples it,
 * demosaicing, sharpening). `kernel` is that filter along one image axis (odd length, sums to 1),
 * applied along both.
 */

/** Grid → cell classification, as gaussian-footprint.ts: pattern inside, paper one cell round, outer past. */
const work = {
  sharp: new WorkArray(Float64Array),
  sharpOuter: new WorkArray(Float64Array),
  gradX: new WorkArray(Float64Array),
  gradY: new WorkArray(Float64Array),
  outerX: new WorkArray(Float64Array),
  outerY: new WorkArray(Float64Array),
  lattice: new WorkArray(Float64Array),
  needRow: new WorkArray(Int32Array),
  needInk: new WorkArray(Int32Array),
  rowSharp: new WorkArray(Float64Array),
  rowOuter: new WorkArray(Float64Array),
  rowGx: new WorkArray(Float64Array),
  rowGy: new WorkArray(Float64Array),
  rowOx: new WorkArray(Float64Array),
  rowOy: new WorkArray(Float64Array),
};

const clipA = new Float64Array(32);
const clipB = new Float64Array(32);

/**
 * Area of the convex polygon (xs, ys interleaved, n points, within [minX, maxX] × [minY, maxY]) cut
 * to [x0, x1] × [y0, y1]: Sutherland–Hodgman, skipping the sides the polygon lies wholly inside.
 */
function clippedArea(
  poly: Float64Array,
  n: number,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
  minX: number,
  maxX: number,
  minY: number,
  maxY: number,
): number {
  let src: Float64Array = poly;
  let dst = clipA;
  let count = n;
  for (let side = 0; side < 4 && count > 0; side++) {
    if (side === 0 ? minX >= x0 : side === 1 ? maxX <= x1 : side === 2 ? minY >= y0 : maxY <= y1) continue;
    let out = 0;
    let ax = src[2 * count - 2]!;
    let ay = src[2 * count - 1]!;
    let da = side === 0 ? ax - x0 : side === 1 ? x1 - ax : side === 2 ? ay - y0 : y1 - ay;
    for (let i = 0; i < count; i++) {
      const bx = src[2 * i]!;
      const by = src[2 * i + 1]!;
      const db = side === 0 ? bx - x0 : side === 1 ? x1 - bx : side === 2 ? by - y0 : y1 - by;
      // Edge a → b: its crossing, then b if inside.
      if (da >= 0 !== db >= 0) {
        const t = da / (da - db);
        dst[2 * out] = ax + t * (bx - ax);
        dst[2 * out + 1] = ay + t * (by - ay);
        out++;
      }
      if (db >= 0) {
        dst[2 * out] = bx;
        dst[2 * out + 1] = by;
        out++;
      }
      ax = bx;
      ay = by;
      da = db;
    }
    src = dst;
    dst = dst === clipA ? clipB : clipA;
    count = out;
  }
  let area = 0;
  let px = src[2 * count - 2]!;
  let py = src[2 * count - 1]!;
  for (let i = 0; i < count; i++) {
    const x = src[2 * i]!;
    const y = src[2 * i + 1]!;
    area += px * y - x * py;
    px = x;
    py = y;
  }
  return Math.abs(area) / 2;
}

const quad = new Float64Array(8);

/** A cell's value: the pattern inside, paper (1) one cell round, and −1 past the quiet zone. */
function cellValue(pattern: Float64Array, cells: number, cx: number, cy: number): number {
  if (cy < -1 || cy > cells || cx < -1 || cx > cells) return -1;
  return cy >= 0 && cy < cells && cx >= 0 && cx < cells ? pattern[cy * cells + cx]! : 1;
}

/** Largest cell span of a pixel's quad handled (cells + 1 boundaries each way). */
const MAX_SPAN = 9;
/** F(i, j): the quad's area left of the i-th and above the j-th grid line of its box. */
const below = new Float64Array((MAX_SPAN + 1) * (MAX_SPAN + 1));
const crossings = new Float64Array(2 * MAX_SPAN + 4);

/**
 * The quad's (grid coordinates in `quad`) white share and share past the quiet zone, and their
 * gradients as the quad moves across the grid. Areas per cell by inclusion–exclusion of the areas
 * left of and above each grid line; d(area in a region)/d(shift) is the quad's outward normal
 * integrated along the part of its boundary inside that region.
 */
function integrate(pattern: Float64Array, cells: number, withGradient: boolean, out: Float64Array): boolean {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  let signed = 0;
  for (let k = 0; k < 4; k++) {
    const x = quad[2 * k]!;
    const y = quad[2 * k + 1]!;
    const j = (k + 1) % 4;
    signed += x * quad[2 * j + 1]! - quad[2 * j]! * y;
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const total = Math.abs(signed) / 2;
  out.fill(0);
  if (!(total > 0)) return true;
  const cx0 = Math.floor(minX);
  const cy0 = Math.floor(minY);
  const nx = Math.floor(maxX) - cx0 + 1;
  const ny = Math.floor(maxY) - cy0 + 1;
  if (nx > MAX_SPAN || ny > MAX_SPAN) return false;
  if (nx === 1 && ny === 1) {
    // Inside one cell: its value, and the boundary's normals cancel (no gradient).
    const v = cellValue(pattern, cells, cx0, cy0);
    if (v < 0) out[3] = 1;
    else out[0] = v;
    return true;
  }
  // F over the box's grid lines: F(0, ·) = F(·, 0) = 0, F(nx, j) the area above line j, and so on.
  const stride = ny + 1;
  for (let i = 0; i <= nx; i++)
    for (let j = 0; j <= ny; j++)
      below[i * stride + j] =
        i === 0 || j === 0
          ? 0
          : clippedArea(
              quad,
              4,
              -Infinity,
              i === nx ? Infinity : cx0 + i,
              -Infinity,
              j === ny ? Infinity : cy0 + j,
              minX,
              maxX,
              minY,
              maxY,
            );
  let white = 0;
  let outer = 0;
  for (let i = 0; i < nx; i++)
    for (let j = 0; j < ny; j++) {
      const v = cellValue(pattern, cells, cx0 + i, cy0 + j);
      if (v === 0) continue;
      const a =
        below[(i + 1) * stride + j + 1]! -
        below[i * stride + j + 1]! -
        below[(i + 1) * stride + j]! +
        below[i * stride + j]!;
      if (v < 0) outer += a;
      else white += a * v;
    }
  out[0] = white / total;
  out[3] = outer / total;
  if (!withGradient) return true;
  // Each edge cut where it crosses grid lines; every piece lies in one cell (found at its middle).
  const orientation = signed > 0 ? 1 : -1;
  for (let k = 0; k < 4; k++) {
    const j = (k + 1) % 4;
    const ax = quad[2 * k]!;
    const ay = quad[2 * k + 1]!;
    const dx = quad[2 * j]! - ax;
    const dy = quad[2 * j + 1]! - ay;
    let count = 0;
    crossings[count++] = 0;
    for (let g = cx0 + 1; g < cx0 + nx; g++) {
      const t = (g - ax) / dx;
      if (t > 0 && t < 1) crossings[count++] = t;
    }
    for (let g = cy0 + 1; g < cy0 + ny; g++) {
      const t = (g - ay) / dy;
      if (t > 0 && t < 1) crossings[count++] = t;
    }
    crossings[count++] = 1;
    // A handful of values: insertion sort.
    for (let a = 1; a < count; a++) {
      const t = crossings[a]!;
      let b = a - 1;
      while (b >= 0 && crossings[b]! > t) {
        crossings[b + 1] = crossings[b]!;
        b--;
      }
      crossings[b + 1] = t;
    }
    for (let p = 0; p + 1 < count; p++) {
      const share = crossings[p + 1]! - crossings[p]!;
      if (!(share > 0)) continue;
      const mid = (crossings[p]! + crossings[p + 1]!) / 2;
      const v = cellValue(pattern, cells, Math.floor(ax + mid * dx), Math.floor(ay + mid * dy));
      if (v === 0) continue;
      const nxs = orientation * share * dy;
      const nys = -orientation * share * dx;
      if (v < 0) {
        out[4]! += nxs / total;
        out[5]! += nys / total;
      } else {
        out[1]! += (v * nxs) / total;
        out[2]! += (v * nys) / total;
      }
    }
  }
  return true;
}
const integrated = new Float64Array(6);

/**
 * Expected whiteness of every pixel (predictWhiteness's contract: gradients in grid coordinates,
 * the footprint translated rigidly), the ink integrated over each pixel's square and then filtered
 * by `kernel` along both image axes.
 */
export function predictWhitenessBoxed(
  pixels: PixelSet,
  toGrid: Mat3,
  pattern: Float64Array,
  cells: number,
  kernel: Float32Array | Float64Array,
  out: Float64Array,
  withGradient: WhitenessGradient | null = null,
  outer: OuterWeights | null = null,
): boolean {
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = toGrid;
  const r = (kernel.length - 1) / 2;
  let ua = Infinity;
  let ub = -Infinity;
  let va = Infinity;
  let vb = -Infinity;
  for (let i = 0; i < pixels.count; i++) {
    ua = Math.min(ua, pixels.u[i]!);
    ub = Math.max(ub, pixels.u[i]!);
    va = Math.min(va, pixels.v[i]!);
    vb = Math.max(vb, pixels.v[i]!);
  }
  ua -= r;
  va -= r;
  ub += r;
  vb += r;
  const width = ub - ua + 1;
  const height = vb - va + 1;
  const size = width * height;
  const sharp = work.sharp.take(size);
  const sharpOuter = work.sharpOuter.take(size);
  const gx = withGradient ? work.gradX.take(size) : null;
  const gy = withGradient ? work.gradY.take(size) : null;
  const ox = withGradient && outer?.gradient ? work.outerX.take(size) : null;
  const oy = withGradient && outer?.gradient ? work.outerY.take(size) : null;
  // Which filtered-along-rows values the pixel set needs (its column, r rows either side), and
  // which pixels' ink those need (r columns either side): a sparse set (a sheet's edges) costs
  // only its own neighbourhood.
  const needRow = work.needRow.take(size);
  const needInk = work.needInk.take(size);
  for (let i = 0; i < pixels.count; i++) {
    const x = pixels.u[i]! - ua;
    const y = pixels.v[i]! - va;
    for (let j = -r; j <= r; j++) needRow[(y + j) * width + x] = 1;
  }
  for (let k = 0; k < size; k++) if (needRow[k] === 1) for (let i = -r; i <= r; i++) needInk[k + i] = 1;
  // Pixel corners on the grid, each shared by four pixels: (width + 1) × (height + 1).
  const lattice = work.lattice.take(2 * (width + 1) * (height + 1));
  for (let y = 0; y <= height; y++)
    for (let x = 0; x <= width; x++) {
      const u = ua + x - 0.5;
      const v = va + y - 0.5;
      const z = h6 * u + h7 * v + h8;
      const k = 2 * (y * (width + 1) + x);
      lattice[k] = (h0 * u + h1 * v + h2) / z;
      lattice[k + 1] = (h3 * u + h4 * v + h5) / z;
    }
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (needInk[y * width + x] === 0) continue;
      const k00 = 2 * (y * (width + 1) + x);
      const k10 = k00 + 2;
      const k11 = k10 + 2 * (width + 1);
      const k01 = k00 + 2 * (width + 1);
      quad[0] = lattice[k00]!;
      quad[1] = lattice[k00 + 1]!;
      quad[2] = lattice[k10]!;
      quad[3] = lattice[k10 + 1]!;
      quad[4] = lattice[k11]!;
      quad[5] = lattice[k11 + 1]!;
      quad[6] = lattice[k01]!;
      quad[7] = lattice[k01 + 1]!;
      if (!Number.isFinite(quad[0] + quad[2] + quad[4] + quad[6] + quad[1] + quad[3] + quad[5] + quad[7]))
        return false;
      const k = y * width + x;
      if (!integrate(pattern, cells, gx !== null, integrated)) return false;
      sharp[k] = integrated[0]!;
      sharpOuter[k] = integrated[3]!;
      if (gx && gy) {
        gx[k] = integrated[1]!;
        gy[k] = integrated[2]!;
      }
      if (ox && oy) {
        ox[k] = integrated[4]!;
        oy[k] = integrated[5]!;
      }
    }
  // Separable: each image filtered along its rows first (columns the pixel set needs), then
  // along the column at each pixel.
  const rows = (img: Float64Array | null, into: WorkArray<Float64Array>): Float64Array | null => {
    if (!img) return null;
    const out = into.take(size);
    for (let y = 0; y < height; y++)
      for (let x = r; x < width - r; x++) {
        if (needRow[y * width + x] === 0) continue;
        let sum = 0;
        const at = y * width + x - r;
        for (let i = 0; i < kernel.length; i++) sum += kernel[i]! * img[at + i]!;
        out[y * width + x] = sum;
      }
    return out;
  };
  const rowSharp = rows(sharp, work.rowSharp)!;
  const rowOuter = rows(outer ? sharpOuter : null, work.rowOuter);
  const rowGx = rows(gx, work.rowGx);
  const rowGy = rows(gy, work.rowGy);
  const rowOx = rows(ox, work.rowOx);
  const rowOy = rows(oy, work.rowOy);
  const filtered = (img: Float64Array | null, u: number, v: number): number => {
    if (!img) return 0;
    let sum = 0;
    const at = (v - va - r) * width + (u - ua);
    for (let j = 0; j < kernel.length; j++) sum += kernel[j]! * img[at + j * width]!;
    return sum;
  };
  for (let i = 0; i < pixels.count; i++) {
    const u = pixels.u[i]!;
    const v = pixels.v[i]!;
    const w = h6 * u + h7 * v + h8;
    writePixel(
      i,
      out,
      withGradient,
      outer,
      filtered(rowSharp, u, v),
      filtered(rowGx, u, v),
      filtered(rowGy, u, v),
      (h0 * u + h1 * v + h2) / w,
      (h3 * u + h4 * v + h5) / w,
      filtered(rowOuter, u, v),
      filtered(rowOx, u, v),
      filtered(rowOy, u, v),
    );
  }
  return true;
}

/**
 * The sampled Gaussian of σ px on the pixel grid (taps to ⌈3σ⌉, at least one each side), summing to
 * 1. The synthetic renderer's blur kernel (synth/noise.ts) has the same form; vision never imports
 * the renderer, and this one is a shape the sheets may or may not pick, not the renderer's.
 */
export function sampledGaussian(sigma: number): Float64Array {
  const r = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float64Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp((-i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i]! /= sum;
  return k;
}

/** Kernels by σ (a fit renders with one σ many times). */
const kernels = new Map<number, Float64Array>();

/**
 * predictWhitenessBoxed with the sensor's filter a sampled Gaussian of σ `blurSigmaPx`: the
 * footprint functions' common signature (quad-align.ts).
 */
export const predictWhitenessBoxedAt: typeof predictWhiteness = (
  pixels,
  toGrid,
  pattern,
  cells,
  blurSigmaPx,
  out,
  withGradient,
  outer,
) => {
  let kernel = kernels.get(blurSigmaPx);
  if (!kernel) {
    if (kernels.size > 64) kernels.clear();
    kernels.set(blurSigmaPx, (kernel = sampledGaussian(blurSigmaPx)));
  }
  return predictWhitenessBoxed(pixels, toGrid, pattern, cells, kernel, out, withGradient, outer);
};
