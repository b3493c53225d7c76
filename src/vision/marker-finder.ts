import type { Pixel } from '../camera/projection.ts';
import { quadCentre, quadDistance, quadShape, quadSide, quadsOverlap, type Quad } from './candidates.ts';
import { codeBook, type CodeBook, type DictionaryCodes } from './code-book.ts';
import { edgeFitted } from './corner-measure.ts';
import { rereadSheets } from './sheet-reread.ts';
import { BlurEstimate } from './blur-estimate.ts';
import { PixelResponseEstimate, type PixelResponse } from './pixel-response.ts';
import { CarriedMarkers } from './carried-markers.ts';
import { PatchEvidence } from './evidence.ts';
import type { LearnedTagReader } from './learned-reader.ts';
import { readUnsureQuads } from './learned-stage.ts';
import { codePattern } from './code-fit.ts';
import { StillRemeasurer, withMeasure } from './still-remeasure.ts';
import { DEFAULT_TABLE_FIT, measureOnTable } from './table-fit.ts';
import { QuadReader, type Attempt } from './quad-reader.ts';
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
import { readQuad } from './template-decoder.ts';
import { rectContains } from './mosaic.ts';

/**
 * The search for markers, given what the table already knows (ARCHITECTURE §3: "finding is a
 * search with priors"). Per frame:
 * 0. markers whose surroundings did not change since they were read stay as they were
 *    (still-markers.ts): on a still table this is nearly all of them, at almost no cost;
 * 1. quads OpenCV read exactly (no corrected bits) are taken as read: the reference sheets and
 *    every large tag, at no extra cost;
 * 2. every other quad is explained by the scenario (finding-priors.ts) or dropped: it must
 *    back-project to a declared marker's size, or to the white sticker around one; what remains
 *    is read by maximum likelihood over the ids of that size (template-decoder.ts); a tag found
 *    only through its sticker is read again where its frame, fitted on the table, places it
 *    (quad-reader.ts);
 *    (2b. with a learned tag reader, small quads the decoder left unsure are read by the network;
 *    learned-stage.ts, docs/learned-reader.md);
 * 3. bases the tracker knows and that were not found yet are read where their marker should be;
 * 4. what is still missing or unsure is searched again in upsampled regions (roi-search.ts);
 * 5. still markers that no single frame settles are averaged over frames (evidence.ts);
 * 6. small base tags read afresh are measured as squares on the table (table-fit.ts).
 * A marker not in play is reported only when OpenCV read its code exactly on a well-resolved
 * square, and never where a declared marker was found.
 */

export class MarkerFinder {
  private readonly evidence = new PatchEvidence();
  /** Markers read before whose surroundings have not changed (still-markers.ts). */
  private readonly still = new StillMarkers<FoundMarker>();
  /** The camera's blur, learned from markers read (blur-estimate.ts). */
  private readonly blur = new BlurEstimate();
  private readonly responseEstimate = new PixelResponseEstimate();
  private currentGrey: GreyImage | null = null;
  /** Reads quads, judges readings and measures firm ones; holds the frame's blur and priors. */
  private readonly reader: QuadReader;
  private blurSamplesThisFrame = 0;
  private referenceBook: CodeBook | null = null;
  /** Markers moved since the frame before: measured by their edges alone (carried-markers.ts). */
  private readonly carried: CarriedMarkers;
  /** Small still tags measured again on their averaged pixels (still-remeasure.ts). */
  private readonly remeasure = new StillRemeasurer({
    wanted: (m) => this.fitsOnTable(m),
    isCarried: (id, corners) => this.carried.isCarried(id, corners),
    fitAfresh: (grey, m) => this.onTable(grey, m),
  });

  constructor(
    private readonly codes: DictionaryCodes,
    private readonly referenceIds: ReadonlySet<number>,
    private readonly declaredIds: ReadonlySet<number>,
    private readonly roi: RoiSearch | null,
    readonly options: FinderOptions = DEFAULT_FINDER,
    private readonly learned: LearnedTagReader | null = null,
  ) {
    this.reader = new QuadReader(codes, referenceIds, options);
    this.carried = new CarriedMarkers(options.carriedMinMovePx);
    this.reader.isCarried = (id, corners) => this.carried.isCarried(id, corners);
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
    // A frame looked at twice is one frame: summed twice, one picture's noise would pass for two
    // (a blurred 720p tag read as a code it is not, on "two frames" of one picture; tuning seed 1713).
    if (!input.sameFrame) {
      this.evidence.nextFrame();
      this.carried.nextFrame();
      this.remeasure.nextFrame(input.capturedAt);
    }
    this.currentGrey = input.grey;
    this.reader.priors = null;
    this.blurSamplesThisFrame = 0;
    this.reader.decoder = { ...this.reader.decoder, blurSigmaPx: this.blur.sigmaPx };
    this.reader.response = this.responseEstimate.response;
    const cells = this.codes.bitsPerSide + 2;
    const found = new Map<number, FoundMarker>();
    const unknown: FoundMarker[] = [];
    const accept = (m: FoundMarker) => {
      const previous = found.get(m.id);
      if (!previous || m.evidence > previous.evidence) found.set(m.id, m);
    };

    // 0. Markers whose surroundings did not change since they were read.
    // Where the picture changed, a still tag's sum starts afresh once it settles (still-markers.ts).
    const changing = (corners: Quad) => !!input.changed?.some((r) => rectContains(r, quadCentre(corners)));
    const recalled = new Set(this.still.recall(input.grey, !input.sameFrame, changing));
    for (const m of recalled) accept(m);

    // 1. Exact reads: the reference sheets and large tags.
    const used = new Set<Quad>();
    for (const { id, quad } of input.pass.read) {
      if (this.coveredBy(found, quad)) {
        used.add(quad);
      } else if (this.referenceIds.has(id) || this.declaredIds.has(id)) {
        const corners = this.reader.measuringCorners(input.grey, id, quad);
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
          const corners = this.reader.measuringCorners(input.grey, id, quad);
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
    this.reader.decoder = { ...this.reader.decoder, blurSigmaPx: this.blur.sigmaPx };
    this.reader.response = this.responseEstimate.response;
    const knowledge = knowledgeFrom([...found.values()]);
    if (!knowledge) return this.finish(input.grey, found, unknown, null);
    const { priors } = knowledge;
    this.reader.priors = priors;
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
    const light = new Set(input.pass.light ?? []);
    for (const quad of [...candidates, ...light]) {
      // Nested quads (the tag, its sticker, the base) are one marker: read it once.
      if (this.coveredBy(found, quad)) continue;
      for (const interpretation of priors.interpret(quad, light.has(quad))) {
        const { attempt, firm } =
          interpretation.kind === 'surround'
            ? this.reader.readOrPlace(input.grey, interpretation.quad, interpretation.markerClass)
            : this.reader.blurWideFor(interpretation.quad)
              ? this.reader.readOrPlace(input.grey, interpretation.quad, interpretation.markerClass, 'reread')
              : this.withFirmness(
                  this.reader.read(input.grey, interpretation.quad, interpretation.markerClass, 'reread'),
                  input.grey,
                );
        if (!attempt) continue;
        if (firm) accept(this.toFound(attempt));
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
      for (const r of readUnsureQuads(this.learned, input.grey, quads, (c) => this.reader.bookOf(c)))
        if (!found.has(r.id) && !this.coveredBy(found, r.corners))
          accept({
            id: r.id,
            corners: this.reader.measuringCorners(input.grey, r.id, r.corners),
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
      const attempt = this.reader.read(input.grey, quad, markerClass, 'tracked');
      if (attempt && this.reader.isFirmAttempt(attempt, input.grey) && attempt.reading.id === id)
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
            const attempt = this.reader.read(input.grey, interpretation.quad, region.markerClass, 'roi');
            if (!attempt) continue;
            if (this.reader.isFirmAttempt(attempt, input.grey)) accept(this.toFound(attempt));
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
        this.reader.bookOf(place.markerClass),
        this.reader.decoder,
      );
      if (!reading || !this.reader.isFirm(reading, averaged.image)) continue;
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
    // next frame; those recalled unchanged keep the pixels they were read with. One not measured
    // on the table (carried, or the fit failed) is kept as coarse.
    if (recalled) {
      for (const [id, m] of found)
        if (!recalled.has(m)) {
          const measured = this.onTable(grey, m);
          found.set(id, measured);
          this.still.remember(grey, measured, measured === m);
        }
      if (this.reader.priors) this.remeasure.run(grey, this.still, found, recalled);
    }
    const markers = [...found.values()];
    this.carried.note(markers);
    return {
      markers,
      unknown: unknown.filter((u) => !markers.some((m) => quadsOverlap(m.corners, u.corners))),
      stillRemeasures: this.remeasure.done,
    };
  }

  /**
   * Whether a marker is measured as a square on the table: a declared base's tag with cells under
   * `alignBelowCellPx` (larger ones are measured well by their edges, corner-measure.ts).
   */
  private fitsOnTable(m: FoundMarker): boolean {
    const priors = this.reader.priors;
    return (
      priors !== null &&
      !this.referenceIds.has(m.id) &&
      priors.classOf(m.id) !== undefined &&
      this.reader.codeFit.cellPx(m.corners) < this.options.alignBelowCellPx
    );
  }

  /** A base's tag measured as a square on the table (table-fit.ts), when the table explains it. */
  private onTable(grey: GreyImage, m: FoundMarker): FoundMarker {
    const priors = this.reader.priors;
    const markerClass = priors && !this.referenceIds.has(m.id) ? priors.classOf(m.id) : undefined;
    // A base being carried is measured by its edges until it stands (carried-markers.ts).
    if (!priors || !markerClass || !this.fitsOnTable(m) || this.carried.isCarried(m.id, m.corners)) return m;
    const square = { camera: priors.camera, pose: priors.pose, ...markerClass };
    const measured = measureOnTable(
      grey,
      m.corners,
      codePattern(this.codes, m.id),
      this.codes.bitsPerSide + 2,
      square,
      this.reader.response?.sigmaPx ?? this.reader.decoder.blurSigmaPx,
      { ...DEFAULT_TABLE_FIT, footprint: this.reader.response?.footprint ?? DEFAULT_TABLE_FIT.footprint },
    );
    if (!measured) return m;
    if (measured.kept) this.remeasure.keep(m.id, measured.kept, square);
    return withMeasure(m, measured);
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
    const book = this.reader.bookOf(a.markerClass);
    if (this.blur.observeCode(this.currentGrey, a.reading.corners, book, a.reading.id, this.reader.decoder))
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
    if (!this.responseEstimate.settled)
      this.responseEstimate.observe(grey, corners, codePattern(this.codes, id), this.codes.bitsPerSide + 2);
    if (this.blur.sampleCount >= this.blur.options.minSamples) return;
    this.referenceBook ??= codeBook(this.codes, this.referenceIds);
    this.blur.observeCode(grey, corners, this.referenceBook, id, this.reader.decoder, SHEET_BLUR_WEIGHT);
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
        const a = this.reader.read(input.grey, quad, sheets, 'reread');
        return a && !found.has(a.reading.id) && this.reader.isFirmAttempt(a, input.grey) ? a.reading : null;
      },
    });
  }

  /** The camera's blur as learned so far (px; the starting value until enough markers were read). */
  get blurSigmaPx(): number {
    return this.blur.sigmaPx;
  }

  /** The camera's pixel response learned from the sheets, or null before enough were read. */
  get pixelResponse(): PixelResponse | null {
    return this.responseEstimate.response;
  }

  private withFirmness(attempt: Attempt | null, grey: GreyImage): { attempt: Attempt | null; firm: boolean } {
    return { attempt, firm: !!attempt && this.reader.isFirmAttempt(attempt, grey) };
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
