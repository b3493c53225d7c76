import type { Quad } from './candidates.ts';
import type { FoundMarker, StillRemeasures } from './finder-types.ts';
import type { GreyImage } from './image.ts';
import type { KeptLinearisation } from './kept-linearisation.ts';
import { RemeasureBudget } from './remeasure-budget.ts';
import type { StillMarkers } from './still-markers.ts';
import { remeasureOnTable, type TableFitMeasure, type TableSquare } from './table-fit.ts';

/**
 * Small still tags measured again on the mean of the frames they have stood still in (at 2, 3,
 * 5, 8 … frames; still-markers.ts), with the blur learned since: a tag of 9–20 px measured on one
 * frame keeps that frame's noise in its heading for as long as it stands.
 *
 * Most are moved by one step from their last fit (kept-linearisation.ts, ~0.04 ms a tag): up to
 * 64 a frame. Those fitted afresh (~1–2 ms each with the boxed footprint): coarse ones
 * (still-markers.ts: measured by their edges alone while carried, or kept where the picture
 * changed) up to 24 a frame: when a whole table stops moving (or the camera was bumped) they all
 * fall due at once, and four a frame took a 54-base table 14 frames (720p 25 mm, blur σ 1.4,
 * tests/vision/pipeline-stop.test.ts: six bases over 2.5 mm out four frames after stopping, none
 * with 24). Others whose last fit does not carry over, by time (remeasure-budget.ts): 120 a
 * second, four a frame at 30 fps, up to 24 in a frame processed late (24 a frame at camera rate
 * took the live benchmark's whole-frame detection from 0.78 to 1.75–1.87 × native OpenCV).
 */
const COARSE_FITS_PER_FRAME = 24;
const STEPS_PER_FRAME = 64;
const ROUTINE_FITS = { perSecond: 120, most: 24 } as const;

/**
 * A still tag measured again by one step from its last fit moves its corners by the first frame's
 * noise, hundredths to tenths of a pixel; a step further than this, or a tag no longer where that
 * fit left it, is fitted afresh.
 */
const MAX_STEP_PX = 0.3;

/** The marker with a table fit's corners and sigmas. */
export function withMeasure(m: FoundMarker, measured: TableFitMeasure): FoundMarker {
  return {
    ...m,
    corners: measured.corners,
    fitSigma: { mm: measured.sigmaMm, headingDeg: measured.sigmaHeadingDeg },
  };
}

/** What the finder lends the re-measures: which tags are measured on the table, and how afresh. */
export interface RemeasureHooks {
  /** A declared base's small tag, measured as a square on the table. */
  readonly wanted: (m: FoundMarker) => boolean;
  readonly isCarried: (id: number, corners: Quad) => boolean;
  /** The tag fitted afresh on `grey` as a square on the table (it keeps its new fit here). */
  readonly fitAfresh: (grey: GreyImage, m: FoundMarker) => FoundMarker;
}

export class StillRemeasurer {
  private counts = { coarse: 0, routine: 0, stepped: 0 };
  /** Each measured tag's last fit, linearised, and the square it was fitted as. */
  private readonly linearised = new Map<number, { kept: KeptLinearisation; square: TableSquare }>();
  private readonly routineFits = new RemeasureBudget(ROUTINE_FITS.perSecond, ROUTINE_FITS.most);
  /** A picture of the camera's size holding still tags' averaged regions. */
  private averagedFrame: Float32Array | null = null;

  constructor(private readonly hooks: RemeasureHooks) {}

  /** A new frame (not a second look at the last), captured at `capturedAt` ms. */
  nextFrame(capturedAt: number): void {
    this.counts = { coarse: 0, routine: 0, stepped: 0 };
    this.routineFits.nextFrame(capturedAt);
  }

  /** Still tags measured again in this frame so far (a frame looked at twice has one budget). */
  get done(): StillRemeasures {
    return { ...this.counts };
  }

  /** Keeps a tag's last fit: its next re-measure steps from it. */
  keep(id: number, kept: KeptLinearisation, square: TableSquare): void {
    this.linearised.set(id, { kept, square });
  }

  /**
   * Measures again the still tags due (`still`), each a marker this frame took as recalled,
   * writing what moved into `found` and `still`.
   */
  run(
    grey: GreyImage,
    still: StillMarkers<FoundMarker>,
    found: Map<number, FoundMarker>,
    recalled: ReadonlySet<FoundMarker>,
  ): void {
    const size = grey.width * grey.height;
    if (this.averagedFrame?.length !== size) this.averagedFrame = new Float32Array(size);
    const frame = { data: this.averagedFrame, width: grey.width, height: grey.height };
    const left = {
      coarse: COARSE_FITS_PER_FRAME - this.counts.coarse,
      routine: STEPS_PER_FRAME - this.counts.stepped - this.counts.routine,
    };
    const due = still.averagedDue(left, this.averagedFrame, grey.width, this.hooks.wanted);
    for (const { value, coarse } of due) {
      // Only a marker this frame took as recalled (not one read afresh in its place).
      if (!recalled.has(value) || found.get(value.id) !== value) continue;
      let measured = coarse ? null : this.step(frame, value);
      if (measured) this.counts.stepped++;
      else if (coarse) {
        this.counts.coarse++;
        measured = this.hooks.fitAfresh(frame, value);
      } else if (this.routineFits.left > 0) {
        this.counts.routine++;
        this.routineFits.spend(1);
        measured = this.hooks.fitAfresh(frame, value);
      } else continue;
      if (measured === value) continue;
      found.set(value.id, measured);
      still.replace(measured);
    }
  }

  /**
   * One step from the tag's last fit (table-fit.ts remeasureOnTable), or null where that fit was
   * not of this very place or the step went too far. (Only tags `wanted` are offered as due.)
   */
  private step(frame: GreyImage, m: FoundMarker): FoundMarker | null {
    const last = this.linearised.get(m.id);
    if (!last || this.hooks.isCarried(m.id, m.corners)) return null;
    const again = remeasureOnTable(last.kept, frame, last.square, m.corners, MAX_STEP_PX);
    return again && withMeasure(m, again);
  }
}
