import type { Pixel } from '../camera/projection.ts';
import { buildMosaic, tileOf, toFrame } from './mosaic.ts';
import type { MarkerDictionaryName } from '../table/scenario.ts';
import { CandidatePass } from './candidate-pass.ts';
import { quadSide, type Quad } from './candidates.ts';
import { DEFAULT_EDGE_REFINE, refineMarkerCorners } from './edge-refine.ts';
import { loadOpenCV, type OpenCV } from './opencv.ts';

/**
 * Looks again, closer, where a marker should be: small regions of the frame are upsampled
 * (bicubic, ×3 by default), packed side by side into one mosaic (mosaic.ts) and searched for
 * quads in a single OpenCV pass, so forty regions cost one call rather than forty.
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
    const s = this.options.scale;
    const mosaic = buildMosaic(
      this.cv,
      gray,
      requests.map((r) => {
        const half = Math.max(4, Math.ceil(r.halfSizePx));
        return {
          x0: Math.round(r.centre.u) - half,
          y0: Math.round(r.centre.v) - half,
          w: 2 * half,
          h: 2 * half,
        };
      }),
      this.options,
    );
    if (!mosaic) return out;
    try {
      const found = this.pass.run(mosaic.mat);
      const grey = {
        data: mosaic.mat.data as Uint8Array,
        width: mosaic.mat.cols as number,
        height: mosaic.mat.rows as number,
      };
      for (const quad of [...found.read.map((r) => r.quad), ...found.unread]) {
        const tile = tileOf(mosaic, quad);
        if (!tile) continue;
        const cellPx = quadSide(quad) / this.cells;
        const refined =
          refineMarkerCorners(grey, quad, {
            ...DEFAULT_EDGE_REFINE,
            searchPx: Math.min(2 * s, Math.max(1, 0.75 * cellPx)),
            maxShiftPx: 1.5 * s,
          }) ?? quad;
        out[tile.index]!.push(refined.map((c) => toFrame(mosaic, tile, c)) as unknown as Quad);
      }
      return out;
    } finally {
      mosaic.mat.delete();
    }
  }

  dispose(): void {
    this.pass.dispose();
  }
}
