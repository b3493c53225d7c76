import type { Pixel } from '../camera/projection.ts';
import type { Quad } from './candidates.ts';
import { gridToImage, type Grey } from './tag-footprint.ts';

/**
 * A candidate quad resampled into a small, square, normalised patch: the input of the learned tag
 * reader (learned-reader.ts).
 *
 * The patch covers the marker's `cells × cells` grid (black border included) plus `marginCells`
 * of quiet zone on every side, in the quad's own corner order: patch row 0 runs from the quad's
 * corner 0 to its corner 1, so a reader's bits are in the same frame as a CodeBook's views.
 * With the defaults (8 cells, one-cell margin, 30 px) every cell is exactly 3 × 3 patch pixels.
 *
 * Small tags (≈ 1–3 image px per cell) are sampled bilinearly; when one patch pixel covers more
 * than one image pixel (large tags, or the near side of a tilted one) it averages a grid of
 * bilinear samples over its own footprint instead, so a 40-px tag does not alias into the patch.
 * Grey levels are then shifted and scaled to zero mean and unit spread (the spread floored so a
 * flat patch of cloth is not blown up into texture): lighting and print contrast drop out, the
 * shape is what remains.
 */

export interface TagPatchOptions {
  /** Patch side, pixels. */
  readonly size: number;
  /** Quiet zone sampled around the black border, in cells. */
  readonly marginCells: number;
  /** Smallest standard deviation used to normalise, grey levels. */
  readonly minSpread: number;
  /** More of the patch than this fraction outside the image: no patch. */
  readonly maxOutside: number;
}

export const DEFAULT_TAG_PATCH: TagPatchOptions = {
  size: 30,
  marginCells: 1,
  minSpread: 6,
  maxOutside: 0.25,
};

/** Largest number of samples per axis averaged into one patch pixel. */
const MAX_SUBSAMPLES = 6;

/** Bilinear grey level at image point (u, v) (pixel centres at integers), clamped to the image. */
function bilinear(grey: Grey, u: number, v: number): number {
  const w = grey.width;
  const h = grey.height;
  const x = Math.min(Math.max(u, 0), w - 1);
  const y = Math.min(Math.max(v, 0), h - 1);
  const x0 = Math.min(Math.floor(x), w - 2);
  const y0 = Math.min(Math.floor(y), h - 2);
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * w + x0;
  const d = grey.data;
  const top = d[i]! + (d[i + 1]! - d[i]!) * fx;
  const bottom = d[i + w]! + (d[i + w + 1]! - d[i + w]!) * fx;
  return top + (bottom - top) * fy;
}

/**
 * The patch's raw grey levels (row-major, `size × size`), or null when the quad is degenerate,
 * the image is smaller than 2 × 2, or too much of the patch lies outside the image.
 */
export function rawTagPatch(
  grey: Grey,
  corners: Quad | readonly Pixel[],
  cells: number,
  options: TagPatchOptions = DEFAULT_TAG_PATCH,
): Float32Array | null {
  if (corners.length !== 4) throw new Error(`a tag patch needs four corners, got ${corners.length}`);
  if (!(cells >= 3) || !Number.isInteger(cells))
    throw new Error(`cells must be an integer ≥ 3, got ${cells}`);
  const { size, marginCells } = options;
  if (!(size >= 4) || !Number.isInteger(size))
    throw new Error(`patch size must be an integer ≥ 4, got ${size}`);
  if (grey.width < 2 || grey.height < 2) return null;
  if (corners.some((c) => !Number.isFinite(c.u) || !Number.isFinite(c.v))) return null;
  const h = gridToImage(corners, cells);
  if (!h) return null;
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = h;
  const step = (cells + 2 * marginCells) / size;
  const out = new Float32Array(size * size);
  let outside = 0;
  for (let row = 0; row < size; row++) {
    const gy = -marginCells + (row + 0.5) * step;
    for (let col = 0; col < size; col++) {
      const gx = -marginCells + (col + 0.5) * step;
      const w = h6 * gx + h7 * gy + h8;
      if (!(Math.abs(w) > 1e-12)) return null;
      const u = (h0 * gx + h1 * gy + h2) / w;
      const v = (h3 * gx + h4 * gy + h5) / w;
      if (!Number.isFinite(u + v)) return null;
      if (u < -0.5 || v < -0.5 || u > grey.width - 0.5 || v > grey.height - 0.5) outside++;
      // The patch pixel's footprint in the image: the homography's Jacobian times one patch step.
      const ju = Math.hypot(h0 - u * h6, h3 - v * h6) * (step / Math.abs(w));
      const jv = Math.hypot(h1 - u * h7, h4 - v * h7) * (step / Math.abs(w));
      const n = Math.min(MAX_SUBSAMPLES, Math.max(1, Math.ceil(Math.max(ju, jv))));
      if (n === 1) {
        out[row * size + col] = bilinear(grey, u, v);
        continue;
      }
      let sum = 0;
      for (let sy = 0; sy < n; sy++) {
        const y = gy + ((sy + 0.5) / n - 0.5) * step;
        for (let sx = 0; sx < n; sx++) {
          const x = gx + ((sx + 0.5) / n - 0.5) * step;
          const ws = h6 * x + h7 * y + h8;
          sum += bilinear(grey, (h0 * x + h1 * y + h2) / ws, (h3 * x + h4 * y + h5) / ws);
        }
      }
      out[row * size + col] = sum / (n * n);
    }
  }
  return outside > options.maxOutside * size * size ? null : out;
}

/** Zero mean, unit spread (the spread floored at `minSpread` grey levels), in place; returns the patch. */
export function normalisePatch(patch: Float32Array, minSpread = DEFAULT_TAG_PATCH.minSpread): Float32Array {
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < patch.length; i++) {
    sum += patch[i]!;
    sumSq += patch[i]! * patch[i]!;
  }
  const n = patch.length;
  const mean = sum / n;
  const spread = Math.max(minSpread, Math.sqrt(Math.max(0, sumSq / n - mean * mean)));
  for (let i = 0; i < n; i++) patch[i] = (patch[i]! - mean) / spread;
  return patch;
}

/** The normalised patch of a quad (see the module comment), or null where rawTagPatch gives none. */
export function tagPatch(
  grey: Grey,
  corners: Quad | readonly Pixel[],
  cells: number,
  options: TagPatchOptions = DEFAULT_TAG_PATCH,
): Float32Array | null {
  const raw = rawTagPatch(grey, corners, cells, options);
  return raw && normalisePatch(raw, options.minSpread);
}
