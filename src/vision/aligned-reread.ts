import type { CodeBook } from './code-book.ts';
import type { CodeFit } from './code-fit.ts';
import type { FindingPriors, MarkerClass } from './finding-priors.ts';
import type { GreyImage } from './image.ts';
import { readQuad, type TemplateDecoderOptions, type TemplateReading } from './template-decoder.ts';

/** Share of an aligned re-reading's evidence that must be firm on its own. */
const ALIGNED_EVIDENCE_SHARE = 0.5;
/** How far (relative size and skew on the table) a fitted quad may be from the marker's square. */
const ALIGNED_SQUARE_TOLERANCE = 0.08;
/**
 * Blur (σ, px) per cell beyond which no fit is tried. There a checkerboard of cells keeps
 * exp(−π²/2 · 0.9²) ≈ 2 % of its contrast, a couple of grey levels under the sensor's noise: the
 * fit has nothing to lock onto, and it is the costliest read (≈ 5 ms a quad; a whole-frame search
 * of a blurred 1080p table of 15 mm tags spent 170 ms in it and read none). Tuning scenes (seeds
 * 1504–1510, blur σ 1.4 px, learned as 1.3: 1080p 15 and 20 mm, 720p 20 and 25 mm, tilt 0–25°):
 * of 2,680 fits, the 180 that read held 0.864 at most.
 */
const MAX_BLUR_PER_CELL = 0.9;

export interface AlignedRereadContext {
  readonly grey: GreyImage;
  readonly book: CodeBook;
  readonly markerClass: MarkerClass;
  readonly codeFit: CodeFit;
  readonly decoder: TemplateDecoderOptions;
  /** The table's priors; without them nothing is read again. */
  readonly priors: FindingPriors | null;
  readonly isFirm: (reading: TemplateReading) => boolean;
}

/**
 * A small tag the decoder left unsure, read again with its corners fitted to the code it was
 * read as (code-fit.ts). Under blur a quad found from edges sits a fraction of a cell off and the
 * grid blurs the code away; fitted, the code's own cells line up. The fit favours the code it was
 * fitted to, so the new reading must keep its id, be firm at a part of its evidence
 * (ALIGNED_EVIDENCE_SHARE), and the fitted corners must make the marker's square on the table
 * closely (ALIGNED_SQUARE_TOLERANCE: a printed card in the tuning clutter, seed 1301, was fitted
 * into a 16 × 19 px oblong and read). Tuning scenes (seeds 1501–1508; 1080p 20 mm and 720p 25 mm,
 * blur σ 1.4, tilt 0–25°): at full evidence a 20 mm tag 42 was read as 55 (67 nats at σ/cell
 * 0.73); as it is, 0 false there and in 336 blurred and sharp clutter frames (seeds 1301–1307).
 */
export function readAligned(reading: TemplateReading, c: AlignedRereadContext): TemplateReading | null {
  const cellPx = c.codeFit.cellPx(reading.corners);
  if (c.decoder.blurSigmaPx > MAX_BLUR_PER_CELL * cellPx) return null;
  const fitted = c.codeFit.fit(c.grey, reading.corners, reading.id, {
    blurSigmaPx: c.decoder.blurSigmaPx,
    maxShiftPx: Math.max(1.5, cellPx),
    coarse: true,
  });
  if (!fitted || !c.priors?.isMarkerSquare(fitted.corners, c.markerClass, ALIGNED_SQUARE_TOLERANCE))
    return null;
  const again = readQuad(c.grey, fitted.corners, c.book, c.decoder);
  if (!again || again.id !== reading.id || again.evidence <= reading.evidence) return null;
  return c.isFirm({ ...again, evidence: again.evidence * ALIGNED_EVIDENCE_SHARE }) ? again : null;
}
