import { blockSums8Simd } from './block-sum-kernel.ts';
import type { Rect } from './mosaic.ts';

/**
 * Where the picture changed since the previous frame, cheaply.
 *
 * The frame is reduced to block means (8 × 8 pixels by default: 240 × 135 blocks at 1080p) and
 * compared with the previous frame's. A block whose mean moved by more than `threshold` grey
 * levels, after the median change over all blocks is taken out (the camera's exposure drifting
 * is not a change on the table), is changed. Changed blocks are grown by `growBlocks` and joined
 * into rectangles, each widened by `marginPx` so that a marker at the edge of a change lies
 * wholly inside it. Sensor noise moves an 8 × 8 mean by a fraction of a grey level; a hand or a
 * base moving by a millimetre moves it by tens.
 */

export interface ChangeOptions {
  readonly blockPx: number;
  readonly threshold: number;
  readonly growBlocks: number;
}

export const DEFAULT_CHANGE: ChangeOptions = { blockPx: 8, threshold: 4, growBlocks: 1 };

export interface Changes {
  /** Changed regions, frame pixels (already widened by the margin). */
  readonly regions: readonly Rect[];
  /** Share of blocks that changed, 0–1 (1 on the first frame). */
  readonly share: number;
  /** Whether this frame can be compared at all (false on the first frame or after a size change). */
  readonly compared: boolean;
}

/** A frame's block means, as the change map computed them (row-major, `cols` a row). */
export interface BlockMeans {
  readonly means: Float32Array;
  readonly blockPx: number;
  readonly cols: number;
  readonly rows: number;
}

export class ChangeMap {
  private previous: Float32Array | null = null;
  private cols = 0;
  private rows = 0;

  constructor(readonly options: ChangeOptions = DEFAULT_CHANGE) {}

  /** The block means of the frame last given to `update` (null before the first). */
  get latest(): BlockMeans | null {
    return this.previous
      ? { means: this.previous, blockPx: this.options.blockPx, cols: this.cols, rows: this.rows }
      : null;
  }

  update(grey: { data: ArrayLike<number>; width: number; height: number }, marginPx: number): Changes {
    const b = this.options.blockPx;
    const cols = Math.floor(grey.width / b);
    const rows = Math.floor(grey.height / b);
    const means = blockMeans(grey, b, cols, rows);
    const previous = this.previous;
    const comparable = previous !== null && cols === this.cols && rows === this.rows;
    this.previous = means;
    this.cols = cols;
    this.rows = rows;
    if (!comparable)
      return { regions: [{ x0: 0, y0: 0, w: grey.width, h: grey.height }], share: 1, compared: false };

    const n = cols * rows;
    const diff = new Float32Array(n);
    for (let i = 0; i < n; i++) diff[i] = means[i]! - previous[i]!;
    const median = medianOf(diff);
    const changed = new Uint8Array(n);
    let count = 0;
    for (let i = 0; i < n; i++)
      if (Math.abs(diff[i]! - median) > this.options.threshold) {
        changed[i] = 1;
        count++;
      }
    if (count === 0) return { regions: [], share: 0, compared: true };
    const grown = grow(changed, cols, rows, this.options.growBlocks);
    const regions = components(grown, cols, rows).map((r) =>
      clip(
        {
          x0: r.x0 * b - marginPx,
          y0: r.y0 * b - marginPx,
          w: r.w * b + 2 * marginPx,
          h: r.h * b + 2 * marginPx,
        },
        grey.width,
        grey.height,
      ),
    );
    return { regions: mergeOverlapping(regions), share: count / n, compared: true };
  }
}

/**
 * Mean grey level of every b × b block (whole blocks only), row-major. Sums are whole numbers, so
 * every way of adding them gives the same means; an 8-bit picture with 8-pixel blocks is summed
 * 16 pixels a step in WebAssembly SIMD (block-sum-kernel.ts) when its width is a multiple of 16,
 * else four pixels per 32-bit read (two 16-bit lanes): the change map's largest cost.
 */
export function blockMeans(
  grey: { data: ArrayLike<number>; width: number },
  b: number,
  cols: number,
  rows: number,
): Float32Array {
  const data = grey.data;
  const eightBit = b === 8 && data instanceof Uint8Array;
  const sums =
    (eightBit && cols === grey.width / 8 ? blockSums8Simd(data, grey.width, rows) : null) ??
    (eightBit && data.byteOffset % 4 === 0 && grey.width % 4 === 0
      ? blockSums8(data, grey.width, cols, rows)
      : blockSums(data, grey.width, b, cols, rows));
  const means = new Float32Array(cols * rows);
  const area = b * b;
  for (let i = 0; i < means.length; i++) means[i] = sums[i]! / area;
  return means;
}

function blockSums(
  data: ArrayLike<number>,
  width: number,
  b: number,
  cols: number,
  rows: number,
): Float64Array {
  const sums = new Float64Array(cols * rows);
  for (let by = 0; by < rows; by++) {
    for (let y = by * b; y < (by + 1) * b; y++) {
      const row = y * width;
      for (let bx = 0; bx < cols; bx++) {
        let s = 0;
        const start = row + bx * b;
        for (let x = 0; x < b; x++) s += data[start + x]!;
        sums[by * cols + bx]! += s;
      }
    }
  }
  return sums;
}

/**
 * 8 × 8 block sums of an 8-bit picture, 32 bits at a time: `(w & 0x00ff00ff) + ((w >>> 8) &
 * 0x00ff00ff)` adds a word's four pixels into two 16-bit lanes; a block's 16 words give each lane
 * at most 32 × 255 = 8160, so lanes never carry into each other.
 */
function blockSums8(data: Uint8Array, width: number, cols: number, rows: number): Float64Array {
  const words = new Uint32Array(data.buffer, data.byteOffset, (width * rows * 8) >> 2);
  const wordsPerRow = width >> 2;
  const lanes = new Uint32Array(cols);
  const sums = new Float64Array(cols * rows);
  for (let by = 0; by < rows; by++) {
    lanes.fill(0);
    for (let y = by * 8; y < by * 8 + 8; y++) {
      let at = y * wordsPerRow;
      for (let bx = 0; bx < cols; bx++, at += 2) {
        const w0 = words[at]!;
        const w1 = words[at + 1]!;
        lanes[bx] =
          lanes[bx]! +
          (w0 & 0x00ff00ff) +
          ((w0 >>> 8) & 0x00ff00ff) +
          (w1 & 0x00ff00ff) +
          ((w1 >>> 8) & 0x00ff00ff);
      }
    }
    const base = by * cols;
    for (let bx = 0; bx < cols; bx++) {
      const l = lanes[bx]!;
      sums[base + bx] = (l & 0xffff) + (l >>> 16);
    }
  }
  return sums;
}

/**
 * Median of the values as a sorted copy's middle element (`sorted[n >> 1]`), found by selection in
 * linear time instead of sorting the ~30 000 blocks each frame. `values` is left as it was.
 */
export function medianOf(values: Float32Array): number {
  const n = values.length;
  if (n === 0) return 0;
  const a = Float32Array.from(values);
  const k = n >> 1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    // Median of three as the pivot; Hoare partition.
    const mid = (lo + hi) >> 1;
    const x = a[lo]!;
    const y = a[mid]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

function grow(mask: Uint8Array, cols: number, rows: number, by: number): Uint8Array {
  if (by <= 0) return mask;
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < cols; x++) {
      if (!mask[y * cols + x]) continue;
      for (let dy = -by; dy <= by; dy++)
        for (let dx = -by; dx <= by; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < cols && yy < rows) out[yy * cols + xx] = 1;
        }
    }
  return out;
}

/** Bounding boxes (in blocks) of the 8-connected components of a mask. */
function components(mask: Uint8Array, cols: number, rows: number): Rect[] {
  const seen = new Uint8Array(mask.length);
  const out: Rect[] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    let x0 = cols;
    let y0 = rows;
    let x1 = -1;
    let y1 = -1;
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % cols;
      const y = (i - x) / cols;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= cols || yy >= rows) continue;
          const j = yy * cols + xx;
          if (mask[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    out.push({ x0, y0, w: x1 - x0 + 1, h: y1 - y0 + 1 });
  }
  return out;
}

function clip(r: Rect, width: number, height: number): Rect {
  const x0 = Math.max(0, Math.floor(r.x0));
  const y0 = Math.max(0, Math.floor(r.y0));
  const x1 = Math.min(width, Math.ceil(r.x0 + r.w));
  const y1 = Math.min(height, Math.ceil(r.y0 + r.h));
  return { x0, y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) };
}

/** Joins rectangles that overlap until none do (widened regions of nearby changes often meet). */
export function mergeOverlapping(rects: readonly Rect[]): Rect[] {
  const out = rects.filter((r) => r.w > 0 && r.h > 0).map((r) => ({ ...r }));
  let merged = true;
  while (merged) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++)
      for (let j = i + 1; j < out.length && !merged; j++) {
        const a = out[i]!;
        const b = out[j]!;
        if (a.x0 < b.x0 + b.w && b.x0 < a.x0 + a.w && a.y0 < b.y0 + b.h && b.y0 < a.y0 + a.h) {
          const x0 = Math.min(a.x0, b.x0);
          const y0 = Math.min(a.y0, b.y0);
          out[i] = {
            x0,
            y0,
            w: Math.max(a.x0 + a.w, b.x0 + b.w) - x0,
            h: Math.max(a.y0 + a.h, b.y0 + b.h) - y0,
          };
          out.splice(j, 1);
          merged = true;
        }
      }
  }
  return out;
}
