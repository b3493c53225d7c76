import type { CameraProfile } from '../camera/profile.ts';
import type { Scenario } from '../table/scenario.ts';
import { MarkerDetector, type DetectedMarker, type DetectorOptions } from './detector.ts';
import type { Frame } from './frame-source.ts';
import { Locator, type LocatorResult } from './locator.ts';
import { Tracker, type TrackedBase } from './tracker.ts';

export interface PipelineResult {
  readonly sequence: number;
  readonly capturedAt: number;
  readonly detections: readonly DetectedMarker[];
  readonly located: LocatorResult;
  readonly bases: readonly TrackedBase[];
  readonly detectionMs: number;
  readonly locateMs: number;
}

/** Detector → Locator → Tracker for one camera watching one scenario's table. */
export class VisionPipeline {
  private readonly tracker = new Tracker();

  private constructor(
    private readonly detector: MarkerDetector,
    private readonly locator: Locator,
  ) {}

  static async create(
    camera: CameraProfile,
    scenario: Scenario,
    detectorOptions: Partial<DetectorOptions> = {},
  ): Promise<VisionPipeline> {
    const detector = await MarkerDetector.create({
      dictionary: scenario.markerDictionary,
      ...detectorOptions,
    });
    const locator = await Locator.create(camera, scenario);
    return new VisionPipeline(detector, locator);
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
    const t0 = performance.now();
    const detections = this.detector.detect(frame.image);
    const t1 = performance.now();
    const located = this.locator.locate(detections);
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
    this.detector.dispose();
  }
}
