import type { Pixel } from '../camera/projection.ts';
import {
  quadCentre,
  quadDistance,
  quadShape,
  quadSide,
  quadsOverlap,
  type FindingStage,
  type Quad,
} from './candidates.ts';
import { codeBook, type CodeBook, type DictionaryCodes } from './code-book.ts';
import { edgeFitted, edgeFittedOrNull, measuringCorners } from './corner-measure.ts';
import { rereadSheets } from './sheet-reread.ts';
import { BlurEstimate } from './blur-estimate.ts';
import { PatchEvidence } from './evidence.ts';
import type { LearnedTagReader } from './learned-reader.ts';
import { readUnsureQuads } from './learned-stage.ts';
import { readAligned } from './aligned-reread.ts';
import { CodeFit, codePattern } from './code-fit.ts';
import { DEFAULT_TABLE_FIT, fitOnTable } from './table-fit.ts';
import { blurOverstatement, FirmReadings } from './firm-reading.ts';
import {
  DEFAULT_FINDER,
  SHEET_BLUR_WEIGHT,
  type FinderInput,
  type FinderOptions,
  type FinderResult,
  type FoundMarker,
  type TableKnowledge,
} from './finder-types.ts';

export { DEFAULT_FINDER, type FinderOptions, type FoundMarker } from './finder-types.ts';
import { StillMarkers } from './still-markers.ts';
import type { FindingPriors, MarkerClass } from './finding-priors.ts';
import type { GreyImage } from './image.ts';
import type { RoiSearch } from './roi-search.ts';
import {
  DEFAULT_TEMPLATE_DECODER,
  readQuad,
  type TemplateDecoderOptions,
  type TemplateReading,
} from './template-decoder.ts';

/**
 * The search for markers, given what the table already knows (ARCHITECTURE §3: "finding is a
 * search with priors"). Per frame:
 * 0. markers whose surroundings did not change since they were read stay as they were
 *    (still-markers.ts): on a still table this is nearly all of them, at almost no cost;
 * 1. quads OpenCV read exactly (no corrected bits) are taken as read: the reference sheets and
 *    every large tag, at no extra cost;
 * 2. every other quad is explained by the scenario (finding-priors.ts) or dropped: it must
 *    back-project to a declared marker's size, or to the white sticker around one; what remains
 *    is read by maximum likelihood over the ids of that size (template-decoder.ts);
 *    (2b. with a learned tag reader, small quads the decoder left unsure are read by the network;
 *    learned-stage.ts, docs/learned-reader.md);
 * 3. bases the tracker knows and that were not found yet are read where their marker should be;
 * 4. what is still missing or unsure is searched again in upsampled regions (roi-search.ts);
 * 5. still markers that no single frame settles are averaged over frames (evidence.ts);
 * 6. small base tags read afresh are measured as squares on the table (table-fit.ts).
 * A marker not in play is reported only when OpenCV read its code exactly on a well-resolved
 * square, and never where a declared marker was found.
 */

interface Attempt {
  readonly reading: TemplateReading;
  readonly markerClass: MarkerClass;
  readonly stage: FindingStage;
}

export class MarkerFinder {
  /**
   * Code books by their ids (a book depends on nothing else). Keyed by content, not by the
   * MarkerClass object: the priors, and their classes, are new every frame.
   */
  private readonly books = new Map<string, CodeBook>();
  private readonly evidence = new PatchEvidence();
  /** Markers read before whose surroundings have not changed (still-markers.ts). */
  private readonly still = new StillMarkers<FoundMarker>();
  /** The camera's blur, learned from markers read (blur-estimate.ts). */
  private readonly blur = new BlurEstimate();
  private decoderOptions: TemplateDecoderOptions = DEFAULT_TEMPLATE_DECODER;
  private currentGrey: GreyImage | null = null;
  /** The table's priors in the frame being searched (null until the table pose is known). */
  private currentPriors: FindingPriors | null = null;
  /** Corners fitted to a code (measuring small tags, reading unsure ones again). */
  private readonly codeFit: CodeFit;
  private blurSamplesThisFrame = 0;
  private referenceBook: CodeBook | null = null;
  private readonly firmness: FirmReadings;

  constructor(
    private readonly codes: DictionaryCodes,
    private readonly referenceIds: ReadonlySet<number>,
    private readonly declaredIds: ReadonlySet<number>,
    private readonly roi: RoiSearch | null,
    readonly options: FinderOptions = DEFAULT_FINDER,
    private readonly learned: LearnedTagReader | null = null,
  ) {
    this.firmness = new FirmReadings(codes, options);
    this.codeFit = new CodeFit(codes);
  }

  /**
   * The search for one frame. `knowledgeFrom` is called once with the markers read so far (the
   * reference sheets among them) and returns the table's priors, or null without a table pose:
   * then only exactly read codes are taken.
   */
  find(
    input: FinderInput,
    knowledgeFrom: (markers: readonly FoundMarker[]) => TableKnowledge | null,
  ): FinderResult {
    this.evidence.nextFrame();
    this.currentGrey = input.grey;
    this.currentPriors = null;
    this.blurSamplesThisFrame = 0;
    this.decoderOptions = { ...this.decoderOptions, blurSigmaPx: this.blur.sigmaPx };
    const cells = this.codes.bitsPerSide + 2;
    const found = new Map<number, FoundMarker>();
    const unknown: FoundMarker[] = [];
    const accept = (m: FoundMarker) => {
      const previous = found.get(m.id);
      if (!previous || m.evidence > previous.evidence) found.set(m.id, m);
    };

    // 0. Markers whose surroundings did not change since they were read.
    const recalled = new Set(this.still.recall(input.grey));
    for (const m of recalled) accept(m);

    // 1. Exact reads: the reference sheets and large tags.
    const used = new Set<Quad>();
    for (const { id, quad } of input.pass.read) {
      if (this.coveredBy(found, quad)) {
        used.add(quad);
      } else if (this.referenceIds.has(id) || this.declaredIds.has(id)) {
        const corners = this.measuringCorners(input.grey, id, quad);
        accept({ id, corners, stage: 'opencv', evidence: Infinity });
        if (this.referenceIds.has(id)) this.learnBlurFromReference(input.grey, id, corners);
        used.add(quad);
      } else if (quadSide(quad) / cells >= this.options.foreignMinCellPx) {
        unknown.push({
          id,
          corners: edgeFitted(input.grey, quad, cells),
          stage: 'opencv',
          evidence: Infinity,
        });
        used.add(quad);
      }
    }
    // 1b. Reference sheets the pass missed (uneven light), looked for again.
    if (input.moreReferences && [...this.referenceIds].some((id) => !found.has(id)))
      for (const { id, quad } of input.moreReferences())
        if (!found.has(id) && !this.coveredBy(found, quad)) {
          const corners = this.measuringCorners(input.grey, id, quad);
          accept({ id, corners, stage: 'opencv', evidence: Infinity });
          this.learnBlurFromReference(input.grey, id, corners);
        }
    // 1c. Sheets still missing, read by the decoder over the sheets' ids (sheet-reread.ts).
    if ([...this.referenceIds].some((id) => !found.has(id)))
      for (const { id, corners, evidence } of this.rereadSheets(input, found, used)) {
        accept({ id, corners, stage: 'reread', evidence });
        this.learnBlurFromReference(input.grey, id, corners);
      }
    // The sheets may just have taught the blur (learnBlurFromReference): read the tags with it.
    this.decoderOptions = { ...this.decoderOptions, blurSigmaPx: this.blur.sigmaPx };
    const knowledge = knowledgeFrom([...found.values()]);
    if (!knowledge) return this.finish(input.grey, found, unknown, null);
    const { priors } = knowledge;
    this.currentPriors = priors;
    // A declared id read exactly must also have a declared marker's size and shape there.
    for (const m of [...found.values()])
      if (m.stage === 'opencv' && this.declaredIds.has(m.id) && !this.fitsDeclared(priors, m.corners))
        found.delete(m.id);

    // 2. Every other quad, explained by the scenario, read over the ids of its size.
    const tentative: Attempt[] = [];
    const unsure: Array<{ quad: Quad; markerClass: MarkerClass }> = [];
    const candidates = [
      ...input.pass.unread,
      ...input.pass.read.filter((r) => !used.has(r.quad)).map((r) => r.quad),
    ];
    for (const quad of candidates) {
      // Nested quads (the tag, its sticker, the base) are one marker: read it once.
      if (this.coveredBy(found, quad)) continue;
      for (const interpretation of priors.interpret(quad)) {
        const stage = interpretation.kind === 'surround' ? 'surround' : 'reread';
        const attempt = this.read(input.grey, interpretation.quad, interpretation.markerClass, stage);
        if (!attempt) continue;
        if (this.isFirm(attempt.reading, input.grey)) accept(this.toFound(attempt));
        else if (attempt.reading.evidence >= this.options.tentativeEvidence) tentative.push(attempt);
        else unsure.push({ quad: interpretation.quad, markerClass: interpretation.markerClass });
      }
    }

    // 2b. The learned reader's opinion on small quads the decoder left unsure.
    if (this.learned) {
      const quads = [
        ...tentative.map((t) => ({ quad: t.reading.corners, markerClass: t.markerClass })),
        ...unsure,
      ].filter((u) => !this.coveredBy(found, u.quad));
      for (const r of readUnsureQuads(this.learned, input.grey, quads, (c) => this.bookOf(c)))
        if (!found.has(r.id) && !this.coveredBy(found, r.corners))
          accept({
            id: r.id,
            corners: this.measuringCorners(input.grey, r.id, r.corners),
            stage: 'learned',
            // Log-odds of the calibrated probability, in nats like the decoder's evidence.
            evidence: Math.log(r.confidence / Math.max(1e-12, 1 - r.confidence)),
          });
    }

    // 3. Known bases where they should be.
    const missing: Array<{ id: number; quad: Quad; markerClass: MarkerClass }> = [];
    for (const { id, quad } of knowledge.expected) {
      if (found.has(id) || this.coveredBy(found, quad)) continue;
      const markerClass = priors.classes.find((c) => c.ids.includes(id));
      if (!markerClass) continue;
      const attempt = this.read(input.grey, quad, markerClass, 'tracked');
      if (attempt && this.isFirm(attempt.reading, input.grey) && attempt.reading.id === id)
        accept(this.toFound(attempt));
      else missing.push({ id, quad, markerClass });
    }

    // 4. Regions searched again, upsampled: unsure and tentative readings, and known bases not found.
    const regions: Array<{ centre: Pixel; halfSizePx: number; markerClass: MarkerClass }> = [];
    const wanted = (q: Quad) => !this.coveredBy(found, q);
    for (const t of tentative)
      if (wanted(t.reading.corners)) regions.push(this.regionOf(t.reading.corners, t.markerClass));
    for (const m of missing) if (wanted(m.quad)) regions.push(this.regionOf(m.quad, m.markerClass));
    for (const u of unsure) if (wanted(u.quad)) regions.push(this.regionOf(u.quad, u.markerClass));
    const searched = dedupeRegions(regions).slice(0, this.options.maxRegionsPerFrame);
    const stillUnsure: Attempt[] = [...tentative];
    if (this.roi && searched.length > 0) {
      const quadsPerRegion = this.roi.search(input.gray, searched);
      searched.forEach((region, i) => {
        for (const quad of quadsPerRegion[i]!) {
          for (const interpretation of priors.interpret(quad)) {
            if (interpretation.markerClass !== region.markerClass) continue;
            const attempt = this.read(input.grey, interpretation.quad, region.markerClass, 'roi');
            if (!attempt) continue;
            if (this.isFirm(attempt.reading, input.grey)) accept(this.toFound(attempt));
            else if (attempt.reading.evidence >= this.options.tentativeEvidence) stillUnsure.push(attempt);
          }
        }
      });
    }

    // 5. Still markers averaged over frames: the best unsure reading of each place, and known bases' places.
    const places: Array<{ quad: Quad; markerClass: MarkerClass }> = [];
    const placed = (q: Quad) => this.coveredBy(found, q) || places.some((p) => quadDistance(p.quad, q) < 1.5);
    for (const a of stillUnsure.sort((x, y) => y.reading.evidence - x.reading.evidence))
      if (!placed(a.reading.corners)) places.push({ quad: a.reading.corners, markerClass: a.markerClass });
    for (const m of missing) if (!placed(m.quad)) places.push(m);
    for (const u of unsure) if (!placed(u.quad)) places.push(u);
    for (const place of places.slice(0, this.options.maxRegionsPerFrame)) {
      const averaged = this.evidence.observe(input.grey, place.quad);
      if (!averaged || averaged.frames < 2) continue;
      const reading = readQuad(
        averaged.image,
        averaged.quad,
        this.bookOf(place.markerClass),
        this.decoderOptions,
      );
      if (!reading || !this.isFirm(reading, averaged.image)) continue;
      const corners = reading.corners.map((c) => ({
        u: c.u + averaged.origin.u,
        v: c.v + averaged.origin.v,
      })) as unknown as Quad;
      accept({ id: reading.id, corners, stage: 'evidence', evidence: reading.evidence });
    }
    return this.finish(input.grey, found, unknown, recalled);
  }

  /** Unknown ids never stand where a declared marker was found; what was found is remembered. */
  private finish(
    grey: GreyImage,
    found: Map<number, FoundMarker>,
    unknown: FoundMarker[],
    recalled: ReadonlySet<FoundMarker> | null,
  ): FinderResult {
    // Markers checked against the table's priors (recalled is null without them) are kept for the
    // next frame; those recalled unchanged keep the pixels they were read with.
    if (recalled)
      for (const [id, m] of found)
        if (!recalled.has(m)) {
          const measured = this.onTable(grey, m);
          found.set(id, measured);
          this.still.remember(grey, measured);
        }
    const markers = [...found.values()];
    return {
      markers,
      unknown: unknown.filter((u) => !markers.some((m) => quadsOverlap(m.corners, u.corners))),
    };
  }

  /** A base's tag measured as a square on the table (table-fit.ts), when the table explains it. */
  private onTable(grey: GreyImage, m: FoundMarker): FoundMarker {
    const priors = this.currentPriors;
    const markerClass = priors && !this.referenceIds.has(m.id) ? priors.classOf(m.id) : undefined;
    // Tags with cells of three pixels or more are measured well by their edges (corner-measure.ts).
    if (!priors || !markerClass || this.codeFit.cellPx(m.corners) >= this.options.alignBelowCellPx) return m;
    const blurSigmaPx = this.decoderOptions.blurSigmaPx;
    // Under blur wide against the cells the free fit's residual advantage is overstated as a
    // reading's evidence is (firm-reading.ts): a free quad then grows a tenth past the tag.
    const overstated = blurOverstatement(blurSigmaPx, this.codeFit.cellPx(m.corners), this.options);
    const corners = fitOnTable(
      grey,
      m.corners,
      codePattern(this.codes, m.id),
      this.codes.bitsPerSide + 2,
      { camera: priors.camera, pose: priors.pose, ...markerClass },
      blurSigmaPx,
      { ...DEFAULT_TABLE_FIT, maxChi2: DEFAULT_TABLE_FIT.maxChi2 * overstated },
    );
    return corners ? { ...m, corners } : m;
  }

  private isFirm(r: TemplateReading, grey: GreyImage): boolean {
    return this.firmness.isFirm(r, grey, this.decoderOptions, (q) =>
      edgeFitted(grey, q, this.codes.bitsPerSide + 2),
    );
  }

  private toFound(a: Attempt): FoundMarker {
    this.learnBlur(a);
    return { id: a.reading.id, corners: a.reading.corners, stage: a.stage, evidence: a.reading.evidence };
  }

  /** A few firm readings of small tags per frame teach the blur estimate. */
  private learnBlur(a: Attempt): void {
    const cells = this.codes.bitsPerSide + 2;
    if (this.blurSamplesThisFrame >= BLUR_SAMPLES_PER_FRAME || quadSide(a.reading.corners) / cells > 4)
      return;
    if (!this.currentGrey) return;
    const book = this.bookOf(a.markerClass);
    if (this.blur.observeCode(this.currentGrey, a.reading.corners, book, a.reading.id, this.decoderOptions))
      this.blurSamplesThisFrame++;
  }

  /**
   * Reference sheets teach the blur until the estimate stands: they are read from the first frame,
   * where a blurred camera's small tags may not be (and the candidate pass's window follows the
   * blur, pipeline.ts). The blur is in pixels whatever the cell size, so a sheet's edges show it;
   * each counts as two readings, so the four sheets of the first frame settle the estimate
   * (a still 720p table under blur read no small tag at the starting blur and never learned it).
   */
  private learnBlurFromReference(grey: GreyImage, id: number, corners: Quad): void {
    if (this.blur.sampleCount >= this.blur.options.minSamples) return;
    this.referenceBook ??= codeBook(this.codes, this.referenceIds);
    this.blur.observeCode(grey, corners, this.referenceBook, id, this.decoderOptions, SHEET_BLUR_WEIGHT);
  }

  private rereadSheets(input: FinderInput, found: Map<number, FoundMarker>, used: Set<Quad>) {
    const sheets = { sizeMm: 0, heightMm: 0, ids: [...this.referenceIds] };
    const sheetsRead = [...found.values()].filter((m) => this.referenceIds.has(m.id));
    return rereadSheets({
      candidates: [
        ...input.pass.unread,
        ...input.pass.read.filter((r) => !used.has(r.quad)).map((r) => r.quad),
      ],
      sheetsRead: sheetsRead.map((m) => m.corners),
      cells: this.codes.bitsPerSide + 2,
      isCovered: (quad) => this.coveredBy(found, quad),
      readFirm: (quad) => {
        const a = this.read(input.grey, quad, sheets, 'reread');
        return a && !found.has(a.reading.id) && this.isFirm(a.reading, input.grey) ? a.reading : null;
      },
    });
  }

  /** The camera's blur as learned so far (px; the starting value until enough markers were read). */
  get blurSigmaPx(): number {
    return this.blur.sigmaPx;
  }

  /**
   * Reads a quad as it is; when that is not firm, edge-refined as well (the better reading
   * wins). A firm reading's corners are edge-refined for measuring.
   */
  private read(grey: GreyImage, quad: Quad, markerClass: MarkerClass, stage: FindingStage): Attempt | null {
    const book = this.bookOf(markerClass);
    const cells = book.bitsPerSide + 2;
    const raw = readQuad(grey, quad, book, this.decoderOptions);
    if (raw && this.isFirm(raw, grey))
      return {
        reading: { ...raw, corners: this.measuringCorners(grey, raw.id, raw.corners) },
        markerClass,
        stage,
      };
    const refined = edgeFittedOrNull(grey, quad, cells);
    const again = refined ? readQuad(grey, refined, book, this.decoderOptions) : null;
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
            decoder: this.decoderOptions,
            priors: this.currentPriors,
            isFirm: (r) => this.isFirm(r, grey),
          })
        : null;
    const reading = aligned ?? best;
    // A firm reading is measured as one firm at first sight is (above): not by the corners it was read at.
    if (this.isFirm(reading, grey))
      return {
        reading: { ...reading, corners: this.measuringCorners(grey, reading.id, reading.corners) },
        markerClass,
        stage,
      };
    return { reading, markerClass, stage };
  }

  /** Corners for measuring a marker whose id is known (corner-measure.ts). */
  private measuringCorners(grey: GreyImage, id: number, corners: Quad): Quad {
    return measuringCorners(grey, id, corners, {
      codeFit: this.codeFit,
      cells: this.codes.bitsPerSide + 2,
      alignBelowCellPx: this.options.alignBelowCellPx,
      blurSigmaPx: this.decoderOptions.blurSigmaPx,
      isReference: this.referenceIds.has(id),
    });
  }

  private bookOf(markerClass: MarkerClass): CodeBook {
    const key = markerClass.ids.join(',');
    let book = this.books.get(key);
    if (!book) this.books.set(key, (book = codeBook(this.codes, markerClass.ids)));
    return book;
  }

  private fitsDeclared(priors: FindingPriors, quad: Quad): boolean {
    return priors.interpret(quad).some((i) => i.kind === 'marker');
  }

  private coveredBy(found: Map<number, FoundMarker>, quad: Quad): boolean {
    const c = quadCentre(quad);
    const side = quadSide(quad);
    for (const m of found.values()) {
      const { centre: mc, side: mSide } = quadShape(m.corners);
      if (Math.hypot(mc.u - c.u, mc.v - c.v) < 0.6 * Math.max(side, mSide)) return true;
    }
    return false;
  }

  private regionOf(quad: Quad, markerClass: MarkerClass) {
    return { centre: quadCentre(quad), halfSizePx: quadSide(quad) * 0.95 + 3, markerClass };
  }
}

/** Firm readings re-fitted per frame to learn the blur (each costs about eight readings). */
const BLUR_SAMPLES_PER_FRAME = 2;

function dedupeRegions<T extends { centre: Pixel; halfSizePx: number }>(regions: T[]): T[] {
  const out: T[] = [];
  for (const r of regions)
    if (!out.some((o) => Math.hypot(o.centre.u - r.centre.u, o.centre.v - r.centre.v) < 0.5 * o.halfSizePx))
      out.push(r);
  return out;
}
