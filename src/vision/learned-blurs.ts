import type { Pixel } from '../camera/projection.ts';
import { BlurEstimate } from './blur-estimate.ts';
import type { CodeBook } from './code-book.ts';
import type { GreyImage } from './image.ts';
import type { TemplateDecoderOptions } from './template-decoder.ts';

/**
 * The two blurs the finder learns (blur-estimate.ts): the camera's, and the one tags are read with.
 *
 * Measuring fits render each pixel as the Gaussian it is (gaussian-footprint.ts), and the limits
 * a reading must pass under blur are set on how blurred a tag truly is (firm-reading.ts): both
 * want the camera's blur, which the reference sheets' long edges show best. The decoder reads with a
 * cheaper picture (tag-footprint.ts's tent), which explains small tags best at a blur a few
 * hundredths of a pixel under that one. Measured at the renderer's own corners, 0.025 px steps
 * (tuning seed 1795, median over 54 tags): under blur σ 1.4, sheets 1.33–1.35 and 1080p tags of
 * 15–25 mm 1.25–1.28; at σ 0.7, sheets 0.65–0.68, tags of 1.4–1.6 px cells 0.63 and 1080p 12 mm
 * 0.60. Until stop 35 the tags taught the sheets' estimate, two a frame with the sheets' weight
 * kept, so the measuring fits drifted with the reading and the reading hardly moved.
 *
 * Now each has its own: the sheets teach the camera's blur, small tags the reading blur, six a
 * frame until it stands and two a frame after. Until small tags have taught it, they are read
 * with the sheets' blur. (Read a fixed share under it before that, more placed 15 mm tags under
 * blur were found in their first frame on tuning scenes, but a 20 mm tag in deep shadow, test
 * pipeline-dim, was lost at any share under 0.98: its reading fell from 350 to 95 nats between
 * σ 0.64 and 0.62, the decoder's search settling elsewhere.)
 */
export class LearnedBlurs {
  /** Taught by the reference sheets' edges until it stands. */
  private readonly sheets = new BlurEstimate();
  /** Taught by firm readings of small tags, a few a frame. */
  private readonly tags = new BlurEstimate();
  private tagSamplesThisFrame = 0;

  nextFrame(): void {
    this.tagSamplesThisFrame = 0;
  }

  /** A sheet read in this frame teaches the measuring blur, until that stands. */
  learnFromSheet(
    grey: GreyImage,
    corners: readonly [Pixel, Pixel, Pixel, Pixel],
    book: CodeBook,
    id: number,
    decoder: TemplateDecoderOptions,
  ): void {
    if (this.sheets.stands) return;
    this.sheets.observeCode(grey, corners, book, id, decoder, SHEET_BLUR_WEIGHT);
  }

  /**
   * A firmly read small tag (cells of `cellPx`) teaches the reading blur: a few a frame, more while
   * that estimate does not stand yet, so the first bases put down teach it within a frame or two.
   */
  learnFromTag(
    grey: GreyImage,
    corners: readonly [Pixel, Pixel, Pixel, Pixel],
    cellPx: number,
    book: CodeBook,
    id: number,
    decoder: TemplateDecoderOptions,
  ): void {
    const budget = this.tags.stands ? TAG_SAMPLES_PER_FRAME : FIRST_TAG_SAMPLES_PER_FRAME;
    if (this.tagSamplesThisFrame >= budget || cellPx > TAG_MAX_CELL_PX) return;
    if (this.tags.observeCode(grey, corners, book, id, decoder)) this.tagSamplesThisFrame++;
  }

  /** The blur tags are read with (px): small tags' own once they taught it, else the sheets'. */
  get readingPx(): number {
    return this.tags.stands ? this.tags.sigmaPx : this.sheets.sigmaPx;
  }

  /**
   * The camera's blur (px): what measuring fits render with and how blurred a tag is judged to be
   * (the limits under blur were set on it). The sheets', or the tags' where no sheet taught it.
   */
  get cameraPx(): number {
    return this.sheets.stands || !this.tags.stands ? this.sheets.sigmaPx : this.tags.sigmaPx;
  }
}

/** A reference sheet's reading counts as this many of a small tag's (its edges are many times longer). */
const SHEET_BLUR_WEIGHT = 2;
/** Firm readings re-fitted per frame to learn the blur (each costs about eight readings). */
const TAG_SAMPLES_PER_FRAME = 2;
/** The same while the tags' blur does not stand yet. */
const FIRST_TAG_SAMPLES_PER_FRAME = 6;
/** Tags with larger cells than this (px) do not teach the reading blur: they are read at any blur. */
const TAG_MAX_CELL_PX = 4;
