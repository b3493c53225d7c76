import type { Pixel } from '../camera/projection.ts';
import type { Quad } from './candidates.ts';
import type { OpenCV } from './opencv.ts';

/**
 * Several small regions of a frame, (optionally upsampled and) packed side by side into one
 * image with grey gaps between them, so that one OpenCV pass looks at all of them: a pass costs
 * mostly its fixed overheads on small images, so forty regions in one mosaic cost about what one
 * does. Quads found are mapped back to the frame; quads touching a tile's edge are not markers
 * (a region's border cuts whatever lies across it).
 */

export interface Rect {
  readonly x0: number;
  readonly y0: number;
  readonly w: number;
  readonly h: number;
}

/** Whether a point lies in a rectangle. */
export function rectContains(r: Rect, p: Pixel): boolean {
  return p.u >= r.x0 && p.v >= r.y0 && p.u < r.x0 + r.w && p.v < r.y0 + r.h;
}

export interface MosaicTile extends Rect {
  /** Which requested region this tile shows. */
  readonly index: number;
  /** Where the tile sits in the mosaic (its top-left pixel). */
  readonly mx: number;
  readonly my: number;
}

export interface Mosaic {
  /** An 8-bit grey Mat; the caller deletes it. */
  readonly mat: OpenCV;
  readonly tiles: readonly MosaicTile[];
  readonly scale: number;
}

export interface MosaicOptions {
  readonly scale: number;
  readonly gapPx: number;
  readonly maxRowPx: number;
}

/** Clamps a region to the frame; null when too little of it is left. */
export function clampRect(r: Rect, width: number, height: number, minSide = 8): Rect | null {
  const x0 = Math.max(0, Math.round(r.x0));
  const y0 = Math.max(0, Math.round(r.y0));
  const x1 = Math.min(width, Math.round(r.x0 + r.w));
  const y1 = Math.min(height, Math.round(r.y0 + r.h));
  return x1 - x0 >= minSide && y1 - y0 >= minSide ? { x0, y0, w: x1 - x0, h: y1 - y0 } : null;
}

export function buildMosaic(
  cv: OpenCV,
  gray: OpenCV,
  regions: readonly Rect[],
  o: MosaicOptions,
): Mosaic | null {
  const s = o.scale;
  const tiles: MosaicTile[] = [];
  let x = o.gapPx;
  let y = o.gapPx;
  let rowHeight = 0;
  let width = 0;
  regions.forEach((r, index) => {
    const rect = clampRect(r, gray.cols, gray.rows);
    if (!rect) return;
    if (x + rect.w * s + o.gapPx > o.maxRowPx && x > o.gapPx) {
      x = o.gapPx;
      y += rowHeight + o.gapPx;
      rowHeight = 0;
    }
    tiles.push({ index, ...rect, mx: x, my: y });
    x += rect.w * s + o.gapPx;
    rowHeight = Math.max(rowHeight, rect.h * s);
    width = Math.max(width, x);
  });
  if (tiles.length === 0) return null;
  const mat = new cv.Mat(y + rowHeight + o.gapPx, width, cv.CV_8UC1, new cv.Scalar(128));
  for (const t of tiles) {
    const src = gray.roi(new cv.Rect(t.x0, t.y0, t.w, t.h));
    const dst = mat.roi(new cv.Rect(t.mx, t.my, t.w * s, t.h * s));
    if (s === 1) src.copyTo(dst);
    else cv.resize(src, dst, new cv.Size(t.w * s, t.h * s), 0, 0, cv.INTER_CUBIC);
    src.delete();
    dst.delete();
  }
  return { mat, tiles, scale: s };
}

/** The tile a mosaic quad lies wholly inside, at least `borderPx` from its edges; null otherwise. */
export function tileOf(m: Mosaic, quad: Quad, borderPx = 2): MosaicTile | null {
  const s = m.scale;
  for (const t of m.tiles) {
    const inside = quad.every(
      (c) =>
        c.u >= t.mx + borderPx &&
        c.v >= t.my + borderPx &&
        c.u <= t.mx + t.w * s - 1 - borderPx &&
        c.v <= t.my + t.h * s - 1 - borderPx,
    );
    if (inside) return t;
  }
  return null;
}

/** A mosaic pixel back in the frame (OpenCV's resize maps pixel centres: m ↦ (m + ½)/s − ½). */
export function toFrame(m: Mosaic, t: MosaicTile, p: Pixel): Pixel {
  return { u: t.x0 + (p.u - t.mx + 0.5) / m.scale - 0.5, v: t.y0 + (p.v - t.my + 0.5) / m.scale - 0.5 };
}
