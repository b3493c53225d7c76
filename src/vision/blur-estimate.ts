import type { Pixel } from '../camera/projection.ts';
import type { CodeBook } from './code-book.ts';
import type { GreyImage } from './image.ts';
import { viewMisfit, type TemplateDecoderOptions } from './template-decoder.ts';

/**
 * The camera's blur, learned from the markers it has read.
 *
 * The decoder renders each code through the camera's blur; a wrong blur costs evidence (a
 * 15 mm tag at 1080p read with σ 0.9 px where the lens gives 0.6 has a fifth of the evidence).
 * Lenses differ and focus drifts, so the blur is not a setting: every firm reading of a small
 * tag is re-fitted at a ladder of blurs, and the blur that explains them best (summed log
 * misfit, older readings slowly forgotten) is the one used.
 */

const LADDER = [0.35, 0.5, 0.65, 0.85, 1.1, 1.4, 1.8, 2.3];

export interface BlurEstimateOptions {
  /** Blur used until enough markers were read (px). */
  readonly initialSigmaPx: number;
  /** Readings needed before the estimate is used. */
  readonly minSamples: number;
  /** Weight kept by the older readings at each new one. */
  readonly memory: number;
}

export const DEFAULT_BLUR_ESTIMATE: BlurEstimateOptions = {
  initialSigmaPx: 0.6,
  minSamples: 6,
  memory: 0.98,
};

export class BlurEstimate {
  private readonly scores = new Float64Array(LADDER.length);
  private samples = 0;

  constructor(readonly options: BlurEstimateOptions = DEFAULT_BLUR_ESTIMATE) {}

  /** The blur to decode with now, px. */
  get sigmaPx(): number {
    if (this.samples < this.options.minSamples) return this.options.initialSigmaPx;
    let best = 0;
    for (let i = 1; i < LADDER.length; i++) if (this.scores[i]! < this.scores[best]!) best = i;
    // Parabola through the best rung and its neighbours, for a value between rungs.
    if (best === 0 || best === LADDER.length - 1) return LADDER[best]!;
    const [a, b, c] = [this.scores[best - 1]!, this.scores[best]!, this.scores[best + 1]!];
    const denominator = a - 2 * b + c;
    const offset = denominator > 0 ? (0.5 * (a - c)) / denominator : 0;
    const lo = LADDER[best - 1]!;
    const hi = LADDER[best + 1]!;
    const mid = LADDER[best]!;
    return offset < 0 ? mid + offset * (mid - lo) : mid + offset * (hi - mid);
  }

  get sampleCount(): number {
    return this.samples;
  }

  /**
   * Adds one firmly read marker of a code book, corners in marker order (so its rotation-0 view
   * is the one they show). False when the book has no such code.
   */
  observeCode(
    grey: GreyImage,
    corners: readonly [Pixel, Pixel, Pixel, Pixel],
    book: CodeBook,
    id: number,
    options: TemplateDecoderOptions,
    weight = 1,
  ): boolean {
    const view = book.views.find((v) => v.id === id && v.rotation === 0);
    if (!view) return false;
    this.observe(grey, corners, book.bitsPerSide, view.white, options, weight);
    return true;
  }

  /**
   * Adds one firmly read marker: its corners and its code's white bits. `weight` counts it as that
   * many readings (a reference sheet's edges are many times a small tag's).
   */
  observe(
    grey: GreyImage,
    corners: readonly [Pixel, Pixel, Pixel, Pixel],
    bitsPerSide: number,
    white: Uint16Array,
    options: TemplateDecoderOptions,
    weight = 1,
  ): void {
    const misfits = LADDER.map((blurSigmaPx) =>
      viewMisfit(grey, corners, bitsPerSide, white, { ...options, blurSigmaPx }),
    );
    if (misfits.some((m) => m === null)) return;
    const kept = this.options.memory ** weight;
    for (let i = 0; i < LADDER.length; i++)
      this.scores[i] = this.scores[i]! * kept + weight * Math.log(Math.max(1e-6, misfits[i]!));
    this.samples += weight;
  }
}
