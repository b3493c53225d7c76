import type { MarkerDictionaryName } from '../table/scenario.ts';
import { CandidatePass } from './candidate-pass.ts';
import type { Quad } from './candidates.ts';
import { loadOpenCV, type OpenCV } from './opencv.ts';

/**
 * A second look for the reference sheets, when the candidate pass did not read them all.
 *
 * The candidate pass thresholds with a 5 px window, tuned for small tags (candidate-pass.ts). On
 * an 80 mm sheet with 10 px cells that window only sees edges, and where a strong vignette or a
 * cast shadow darkens a corner of the table the sheet's edges fall under OpenCV's threshold
 * constant: the sheet gives no quad at all, there is no table pose and no base is measured (the
 * recall benchmark's "uneven light" condition; native OpenCV, with 13 and 23 px windows, reads
 * the same sheets). This pass looks again with a window of about 2½ cells, on a picture shrunk
 * (area averaging) until a sheet's cells are about 5 px: a 1080p frame at half size costs a
 * fraction of a full pass, and averaging removes sensor noise. Only exact reads of reference ids
 * are returned; the finder fits their corners on the full picture.
 *
 * Measured on the tuning scenes (seeds 1101–1105, uneven light): 4 of 4 sheets read at 720p,
 * 1080p and 4K where the 5 px pass read 2–3.
 */

/** Sheet cells this wide (px) after shrinking. */
const TARGET_CELL_PX = 5;
/** Threshold window (px, odd): about 2½ cells at the shrunk size. */
const WINDOW_PX = 13;

export class ReferenceSearch {
  private constructor(
    private readonly cv: OpenCV,
    private readonly pass: CandidatePass,
    /** The frame is shrunk by this integer factor before the pass. */
    readonly scale: number,
  ) {}

  /**
   * @param cellPx the reference sheets' cells in pixels, at the framing's scale (a rough figure
   *   from the scenario and the camera is enough; a tilted camera's far sheets look a fifth smaller).
   * @param sidePx the smallest sheet's side in pixels at that scale: quads under half of it are skipped.
   */
  static async create(
    dictionary: MarkerDictionaryName,
    cellPx: number,
    sidePx: number,
    imageLongSidePx: number,
  ): Promise<ReferenceSearch> {
    const scale = Math.max(1, Math.floor(cellPx / TARGET_CELL_PX));
    const pass = await CandidatePass.create({
      dictionary,
      thresholdWindowPx: WINDOW_PX,
      // A sheet seen at half its expected size is still looked at; tags and texture are not.
      minPerimeterRate: (0.5 * 4 * sidePx) / imageLongSidePx,
    });
    return new ReferenceSearch(await loadOpenCV(), pass, scale);
  }

  /** Reference sheets read exactly, their quads in full-frame pixels (corners not yet fitted). */
  run(gray: OpenCV, referenceIds: ReadonlySet<number>): Array<{ id: number; quad: Quad }> {
    const cv = this.cv;
    let image = gray;
    const shrunk = this.scale > 1 ? new cv.Mat() : null;
    try {
      if (shrunk) {
        const size = new cv.Size(Math.floor(gray.cols / this.scale), Math.floor(gray.rows / this.scale));
        cv.resize(gray, shrunk, size, 0, 0, cv.INTER_AREA);
        image = shrunk;
      }
      const s = this.scale;
      // Pixel centres: shrunk pixel i covers full pixels s·i … s·i + s − 1, centred at s·i + (s − 1)/2.
      const toFull = (q: Quad): Quad =>
        q.map((p) => ({ u: s * p.u + (s - 1) / 2, v: s * p.v + (s - 1) / 2 })) as unknown as Quad;
      return this.pass
        .run(image)
        .read.filter((r) => referenceIds.has(r.id))
        .map((r) => ({ id: r.id, quad: toFull(r.quad) }));
    } finally {
      shrunk?.delete();
    }
  }

  dispose(): void {
    this.pass.dispose();
  }
}
