import type { Pixel } from '../camera/projection.ts';
import { codeBook, type CodeBook, type DictionaryCodes } from './code-book.ts';
import type { GreyImage } from './image.ts';
import { quadSide } from './candidates.ts';
import { CodeFit } from './code-fit.ts';
import { readQuad, type TemplateDecoderOptions, type TemplateReading } from './template-decoder.ts';

type Corners = readonly [Pixel, Pixel, Pixel, Pixel];

/**
 * The second opinion on a small tag read as one id in play when another id in play came close.
 *
 * The decoder reads a quad as found; a blurred tag's quad can sit a fraction of a cell off, and
 * then the grid may match another code in play better than the tag's own (tuning scenes, seeds
 * 1501–1502, 1080p, blur σ 1.4: a 20 mm tag 42 read as 32 with 25 nats over 42). Letting each of
 * the two codes move the corners to fit the picture best (quad-align.ts) takes the misplacement
 * out; the code the picture really shows then fits better. Only close calls on small tags are
 * asked (large tags' edges place the grid well), so a frame pays for a handful of alignments.
 */
export class RivalCheck {
  private readonly books = new Map<number, CodeBook>();
  private readonly codeFit: CodeFit;

  constructor(private readonly codes: DictionaryCodes) {
    this.codeFit = new CodeFit(codes);
  }

  /**
   * True unless the runner-up, each code fitted at its best from the edge-fitted corners,
   * explains the pixels better than the reading's own code.
   */
  holds(
    grey: GreyImage,
    reading: Pick<TemplateReading, 'id' | 'runnerUpId' | 'corners' | 'residualSigma'>,
    decoder: TemplateDecoderOptions,
    edgeFitted: (corners: Corners) => Corners,
  ): boolean {
    return rivalHolds(this.fittedMargin(grey, reading, reading.runnerUpId, decoder, edgeFitted));
  }

  /**
   * How much worse another code (`rivalId`: in play, or not in play for firm-reading.ts's blurred
   * small tags) explains the pixels than the reading's own
   * code, each fitted at its best: (rival's mean squared residual − ours) / ours. A code whose
   * fit fails counts with its residual where it was read: −Infinity when ours fails and the
   * rival fits better than our reading did where the quad was found. Null when there is no such
   * rival, when both fits fail, or when the rival cannot read the quad.
   */
  fittedMargin(
    grey: GreyImage,
    reading: Pick<TemplateReading, 'id' | 'corners' | 'residualSigma'>,
    rivalId: number,
    decoder: TemplateDecoderOptions,
    edgeFitted: (corners: Corners) => Corners,
  ): number | null {
    if (rivalId < 0 || rivalId === reading.id) return null;
    const start = edgeFitted(reading.corners);
    // The rival's own reading of the quad gives its corners in its marker order.
    const rival = readQuad(grey, start, this.bookOf(rivalId), decoder);
    if (!rival) return null;
    const mine = this.fit(grey, start, reading.id, decoder.blurSigmaPx);
    const theirs = this.fit(grey, rival.corners, rival.id, decoder.blurSigmaPx);
    // The rival could not be fitted at all (its fit ran off the tag): it is judged where it was
    // read, as our code is when ours cannot be fitted (below). A blurred 720p tag read with
    // 214 nats was refused for want of a margin (tuning seed 1704, id 61: fitted 12, rival 141).
    if (theirs === null) {
      if (mine === null) return null;
      return (rival.residualSigma * rival.residualSigma - mine) / Math.max(mine, 1e-9);
    }
    // Our code could not be fitted at all: the rival wins if, fitted, it explains the pixels
    // better than our code did where the quad was found.
    if (mine === null) return theirs >= reading.residualSigma * reading.residualSigma ? null : -Infinity;
    return (theirs - mine) / Math.max(mine, 1e-9);
  }

  /** Mean squared residual of the code fitted at its best (corners free within the tag's side). */
  private fit(grey: GreyImage, corners: Corners, id: number, blurSigmaPx: number): number | null {
    const aligned = this.codeFit.fit(grey, corners, id, {
      blurSigmaPx,
      // Under blur a quad found from its surround can sit cells off; a corner moved further
      // than the tag's side has left the tag.
      maxShiftPx: Math.max(1.5, quadSide(corners)),
      coarse: true,
      // The picture the margin's limit was set on (quad-align.ts Footprint).
      footprint: 'tent',
    });
    return aligned && aligned.pixels > 0 ? aligned.sse / aligned.pixels : null;
  }

  private bookOf(id: number): CodeBook {
    let book = this.books.get(id);
    if (!book) this.books.set(id, (book = codeBook(this.codes, [id])));
    return book;
  }
}

/** A reading holds against its runner-up unless the runner-up, both fitted, fits better (null: nothing to say). */
export function rivalHolds(fittedMargin: number | null): boolean {
  return fittedMargin === null || fittedMargin >= 0;
}
