import type { Pixel } from '../camera/projection.ts';
import type { MarkerDictionaryName } from '../table/scenario.ts';
import { CandidatePass } from './candidate-pass.ts';
import { quadSide, type Quad } from './candidates.ts';
import { DEFAULT_EDGE_REFINE, refineMarkerCorners } from './edge-refine.ts';
import { loadOpenCV, type OpenCV } from './opencv.ts';

/**
 * Looks again, closer, where a marker should be: small regions of the frame are upsampled
 * (bicubic, ×3 by default), packed side by side into one mosaic and searched for quads in a
 * single OpenCV pass, so forty regions cost one call rather than forty.
 *
 * Upsampling adds no information, but it lets contour finding and edge fitting work on cells
 * three times wider: on 15 mm tags at 1080p the corners of quads found this way are within
 * 0.33 px (median) of the truth, against 1.4 px for quads found at the camera's own scale
 * (tuning scenes, seeds 1000–1999).
 */

export interface RoiRequest {
  /** Centre of the region, full-image pixels. */
  readonly centre: Pixel;
  /** Half the region's side, full-image pixels. */
  readonly halfSizePx: number;
}

export interface RoiSearchOptions {
  readonly scale: number;
  /** Adaptive threshold window in the upsampled mosaic (px). */
  readonly thresholdWindowPx: number;
  /** Grey gap between tiles, mosaic pixels. */
  readonly gapPx: number;
  /** Widest mosaic row, mosaic pixels. */
  readonly maxRowPx: number;
}

export const DEFAULT_ROI_SEARCH: RoiSearchOptions = {
  scale: 3,
  thresholdWindowPx: 7,
  gapPx: 8,
  maxRowPx: 2048,
};

interface Tile {
  readonly request: number;
  /** Source rectangle in the full image. */
  readonly x0: number;
  readonly y0: number;
  readonly w: number;
  readonly h: number;
  /** Where its upsampled copy sits in the mosaic. */
  readonly mx: number;
  readonly my: number;
}

export class RoiSearch {
  private constructor(
    private readonly cv: OpenCV,
    private readonly pass: CandidatePass,
    readonly options: RoiSearchOptions,
    private readonly cells: number,
  ) {}

  static async create(
    dictionary: MarkerDictionaryName,
    cells: number,
    options: Partial<RoiSearchOptions> = {},
  ): Promise<RoiSearch> {
    const o = { ...DEFAULT_ROI_SEARCH, ...options };
    const pass = await CandidatePass.create({
      dictionary,
      thresholdWindowPx: o.thresholdWindowPx,
      minPerimeterRate: 0.001,
      minDistanceToBorderPx: 1,
    });
    return new RoiSearch(await loadOpenCV(), pass, o, cells);
  }

  /** Quads found in each requested region, edge-refined at the upsampled scale, in full-image pixels. */
  search(gray: OpenCV, requests: readonly RoiRequest[]): Quad[][] {
    const out: Quad[][] = requests.map(() => []);
    if (requests.length === 0) return out;
    const cv = this.cv;
    const { scale: s, gapPx: gap } = this.options;
    const tiles: Tile[] = [];
    let x = gap;
    let y = gap;
    let rowHeight = 0;
    let width = 0;
    requests.forEach((r, request) => {
      const half = Math.max(4, Math.ceil(r.halfSizePx));
      const x0 = Math.max(0, Math.round(r.centre.u) - half);
      const y0 = Math.max(0, Math.round(r.centre.v) - half);
      const w = Math.min(gray.cols - x0, 2 * half);
      const h = Math.min(gray.rows - y0, 2 * half);
      if (w < 8 || h < 8) return;
      if (x + w * s + gap > this.options.maxRowPx && x > gap) {
        x = gap;
        y += rowHeight + gap;
        rowHeight = 0;
      }
      tiles.push({ request, x0, y0, w, h, mx: x, my: y });
      x += w * s + gap;
      rowHeight = Math.max(rowHeight, h * s);
      width = Math.max(width, x);
    });
    if (tiles.length === 0) return out;
    const height = y + rowHeight + gap;
    const mosaic = new cv.Mat(height, width, cv.CV_8UC1, new cv.Scalar(128));
    try {
      for (const t of tiles) {
        const src = gray.roi(new cv.Rect(t.x0, t.y0, t.w, t.h));
        const dst = mosaic.roi(new cv.Rect(t.mx, t.my, t.w * s, t.h * s));
        cv.resize(src, dst, new cv.Size(t.w * s, t.h * s), 0, 0, cv.INTER_CUBIC);
        src.delete();
        dst.delete();
      }
      const found = this.pass.run(mosaic);
      const grey = { data: mosaic.data as Uint8Array, width, height };
      for (const quad of [...found.read.map((r) => r.quad), ...found.unread]) {
        const tile = tiles.find((t) =>
          quad.every((c) => c.u >= t.mx && c.v >= t.my && c.u < t.mx + t.w * s && c.v < t.my + t.h * s),
        );
        if (!tile) continue;
        // Tile borders are not markers.
        if (
          quad.some(
            (c) =>
              c.u < tile.mx + 2 ||
              c.v < tile.my + 2 ||
              c.u > tile.mx + tile.w * s - 3 ||
              c.v > tile.my + tile.h * s - 3,
          )
        )
          continue;
        const cellPx = quadSide(quad) / this.cells;
        const refined =
          refineMarkerCorners(grey, quad, {
            ...DEFAULT_EDGE_REFINE,
            searchPx: Math.min(2 * s, Math.max(1, 0.75 * cellPx)),
            maxShiftPx: 1.5 * s,
          }) ?? quad;
        // Mosaic pixel centre m maps to source x0 + (m − mx + 0.5) / s − 0.5 (OpenCV's resize convention).
        out[tile.request]!.push(
          refined.map((c) => ({
            u: tile.x0 + (c.u - tile.mx + 0.5) / s - 0.5,
            v: tile.y0 + (c.v - tile.my + 0.5) / s - 0.5,
          })) as unknown as Quad,
        );
      }
      return out;
    } finally {
      mosaic.delete();
    }
  }

  dispose(): void {
    this.pass.dispose();
  }
}
