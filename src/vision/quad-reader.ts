import type { PixelResponse } from './pixel-response.ts';
import type { FindingStage, Quad } from './candidates.ts';
import { codeBook, type CodeBook, type DictionaryCodes } from './code-book.ts';
import { CodeFit } from './code-fit.ts';
import { edgeFitted, edgeFittedOrNull, measuringCorners } from './corner-measure.ts';
import { readAligned } from './aligned-reread.ts';
import { FirmReadings } from './firm-reading.ts';
import type { FinderOptions } from './finder-types.ts';
import type { FindingPriors, MarkerClass } from './finding-priors.ts';
import type { GreyImage } from './image.ts';
import { fitFrameOnTable } from './table-fit.ts';
import {
  DEFAULT_TEMPLATE_DECODER,
  readQuad,
  type TemplateDecoderOptions,
  type TemplateReading,
} from './template-decoder.ts';

/**
 * Whether a sticker's rough reading is worth placing by the tag's frame (each placement costs a
 * few milliseconds). It must show a printed marker's contrast and its code, on paper, must explain
 * a tenth of its pixels' variance (`paperFit`, as these figures were measured): on tuning scenes
 * (seeds 1781–1782, 720p 20–25 mm and 1080p 15–20 mm, every condition but glare and hands) the
 * 254 rough readings that became firm once placed explained 0.12 or more, while 13 of 23
 * placements tried on clutter frames (cards, dice, rulers; seeds 1321–1327) were below 0.1. And the tag's cells must be a pixel or more along its shorter
 * side: a code whose cells are under a pixel can be read from a grid placed a whole cell off (a
 * 720p tag seen 25° off vertical at the table's far edge in a benchmark scene, cells 1.07 × 0.83 px, was placed 0.8 px
 * low and located 3 mm from its base).
 */
function worthPlacing(r: TemplateReading, quad: Quad, cells: number, minContrast: number): boolean {
  // On tuning scenes every placed reading that became firm started at 41 grey levels or more; a
  // blank card or base top read 0–3.
  if (r.contrast < minContrast || r.paperFit < MIN_PLACING_FIT) return false;
  let shortest = Infinity;
  for (let i = 0; i < 4; i++)
    shortest = Math.min(
      shortest,
      Math.hypot(quad[(i + 1) % 4]!.u - quad[i]!.u, quad[(i + 1) % 4]!.v - quad[i]!.v),
    );
  return shortest / cells >= MIN_PLACED_CELL_PX;
}

const MIN_PLACING_FIT = 0.1;
/**
 * How far a measured quad may be from its marker's square on the table (size and skew, relative):
 * a tag on a slope of 30° is foreshortened 13 %; a corner 4 px astray on a 13 px tag is 30 % off.
 */
const MEASURED_SQUARE_TOLERANCE = 0.15;
const MIN_PLACED_CELL_PX = 1;

/** One quad read over the ids of a marker class, by the stage that asked. */
export interface Attempt {
  readonly reading: TemplateReading;
  readonly markerClass: MarkerClass;
  readonly stage: FindingStage;
  /**
   * True when the reading was judged firm where it was read, before its corners were measured
   * (`measured`): firmness is not judged again at the measured corners, which a measuring picture
   * other than the decoder's moves (a blurred 15 mm tag read firm at 66 nats was refused again at
   * its measured corners once those came from the blur the sheets show; tuning seed 1773).
   */
  readonly firm?: true;
}

/**
 * Reading one quad as a marker for the finder (marker-finder.ts): as found, edge-refined, fitted to
 * its code, or placed on the table by its frame; whether a reading is firm (firm-reading.ts); and
 * the corners a firm reading is measured by (corner-measure.ts). The finder sets the decoder's
 * blur and the table's priors for each frame.
 */
export class QuadReader {
  /** Code books by their ids, keyed by content (the priors' classes are new every frame). */
  private readonly books = new Map<string, CodeBook>();
  readonly codeFit: CodeFit;
  private readonly firmness: FirmReadings;
  decoder: TemplateDecoderOptions = DEFAULT_TEMPLATE_DECODER;
  /** The table's priors in the frame being read (null until the table pose is known). */
  priors: FindingPriors | null = null;
  /** The picture a read tag's corners are measured with (pixel-response.ts); null until learned. */
  response: PixelResponse | null = null;
  /** Whether marker `id`, its edges at `corners`, is being carried (carried-markers.ts). */
  isCarried: (id: number, corners: Quad) => boolean = () => false;

  constructor(
    private readonly codes: DictionaryCodes,
    private readonly referenceIds: ReadonlySet<number>,
    private readonly options: FinderOptions,
  ) {
    this.firmness = new FirmReadings(codes, options);
    this.codeFit = new CodeFit(codes);
  }

  private get cells(): number {
    return this.codes.bitsPerSide + 2;
  }

  /**
   * Reads a quad as it is; when that is not firm, edge-refined as well (the better reading
   * wins), then fitted to its code. A firm reading's corners are the measuring ones.
   */
  read(grey: GreyImage, quad: Quad, markerClass: MarkerClass, stage: FindingStage): Attempt | null {
    const book = this.bookOf(markerClass);
    const raw = readQuad(grey, quad, book, this.decoder);
    if (raw && this.isFirm(raw, grey)) return this.measured(grey, raw, markerClass, stage);
    const refined = edgeFittedOrNull(grey, quad, this.cells);
    const again = refined ? readQuad(grey, refined, book, this.decoder) : null;
    const best = again && (!raw || again.evidence > raw.evidence) ? again : raw;
    if (!best) return null;
    const aligned =
      this.codeFit.cellPx(best.corners) < this.options.alignBelowCellPx &&
      best.evidence >= this.options.tentativeEvidence &&
      !this.isFirm(best, grey)
        ? readAligned(best, {
            grey,
            book,
            markerClass,
            codeFit: this.codeFit,
            decoder: this.decoder,
            priors: this.priors,
            isFirm: (r) => this.isFirm(r, grey),
          })
        : null;
    const reading = aligned ?? best;
    // A firm reading is measured as one firm at first sight is (above): not by the corners it was read at.
    if (this.isFirm(reading, grey)) return this.measured(grey, reading, markerClass, stage);
    return { reading, markerClass, stage };
  }

  /**
   * Reads a quad only roughly where a tag is (`read`): one inferred from the white sticker round a
   * tag, or a tag's own quad under blur wide against its cells (`blurWideFor`); when that is not
   * firm but looks like a printed tag (`worthPlacing`), again where the tag's frame fitted on the
   * table places it (table-fit.ts). Returns the better attempt and whether it is firm.
   */
  readOrPlace(
    grey: GreyImage,
    quad: Quad,
    markerClass: MarkerClass,
    stage: FindingStage = 'surround',
  ): { attempt: Attempt | null; firm: boolean } {
    const attempt = this.read(grey, quad, markerClass, stage);
    const firm = !!attempt && this.isFirmAttempt(attempt, grey);
    if (firm || !attempt || !worthPlacing(attempt.reading, quad, this.cells, this.options.minContrast))
      return { attempt, firm };
    const framed = this.framedOnTable(grey, quad, markerClass);
    const again = framed ? readQuad(grey, framed, this.bookOf(markerClass), this.decoder) : null;
    if (!again) return { attempt, firm };
    // The placement is what a fit can get wrong: the code must also beat the best other code in
    // play when both are fitted at their best.
    const againFirm =
      this.isFirm(again, grey) &&
      this.firmness.standsWhenPlaced(again, grey, this.decoder, this.edgeFit(grey));
    if (againFirm) return { attempt: this.measured(grey, again, markerClass, stage), firm: true };
    if (again.evidence > attempt.reading.evidence)
      return { attempt: { reading: again, markerClass, stage }, firm: false };
    return { attempt, firm };
  }

  /**
   * Whether the camera's blur is wide against a quad's cells (σ/cell from `blurredEvidenceFrom`):
   * then a tag's own dark quad comes out about a fifth too large (its border smeared past the
   * threshold) and is read, like a sticker's, again where its frame fitted on the table places it.
   * Tuning scenes (1080p 15 mm, blur σ 1.4, tilt 15°, seed 1901): 2 of 11 missed tags had only
   * such a quad, 1.20–1.22 × the tag, read at 11–31 nats; at the true corners 159–194.
   */
  blurWideFor(quad: Quad): boolean {
    return this.decoder.blurSigmaPx / this.codeFit.cellPx(quad) >= this.options.blurredEvidenceFrom;
  }

  /** Whether an attempt is firm: as judged before its corners were measured, or judged now. */
  isFirmAttempt(a: Attempt, grey: GreyImage): boolean {
    return a.firm === true || this.isFirm(a.reading, grey);
  }

  isFirm(r: TemplateReading, grey: GreyImage): boolean {
    return this.firmness.isFirm(r, grey, this.decoder, this.edgeFit(grey));
  }

  /** Corners for measuring a marker whose id is known (corner-measure.ts). */
  measuringCorners(grey: GreyImage, id: number, corners: Quad): Quad {
    return measuringCorners(grey, id, corners, {
      codeFit: this.codeFit,
      cells: this.cells,
      alignBelowCellPx: this.options.alignBelowCellPx,
      blurSigmaPx: this.decoder.blurSigmaPx,
      response: this.response,
      isReference: this.referenceIds.has(id),
      isCarried: (edges) => this.isCarried(id, edges),
      isSquare: (q) => {
        const priors = this.priors;
        const markerClass = priors?.classOf(id);
        return !priors || !markerClass || priors.isMarkerSquare(q, markerClass, MEASURED_SQUARE_TOLERANCE);
      },
    });
  }

  bookOf(markerClass: Pick<MarkerClass, 'ids'>): CodeBook {
    const key = markerClass.ids.join(',');
    let book = this.books.get(key);
    if (!book) this.books.set(key, (book = codeBook(this.codes, markerClass.ids)));
    return book;
  }

  private measured(
    grey: GreyImage,
    reading: TemplateReading,
    markerClass: MarkerClass,
    stage: FindingStage,
  ): Attempt {
    return {
      reading: { ...reading, corners: this.measuringCorners(grey, reading.id, reading.corners) },
      markerClass,
      stage,
      firm: true,
    };
  }

  private edgeFit(grey: GreyImage): (corners: Quad) => Quad {
    return (q) => edgeFitted(grey, q, this.cells);
  }

  /** The tag's frame fitted on the table from a rough quad (table-fit.ts), or null. */
  private framedOnTable(grey: GreyImage, quad: Quad, markerClass: MarkerClass): Quad | null {
    if (!this.priors) return null;
    return fitFrameOnTable(
      grey,
      quad,
      this.cells,
      { camera: this.priors.camera, pose: this.priors.pose, ...markerClass },
      this.decoder.blurSigmaPx,
    );
  }
}
