import { CandidatePass, type CandidatePassOptions, type CandidatePassResult } from './candidate-pass.ts';
import type { Quad } from './candidates.ts';
import { buildMosaic, tileOf, toFrame, type Rect } from './mosaic.ts';
import { loadOpenCV, type OpenCV } from './opencv.ts';

/**
 * The candidate pass over some regions of a frame only (where the picture changed), packed into
 * one mosaic at the camera's own scale: one OpenCV call, and a cost that follows the area looked
 * at. Quads are returned in frame pixels, as from a full pass.
 */
export class RegionPass {
  private constructor(
    private readonly cv: OpenCV,
    private readonly pass: CandidatePass,
  ) {}

  static async create(options: CandidatePassOptions): Promise<RegionPass> {
    return new RegionPass(
      await loadOpenCV(),
      await CandidatePass.create({ ...options, minDistanceToBorderPx: 1 }),
    );
  }

  /** See CandidatePass.setThresholdWindow. */
  setThresholdWindow(windowPx: number): void {
    this.pass.setThresholdWindow(windowPx);
  }

  /**
   * `minPerimeterPx`: the smallest quad worth finding, in pixels (the pass's own limit is relative
   * to the image it sees, here the mosaic).
   */
  run(gray: OpenCV, regions: readonly Rect[], minPerimeterPx: number): CandidatePassResult {
    const mosaic = buildMosaic(this.cv, gray, regions, { scale: 1, gapPx: 16, maxRowPx: 2048 });
    if (!mosaic) return { read: [], unread: [] };
    try {
      this.pass.setMinPerimeterRate(
        minPerimeterPx / Math.max(mosaic.mat.cols as number, mosaic.mat.rows as number),
      );
      const found = this.pass.run(mosaic.mat);
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

  dispose(): void {
    this.pass.dispose();
  }
}
