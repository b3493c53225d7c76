import type { Pixel } from '../camera/projection.ts';
import { quadSide } from './candidates.ts';
import type { DictionaryCodes } from './code-book.ts';
import type { GreyImage } from './image.ts';
import { dataContrastShare } from './data-contrast.ts';
import { codePattern } from './code-fit.ts';
import { quietZoneLightness } from './quiet-zone.ts';
import { RivalCheck, rivalHolds } from './rival-check.ts';
import type { TemplateDecoderOptions, TemplateReading } from './template-decoder.ts';

type Corners = readonly [Pixel, Pixel, Pixel, Pixel];

/** When a reading of a code in play is firm (marker-finder.ts takes firm readings as found). */
export interface FirmnessOptions {
  /** Log-likelihood ratio (nats) a code in play needs over every rival in play. */
  readonly firmEvidence: number;
  /** …and over the best code not in play. */
  readonly minPlausibility: number;
  /** Fitted white − black, grey levels: less is not a printed marker. */
  readonly minContrast: number;
  /** Firm readings with cells narrower than this (px) get their corners fitted to their code. */
  readonly alignBelowCellPx: number;
  /**
   * A firm reading whose code explains less than this share of the pixels' variance (`fit`, the
   * surround past the quiet zone at its own level)…
   */
  readonly minDarkSurroundFit: number;
  /** …must have a quiet zone at least this light (quiet-zone.ts), or it is not a printed marker. */
  readonly minQuietZone: number;
  /**
   * A firm reading of a small tag (cells under `alignBelowCellPx`) with less evidence than this
   * (nats) over another code in play must still win when both codes are fitted at their best
   * (rival-check.ts).
   */
  readonly rivalCheckBelowEvidence: number;
  /**
   * The data cells' share of the contrast (data-contrast.ts) below which a reading is a ring or
   * an outline with a plain middle, not a printed code. Tuning scenes (1080p, 15–25 mm, every
   * condition, tilt 0/25°, seed 1525): firm readings 0.35 at the lowest, p1 0.80, median 1.16;
   * the outline read as a marker: 0.02.
   */
  readonly minDataContrastShare: number;
  /** Blur over cell size (σ px / cell px) above which a reading needs more evidence… */
  readonly blurredEvidenceFrom: number;
  /** …five times more per this much more blur over cell size. */
  readonly blurredEvidenceSpan: number;
  /**
   * …unless, on a small tag, the runner-up code in play fitted at its best leaves at least this
   * much more residual than the reading's own code fitted at its best (relative: (rival − own) /
   * own; rival-check.ts). The fit takes the quad's misplacement out, which is what overstates a
   * blurred reading's evidence. Tuning scenes (1080p 15–20 mm and 720p 25 mm under blur σ 1.4,
   * tilt 15–25°, seeds 1721–1734; readings at σ/cell over 0.6 with 12 nats or more): readings of
   * another code than the tag's reached 0.95 at most (352), correct readings a median of 1.96
   * (2,452). At 1.5, seeds 1751–1754 found 171 → 189 and 113 → 130 of 216 20 mm tags (tilt 15°,
   * 25°) and 9 → 33 and 18 → 36 of 216 15 mm tags, none false.
   */
  readonly blurredFitMargin: number;
}

/**
 * The finder's test of a reading: enough evidence for the blur it was read under, a clear margin
 * over codes not in play, a printed marker's contrast and quiet zone, and, for a close call
 * between two codes in play on a small tag, the better fit of the two. Rival checks are
 * remembered per reading (the finder may ask twice).
 */
export class FirmReadings {
  private readonly rivals: RivalCheck;
  private readonly margins = new WeakMap<TemplateReading, Map<number, number | null>>();

  constructor(
    private readonly codes: DictionaryCodes,
    private readonly options: FirmnessOptions,
  ) {
    this.rivals = new RivalCheck(codes);
  }

  isFirm(
    r: TemplateReading,
    grey: GreyImage,
    decoder: TemplateDecoderOptions,
    edgeFitted: (corners: Corners) => Corners,
  ): boolean {
    if (r.evidence < this.options.firmEvidence || r.contrast < this.options.minContrast) return false;
    // A code not in play close to or better than ours: under blur, may be settled by fitting both.
    const foreignClose = r.plausibility < this.options.minPlausibility;
    if (foreignClose && !this.mayOutfitForeign(r, decoder.blurSigmaPx)) return false;
    // Short of what its blur asks, a reading may still stand on its code fitted at its best.
    const shortForBlur = r.evidence < this.evidenceNeeded(r, decoder.blurSigmaPx);
    if (shortForBlur && !this.mayStandOnFit(r)) return false;
    // A printed marker has paper all round and cells its code explains. A die showing four or five
    // on the cloth has neither, though its pips can match a code in play (quiet-zone.ts).
    if (r.fit < this.options.minDarkSurroundFit) {
      const lightness = quietZoneLightness(grey, r.corners, this.codes.bitsPerSide, this.codes.bits(r.id));
      if (lightness !== null && lightness < this.options.minQuietZone) return false;
    }
    const cells = this.codes.bitsPerSide + 2;
    const share = dataContrastShare(
      grey,
      r.corners,
      cells,
      codePattern(this.codes, r.id),
      decoder.blurSigmaPx,
      r.contrast,
    );
    if (share !== null && share < this.options.minDataContrastShare) return false;
    if (foreignClose) {
      const margin = this.fittedMargin(r, r.foreign!.id, grey, decoder, edgeFitted);
      if (margin === null || margin < this.options.blurredFitMargin) return false;
    }
    if (shortForBlur) {
      const margin = this.fittedMargin(r, r.rivalCodeId, grey, decoder, edgeFitted);
      return margin !== null && margin >= this.options.blurredFitMargin;
    }
    // A close call between two codes in play on a small tag: each code fitted at its best decides.
    if (r.evidence >= this.options.rivalCheckBelowEvidence || this.cellPx(r) >= this.options.alignBelowCellPx)
      return true;
    return rivalHolds(this.fittedMargin(r, r.runnerUpId, grey, decoder, edgeFitted));
  }

  /**
   * Whether a reading of a quad placed by fitting the tag's frame (its code unknown) stands on its
   * code fitted at its best against the best other code in play: the placement is what a fit can
   * get wrong, so the margin asked is the blurred readings' (`blurredFitMargin`).
   */
  standsWhenPlaced(
    r: TemplateReading,
    grey: GreyImage,
    decoder: TemplateDecoderOptions,
    edgeFitted: (corners: Corners) => Corners,
  ): boolean {
    if (this.cellPx(r) >= this.options.alignBelowCellPx || r.rivalCodeId < 0 || r.rivalCodeId === r.id)
      return true;
    const margin = this.fittedMargin(r, r.rivalCodeId, grey, decoder, edgeFitted);
    return margin !== null && margin >= this.options.blurredFitMargin;
  }

  /** Width of one cell of a reading's quad, px. */
  private cellPx(r: TemplateReading): number {
    return quadSide(r.corners) / (this.codes.bitsPerSide + 2);
  }

  /**
   * A small tag under blur wide against its cells, read as a code in play that a code not in play
   * explains about as well or better, may be judged by the two codes each fitted at its best: with
   * 587 codes in the dictionary and only a few in play, one of the many not in play often fits a
   * blurred, slightly misplaced grid better by chance. Tuning scenes (720p 25 mm, blur σ 1.4, tilt
   * 0–25°, seeds 1905–1906, three frames): 20 correct readings of 12–55 nats were held back by such
   * a code; the fitted margin over it was 2.3–31.
   */
  private mayOutfitForeign(r: TemplateReading, blurSigmaPx: number): boolean {
    const cellPx = this.cellPx(r);
    return (
      r.foreign !== null &&
      cellPx < this.options.alignBelowCellPx &&
      blurSigmaPx / cellPx >= this.options.blurredEvidenceFrom
    );
  }

  /** A blurred small tag's reading may be judged by its own code's fit against its rival code's. */
  private mayStandOnFit(r: TemplateReading): boolean {
    return r.rivalCodeId >= 0 && r.rivalCodeId !== r.id && this.cellPx(r) < this.options.alignBelowCellPx;
  }

  /** A rival code's fitted margin (rival-check.ts), asked once per reading and rival. */
  private fittedMargin(
    r: TemplateReading,
    rivalId: number,
    grey: GreyImage,
    decoder: TemplateDecoderOptions,
    edgeFitted: (corners: Corners) => Corners,
  ): number | null {
    let byRival = this.margins.get(r);
    if (!byRival) this.margins.set(r, (byRival = new Map()));
    if (byRival.has(rivalId)) return byRival.get(rivalId) ?? null;
    const margin = this.rivals.fittedMargin(grey, r, rivalId, decoder, edgeFitted);
    byRival.set(rivalId, margin);
    return margin;
  }

  /**
   * Evidence a reading needs to be firm. Where the blur is wide against the cells, the picture
   * keeps little of the code (a Gaussian's contrast at the cell frequency falls as
   * exp(−π²σ²/2c²): a third at σ/c 0.6, a twentieth at 0.78) and what the decoder's misfit
   * leaves is correlated over neighbouring pixels, so its evidence is overstated: the need grows
   * fivefold per `blurredEvidenceSpan` of σ/cell above `blurredEvidenceFrom`. Tuning scenes
   * (1080p, blur σ 1.4, 20 mm, tilt 25°, seeds 1505–1508): tag 42 read as 58 (46 nats, σ/cell
   * 0.78) and as 55 (32 nats, 0.74); with this, 0 false and 92 of 216 found instead of 107.
   */
  private evidenceNeeded(r: TemplateReading, blurSigmaPx: number): number {
    return this.options.firmEvidence * blurOverstatement(blurSigmaPx, this.cellPx(r), this.options);
  }
}

/**
 * How many times a likelihood ratio between two fits of a small tag is overstated under blur wide
 * against its cells (see evidenceNeeded): 1 up to `blurredEvidenceFrom` of σ/cell, then five
 * times more per `blurredEvidenceSpan`.
 */
export function blurOverstatement(
  blurSigmaPx: number,
  cellPx: number,
  options: Pick<FirmnessOptions, 'blurredEvidenceFrom' | 'blurredEvidenceSpan'>,
): number {
  const over = blurSigmaPx / cellPx - options.blurredEvidenceFrom;
  return over > 0 ? Math.pow(5, over / options.blurredEvidenceSpan) : 1;
}
