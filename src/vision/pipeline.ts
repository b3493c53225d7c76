import type { CameraProfile } from '../camera/profile.ts';
import type { Scenario } from '../table/scenario.ts';
import { DEFAULT_CANDIDATE_PASS } from './candidate-pass.ts';
import { SplitCandidatePass } from './split-pass.ts';
import { dictionaryCodes } from './code-book.ts';
import type { DetectedMarker, DetectorOptions } from './detector.ts';
import { FindingPriors } from './finding-priors.ts';
import type { Frame } from './frame-source.ts';
import { toGrayMat } from './grey-mat.ts';
import { assertRaster } from './image.ts';
import { Locator, type LocatorResult, type TablePoseState } from './locator.ts';
import { MarkerFinder } from './marker-finder.ts';
import { RoiSearch } from './roi-search.ts';
import { loadOpenCV, type OpenCV } from './opencv.ts';
import { Tracker, type TrackedBase } from './tracker.ts';

export interface PipelineResult {
  readonly sequence: number;
  readonly capturedAt: number;
  /** Every marker found (reference, declared and unknown), with the stage that found it. */
  readonly detections: readonly DetectedMarker[];
  readonly located: LocatorResult;
  readonly bases: readonly TrackedBase[];
  readonly detectionMs: number;
  readonly locateMs: number;
}

/**
 * Detector → Locator → Tracker for one camera watching one scenario's table.
 *
 * The table pose comes first (from the reference sheets, read exactly by OpenCV), so the search
 * for the bases' small markers can use it: which sizes are in play where, where known bases
 * should be (marker-finder.ts).
 */
export class VisionPipeline {
  private readonly tracker = new Tracker();

  private constructor(
    private readonly cv: OpenCV,
    private readonly pass: SplitCandidatePass,
    private readonly finder: MarkerFinder,
    private readonly roi: RoiSearch,
    private readonly locator: Locator,
    private readonly scenario: Scenario,
  ) {}

  static async create(
    camera: CameraProfile,
    scenario: Scenario,
    // Kept for callers that tune the plain detector; the pipeline's own search is configured in its modules.
    _detectorOptions: Partial<DetectorOptions> = {},
  ): Promise<VisionPipeline> {
    const cv = await loadOpenCV();
    const dictionary = scenario.markerDictionary;
    const codes = await dictionaryCodes(dictionary);
    const pass = await SplitCandidatePass.create(
      { ...DEFAULT_CANDIDATE_PASS, dictionary },
      splitOverlapRows(camera, scenario),
    );
    const roi = await RoiSearch.create(dictionary, codes.bitsPerSide + 2);
    const referenceIds = new Set(scenario.referenceMarkers.map((m) => m.id));
    const declaredIds = new Set(scenario.units.flatMap((u) => u.bases.map((b) => b.marker.id)));
    const finder = new MarkerFinder(codes, referenceIds, declaredIds, roi);
    const locator = await Locator.create(camera, scenario);
    return new VisionPipeline(cv, pass, finder, roi, locator, scenario);
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
    const gray = toGrayMat(this.cv, frame.image);
    let detections: DetectedMarker[];
    let located: LocatorResult;
    let t1: number;
    try {
      const pass = this.pass.run(gray);
      const grey = { data: gray.data as Uint8Array, width, height };
      // The table pose from the exactly read reference sheets, then the search with it.
      // The table pose from the reference sheets (read first), then the search with it.
      let table: TablePoseState | null = null;
      const found = this.finder.find({ gray, grey, pass }, (markers) => {
        table = this.locator.estimateTablePose(markers);
        if (!table) return null;
        const priors = new FindingPriors(this.camera, table.pose, this.scenario);
        // Next frame's pass may ignore quads smaller than the smallest marker anywhere on the table.
        const smallest = priors.smallestMarkerSidePx(this.scenario.table);
        if (Number.isFinite(smallest))
          this.pass.setMinPerimeterRate((0.7 * 4 * smallest) / Math.max(width, height));
        const expected = this.tracker.all().flatMap((b) => {
          const quad = priors.expectedQuad(b.markerId, b);
          return quad ? [{ id: b.markerId, quad }] : [];
        });
        return { priors, expected };
      });
      detections = [...found.markers, ...found.unknown];
      t1 = performance.now();
      located = this.locator.locateWithPose(table as TablePoseState | null, detections);
    } finally {
      gray.delete();
    }
    // Without a table pose nothing new is measured; the tracker keeps last known poses (marked unseen).
    const bases = this.tracker.update(located.bases, frame.capturedAt);
    const t2 = performance.now();
    return {
      sequence: frame.sequence,
      capturedAt: frame.capturedAt,
      detections,
      located,
      bases,
      detectionMs: t1 - t0,
      locateMs: t2 - t1,
    };
  }

  dispose(): void {
    this.pass.dispose();
    this.roi.dispose();
  }
}

/**
 * Rows the two halves of the candidate pass share: one and a half times the largest square that
 * matters (a reference sheet, or a base's sticker), at the scale the camera frames the table.
 */
function splitOverlapRows(camera: CameraProfile, scenario: Scenario): number {
  const largestMm = Math.max(
    ...scenario.referenceMarkers.map((m) => m.sizeMm),
    ...scenario.units.flatMap((u) => u.bases.map((b) => Math.max(b.widthMm, b.depthMm))),
  );
  const pxPerMm = camera.imageWidth / Math.min(scenario.table.widthMm, scenario.table.depthMm * 1.6);
  return Math.max(48, Math.ceil(1.5 * largestMm * pxPerMm));
}
