import type { PixelResponse } from './pixel-response.ts';
import type { CameraProfile } from '../camera/profile.ts';
import type { Scenario } from '../table/scenario.ts';
import { DEFAULT_CANDIDATE_PASS, type CandidatePassResult } from './candidate-pass.ts';
import { SplitCandidatePass } from './split-pass.ts';
import { ChangeMap } from './change-map.ts';
import { RegionPass } from './region-pass.ts';
import { quadCentre, type Quad } from './candidates.ts';
import { rectContains, type Rect } from './mosaic.ts';
import { dictionaryCodes } from './code-book.ts';
import type { DetectedMarker, DetectorOptions } from './detector.ts';
import { FindingPriors } from './finding-priors.ts';
import type { Frame } from './frame-source.ts';
import { GreyMatConverter } from './grey-mat.ts';
import { assertRaster } from './image.ts';
import { Locator, type LocatorResult, type TablePoseState } from './locator.ts';
import { DEFAULT_FINDER, MarkerFinder } from './marker-finder.ts';
import type { StillRemeasures } from './finder-types.ts';
import { ReferenceSearch } from './reference-search.ts';
import { RoiSearch } from './roi-search.ts';
import { StillAverage } from './still-average.ts';
import { StillMean } from './still-mean.ts';
import { loadOpenCV, type OpenCV } from './opencv.ts';
import { Tracker, type TrackedBase } from './tracker.ts';
import { dimRegions, onTableTest } from './dim-regions.ts';
import {
  DIM_THRESHOLD_CONSTANT,
  dimLook,
  firstLook,
  SECOND_LOOK_BELOW_CELL_PX,
  withSecondLook,
} from './second-look.ts';
import { largestSquarePx, referenceSheetPx, splitOverlapRows } from './table-scale.ts';
import type { TablePose } from '../camera/table-pose.ts';

/** How a frame was searched: the whole frame, or only where the picture changed. */
export interface SearchSummary {
  readonly mode: 'full' | 'changes';
  /** Share of the picture that changed since the previous frame (1 when it could not be compared). */
  readonly changedShare: number;
  /** Regions passed to the candidate pass in `changes` mode. */
  readonly regions: number;
  /** Still tags measured again on their averaged pixels (still-remeasure.ts). */
  readonly stillRemeasures: StillRemeasures;
}

export interface PipelineResult {
  readonly sequence: number;
  readonly capturedAt: number;
  /** Every marker found (reference, declared and unknown), with the stage that found it. */
  readonly detections: readonly DetectedMarker[];
  readonly located: LocatorResult;
  readonly bases: readonly TrackedBase[];
  readonly search: SearchSummary;
  readonly detectionMs: number;
  readonly locateMs: number;
}

export interface PipelineOptions {
  /** Look at the whole frame at least this often (ms of capture time), to catch anything new. */
  readonly fullFrameEveryMs: number;
  /** A frame where more than this share of the picture changed is searched whole. */
  readonly fullFrameShare: number;
  /**
   * Ask the learned tag reader (models/tag-reader) about small quads the classical decoder left
   * unsure. Off by default: see docs/learned-reader.md for what it adds and what it costs.
   */
  readonly learnedReader: boolean;
}

export const DEFAULT_PIPELINE: PipelineOptions = {
  fullFrameEveryMs: 1500,
  fullFrameShare: 0.3,
  learnedReader: false,
};

/**
 * Detector → Locator → Tracker for one camera watching one scenario's table.
 *
 * The table pose comes first (from the reference sheets, read exactly by OpenCV), so the search
 * for the bases' small markers can use it: which sizes are in play where, where known bases
 * should be (marker-finder.ts).
 */
export class VisionPipeline {
  private readonly tracker = new Tracker();
  private readonly changes = new ChangeMap();
  private readonly stillMean = new StillMean(new StillAverage());
  /** The frame's grey Mat, reused from frame to frame (grey-mat.ts). */
  private readonly greyMats: GreyMatConverter;
  private lastFullAt = -Infinity;
  /** Whether the previous frame had a table pose (without one, missing sheets are looked for every frame). */
  private hadTable = false;
  /** The table pose last found: where the table is, for the dim-region search. */
  private lastTable: TablePose | null = null;
  /** Smallest quad perimeter worth finding (px), from the scenario's smallest marker once the table is known. */
  private minPerimeterPx: number;
  /** The smallest declared marker's cell anywhere on the table, px (0 until a table pose: taken as small). */
  private smallestCellPx = 0;

  private constructor(
    private readonly cv: OpenCV,
    private readonly pass: SplitCandidatePass,
    private readonly finder: MarkerFinder,
    private readonly roi: RoiSearch,
    private readonly locator: Locator,
    private readonly scenario: Scenario,
    private readonly regionPass: RegionPass,
    private readonly options: PipelineOptions,
    private readonly references: ReferenceSearch,
    private readonly dimPass: RegionPass,
    private readonly cellsPerSide: number,
  ) {
    this.minPerimeterPx = 0.01 * Math.max(locator.camera.imageWidth, locator.camera.imageHeight);
    this.greyMats = new GreyMatConverter(cv);
  }

  static async create(
    camera: CameraProfile,
    scenario: Scenario,
    // Kept for callers that tune the plain detector; the pipeline's own search is configured in its modules.
    _detectorOptions: Partial<DetectorOptions> = {},
    options: Partial<PipelineOptions> = {},
  ): Promise<VisionPipeline> {
    const cv = await loadOpenCV();
    reserveHeap(cv, HEAP_BYTES_PER_PIXEL * camera.imageWidth * camera.imageHeight);
    const dictionary = scenario.markerDictionary;
    const codes = await dictionaryCodes(dictionary);
    const pass = await SplitCandidatePass.create(
      { ...DEFAULT_CANDIDATE_PASS, dictionary },
      splitOverlapRows(camera, scenario),
    );
    const roi = await RoiSearch.create(dictionary, codes.bitsPerSide + 2);
    const referenceIds = new Set(scenario.referenceMarkers.map((m) => m.id));
    const declaredIds = new Set(scenario.units.flatMap((u) => u.bases.map((b) => b.marker.id)));
    const learnedReader = options.learnedReader ?? DEFAULT_PIPELINE.learnedReader;
    // The shipped model reads 6 × 6 data bits (MIP 36h12, AprilTag 36h11).
    // Loaded only when asked for: TensorFlow.js stays out of the worker otherwise.
    const learned =
      learnedReader && codes.bitsPerSide === 6
        ? await (await import('./learned-reader.ts')).LearnedTagReader.load()
        : null;
    const finder = new MarkerFinder(codes, referenceIds, declaredIds, roi, DEFAULT_FINDER, learned);
    const locator = await Locator.create(camera, scenario);
    // Changed and dim regions go through the whole-frame pass's two threads, with their own settings.
    const regionPass = new RegionPass(cv, pass, {
      thresholdConstant: DEFAULT_CANDIDATE_PASS.thresholdConstant,
      minDistanceToBorderPx: 1,
    });
    const dimPass = new RegionPass(cv, pass, {
      thresholdConstant: DIM_THRESHOLD_CONSTANT,
      minDistanceToBorderPx: 1,
    });
    const sheet = referenceSheetPx(camera, scenario);
    const references = await ReferenceSearch.create(
      dictionary,
      sheet.sidePx / (codes.bitsPerSide + 2),
      sheet.sidePx,
      Math.max(camera.imageWidth, camera.imageHeight),
    );
    return new VisionPipeline(
      cv,
      pass,
      finder,
      roi,
      locator,
      scenario,
      regionPass,
      { ...DEFAULT_PIPELINE, ...options },
      references,
      dimPass,
      codes.bitsPerSide + 2,
    );
  }

  get camera(): CameraProfile {
    return this.locator.camera;
  }

  process(frame: Frame): PipelineResult {
    const { width, height } = frame.image;
    if (width !== this.camera.imageWidth || height !== this.camera.imageHeight) {
      throw new Error(
        `frame is ${width}×${height} but camera profile "${this.camera.name}" is for ${this.camera.imageWidth}×${this.camera.imageHeight}`,
      );
    }
    assertRaster(frame.image);
    const t0 = performance.now();
    // Owned by greyMats: valid for this frame, never deleted here.
    const gray = this.greyMats.convert(frame.image);
    const moving = new Set<number>();
    const grey = { data: gray.data as Uint8Array, width, height };
    // Search the whole frame now and then, and whenever much changed; otherwise only where it changed.
    const change = this.changes.update(grey, largestSquarePx(this.camera, this.scenario));
    const full =
      !change.compared ||
      change.share > this.options.fullFrameShare ||
      frame.capturedAt - this.lastFullAt >= this.options.fullFrameEveryMs ||
      frame.capturedAt < this.lastFullAt;
    // A whole-frame search looks at the still table's averaged picture (still-average.ts).
    this.stillMean.feed(
      grey,
      !change.compared || change.share > this.options.fullFrameShare ? null : change.regions,
      full,
    );
    if (full) this.lastFullAt = frame.capturedAt;
    // The table pose from the reference sheets (read first), then the search with it.
    let table: TablePoseState | null = null;
    let expected: Array<{ id: number; quad: Quad }> = [];
    // Sheets the pass missed are looked for again on whole-frame searches, or until the table is known.
    const referenceIds = new Set(this.scenario.referenceMarkers.map((m) => m.id));
    const moreReferences = full || !this.hadTable ? () => this.references.run(gray, referenceIds) : undefined;
    // The grey view is taken again after the pass: a view into OpenCV's heap is void once it grows.
    const findWith = (pass: CandidatePassResult, sameFrame = false) =>
      this.finder.find(
        {
          gray,
          grey: { data: gray.data as Uint8Array, width, height },
          pass,
          moreReferences,
          sameFrame,
          changed: change.compared ? change.regions : undefined,
          capturedAt: frame.capturedAt,
        },
        (markers) => {
          table = this.locator.estimateTablePose(markers);
          if (!table) return null;
          const priors = new FindingPriors(this.camera, table.pose, this.scenario);
          // Next frame's pass may ignore quads smaller than the smallest marker anywhere on the table.
          const smallest = priors.smallestMarkerSidePx(this.scenario.table);
          if (Number.isFinite(smallest)) {
            this.minPerimeterPx = 0.7 * 4 * smallest;
            this.smallestCellPx = smallest / this.cellsPerSide;
            this.pass.setMinPerimeterRate(this.minPerimeterPx / Math.max(width, height));
          }
          expected = this.tracker.all().flatMap((b) => {
            const quad = priors.expectedQuad(b.markerId, b);
            return quad ? [{ id: b.markerId, quad }] : [];
          });
          return { priors, expected };
        },
      );
    const runPass = () =>
      full
        ? this.wholeFramePass(gray)
        : change.regions.length > 0
          ? this.changedPass(gray, change.regions)
          : { read: [], unread: [] };
    let found = findWith(runPass());
    // A whole-frame search that just learned the camera is blurred looks again with the window
    // that blur needs (once: the window only changes when the blur estimate crosses a band).
    if (this.followBlur() && full) found = findWith(runPass(), true);
    const detections: DetectedMarker[] = [...found.markers, ...found.unknown];
    // Known bases not found where the picture is changing are being moved (a hand, a push), not lost.
    const foundIds = new Set(found.markers.map((m) => m.id));
    for (const e of expected)
      if (!foundIds.has(e.id) && change.regions.some((r) => rectContains(r, quadCentre(e.quad))))
        moving.add(e.id);
    const t1 = performance.now();
    const search: SearchSummary = {
      mode: full ? 'full' : 'changes',
      changedShare: change.share,
      regions: full ? 0 : change.regions.length,
      stillRemeasures: found.stillRemeasures,
    };
    this.hadTable = table !== null;
    if (table) this.lastTable = (table as TablePoseState).pose;
    const located = this.locator.locateWithPose(table as TablePoseState | null, detections);
    // Without a table pose nothing new is measured; the tracker keeps last known poses (marked unseen).
    const bases = this.tracker.update(located.bases, frame.capturedAt, moving);
    const t2 = performance.now();
    return {
      sequence: frame.sequence,
      capturedAt: frame.capturedAt,
      detections,
      located,
      bases,
      search,
      detectionMs: t1 - t0,
      locateMs: t2 - t1,
    };
  }

  /**
   * The whole frame's quads. Under a blurred lens (the wide window is in use) the light squares
   * too: small tags whose black border blurred away are found by their white sticker (tuning
   * scenes, seeds 1501–1502, 720p, blur σ 1.4, 25 mm tags at tilt 0 and 15°: 21 → 74 of 216 read).
   * Light squares are read only as what surrounds a tag (finding-priors.ts `interpret`, light): one
   * the size of a tag, as a blurred or dim sticker comes out, was read as the tag's own square,
   * its corners a cell out (tuning scenes under blur, seeds 1740–1747: 1080p 15 mm at 15°
   * 96 → 90 bases missed of 432, 720p 25 mm at 25° 122 → 120). And the dimly lit parts again,
   * with a threshold their contrast can pass (dim-regions.ts); before the table is known, the
   * whole frame (firstLook).
   */
  private wholeFramePass(gray: OpenCV): CandidatePassResult {
    const pass = this.pass.run(gray);
    const unread = [...pass.unread];
    const light = this.pass.windowPx === BLURRED_WINDOW_PX ? this.pass.runOnLight(gray) : [];
    const grey = { data: gray.data as Uint8Array, width: gray.cols as number, height: gray.rows as number };
    const dim = this.lastTable
      ? dimRegions(
          grey,
          largestSquarePx(this.camera, this.scenario),
          undefined,
          onTableTest(this.camera, this.lastTable, this.scenario.table),
          this.changes.latest,
        )
      : [firstLook(grey.width, grey.height)];
    if (dim.length === 0) return { read: pass.read, unread, light };
    return withSecondLook(
      { read: pass.read, unread, light },
      dimLook(this.dimPass, gray, dim, this.minPerimeterPx),
    );
  }

  /**
   * Where the picture changed, at the whole-frame threshold and again at the first look's lowest
   * one (firstLook): a base put down on the table is as new there as on a first frame, and a small
   * tag needs that threshold to be seen at all. Bases put down at once on a table already known
   * were found far less than the same bases on a first frame (tuning seeds 1795–1796, in that
   * frame: 720p 15 mm under noise 41 of 108 against 105; 720p 25 mm under blur 31 against 107;
   * 1080p 12 mm under uneven light 47 against 107). Light squares too only under a blurred lens,
   * as the whole-frame pass: with them, a white die coming and going at 720p was read as a 12 mm
   * tag through its "sticker" (tuning clutter seed 1385), while under blur they find most tags
   * (720p 25 mm: 76 of 108 without, 105 with). Only for small tags or under blur
   * (SECOND_LOOK_BELOW_CELL_PX).
   */
  private changedPass(gray: OpenCV, regions: readonly Rect[]): CandidatePassResult {
    const pass = this.regionPass.run(gray, regions, this.minPerimeterPx);
    const blurred = this.pass.windowPx === BLURRED_WINDOW_PX;
    if (!blurred && this.smallestCellPx >= SECOND_LOOK_BELOW_CELL_PX) return pass;
    return withSecondLook(
      pass,
      dimLook(
        this.dimPass,
        gray,
        regions.map((r) => ({ ...r, light: 0 })),
        this.minPerimeterPx,
        blurred,
      ),
    );
  }

  /**
   * Sets the candidate window from the blur the finder has learned; true when it changed. A 5 px
   * window finds the black border of 1.2 px cells on a sharp camera; under blur σ ≥ ~1 px that
   * border is smeared past a 5 px window and most small tags' quads are lost, while 9 px finds
   * them (tuning scenes, seeds 1501–1502: 1080p, blur σ 1.4, 20 mm tags, quads found for 11 → 47
   * of 54). The band between the two limits keeps the window from flapping.
   */
  private followBlur(): boolean {
    const sigma = this.finder.blurSigmaPx;
    const current = this.pass.windowPx;
    const wanted =
      sigma >= BLURRED_FROM_PX
        ? BLURRED_WINDOW_PX
        : sigma <= SHARP_FROM_PX
          ? DEFAULT_CANDIDATE_PASS.thresholdWindowPx
          : current;
    if (wanted === current) return false;
    this.pass.setThresholdWindow(wanted);
    return true;
  }

  /** The blur the finder decodes with (px), learned from the markers read. */
  get blurSigmaPx(): number {
    return this.finder.blurSigmaPx;
  }

  /** The camera's pixel response the finder measures tags with (pixel-response.ts), once learned. */
  get pixelResponse(): PixelResponse | null {
    return this.finder.pixelResponse;
  }

  dispose(): void {
    this.pass.dispose();
    this.roi.dispose();
    this.references.dispose();
    this.greyMats.dispose();
  }
}

/** Blur (px) from which the candidate pass uses the wide window, and below which it goes back. */
const BLURRED_FROM_PX = 1.05;
const SHARP_FROM_PX = 0.9;
const BLURRED_WINDOW_PX = 9;
/**
 * OpenCV's heap, reserved for a frame's work up front. The heap grows when a frame needs more
 * than it has, and every typed-array view into it taken before (a grey frame's pixels, held by
 * the finder and the still markers) is then void: at 4K a whole-frame search with a dim region
 * grew it from 134 to 268 MB, and the frames after it found nothing until the next whole-frame
 * search. Reserved once, freed memory is reused and the heap does not grow again.
 */
const HEAP_BYTES_PER_PIXEL = 24;

function reserveHeap(cv: OpenCV, bytes: number): void {
  if ((cv.HEAPU8 as Uint8Array).buffer.byteLength >= bytes) return;
  const block = new cv.Mat(1, bytes, cv.CV_8UC1);
  block.delete();
}
