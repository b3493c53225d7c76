import type { CandidatePassResult } from './candidate-pass.ts';
import type { Quad } from './candidates.ts';
import { buildMosaic, tileOf, toFrame, type Rect } from './mosaic.ts';
import type { OpenCV } from './opencv.ts';
import type { RegionTuning, SplitCandidatePass } from './split-pass.ts';

/**
 * The candidate pass over some regions of a frame only (where the picture changed, where it is
 * dimly lit), packed into one mosaic at the camera's own scale: one pass over both threads (the
 * whole-frame pass's, split-pass.ts, with this pass's own threshold constant and border), and a
 * cost that follows the area looked at. Quads are returned in frame pixels, as from a full pass.
 */
export class RegionPass {
  constructor(
    private readonly cv: OpenCV,
    private readonly pass: SplitCandidatePass,
    private readonly tuning: Pick<RegionTuning, 'thresholdConstant' | 'minDistanceToBorderPx'>,
  ) {}

  /**
   * `minPerimeterPx`: the smallest quad worth finding, in pixels (the pass's own limit is relative
   * to the image it sees, here the mosaic). `thresholdConstant`: this run's, when not the pass's own.
   */
  run(
    gray: OpenCV,
    regions: readonly Rect[],
    minPerimeterPx: number,
    thresholdConstant = this.tuning.thresholdConstant,
    /** Light squares instead (the negative picture's dark ones): a sticker, a base top. */
    light = false,
  ): CandidatePassResult {
    const mosaic = buildMosaic(this.cv, gray, regions, { scale: 1, gapPx: 16, maxRowPx: 2048 });
    if (!mosaic) return { read: [], unread: [] };
    try {
      if (light) this.cv.bitwise_not(mosaic.mat, mosaic.mat);
      const found = this.pass.run(mosaic.mat, {
        ...this.tuning,
        thresholdConstant,
        minPerimeterRate: minPerimeterPx / Math.max(mosaic.mat.cols as number, mosaic.mat.rows as number),
      });
      const back = (q: Quad): Quad | null => {
        const tile = tileOf(mosaic, q);
        return tile ? (q.map((c) => toFrame(mosaic, tile, c)) as unknown as Quad) : null;
      };
      const read: Array<{ id: number; quad: Quad }> = [];
      for (const r of found.read) {
        const quad = back(r.quad);
        if (quad) read.push({ id: r.id, quad });
      }
      const unread: Quad[] = [];
      for (const q of found.unread) {
        const quad = back(q);
        if (quad) unread.push(quad);
      }
      return { read, unread };
    } finally {
      mosaic.mat.delete();
    }
  }
}
