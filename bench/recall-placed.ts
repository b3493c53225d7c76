/**
 * The recall benchmark's placed scenes: bases put down after Vedette has seen the table, which is
 * how players use it (the static scenes start with every base down). The table with its sheets
 * (and the condition's hands, glare, light) for `PLACED_AT` frames with every base off it, then
 * every base at once; found in that frame and `frames` − 1 frames later, 200 ms of capture time
 * apart, scored against the renderer's truth like the static scenes. Before stop 33 such bases
 * were found far less than on a first frame (only the changed parts were searched, at the
 * whole-frame threshold); this keeps that flow measured.
 */
import { syntheticCameraProfile } from '../src/synth/camera.ts';
import { jpegRoundTrip } from '../src/synth/encode.ts';
import { LiveSyntheticTable } from '../src/synth/live-table.ts';
import type { BasePose } from '../src/synth/scene.ts';
import { VisionPipeline } from '../src/vision/pipeline.ts';
import {
  cameraFor,
  classify,
  CONDITION_KEY,
  emptyRun,
  record,
  runFrame,
  STATIC_FRAME_GAP_MS,
  type SceneConfig,
  type SceneRun,
} from './recall-run.ts';
import { conditionSetup, recallScenario, WEBCAM_SENSOR } from './recall-scenes.ts';

/** Frames of the table alone before the bases are put down (the first is a whole-frame search). */
export const PLACED_AT = 3;

export interface PlacedRun extends SceneRun {
  /** False detections in the frames before any base was down. */
  readonly falseBeforeBases: number;
}

/** One placed scene: `frames` frames counted from the one the bases appear in. */
export async function runPlacedScene(config: SceneConfig): Promise<PlacedRun> {
  const { resolution, sizeMm, tiltDeg, condition, seed, frames } = config;
  const scenario = recallScenario(sizeMm, seed);
  const camera = cameraFor(scenario, resolution, tiltDeg);
  const setup = conditionSetup(condition, scenario, seed);
  const live = await LiveSyntheticTable.create(scenario, camera, { ...setup.table, seed });
  live.setSensor({
    noiseSigma: setup.table.noiseSigma ?? WEBCAM_SENSOR.noiseSigma,
    blurSigma: setup.table.blurSigma ?? WEBCAM_SENSOR.blurSigma,
  });
  // Every base far off the table, out of the picture.
  const away: Record<number, BasePose> = Object.fromEntries(
    scenario.units
      .flatMap((u) => u.bases)
      .map((b, i) => [b.marker.id, { x: -4000 - 60 * i, y: -4000, headingDeg: 0 }]),
  );
  const pipeline = await VisionPipeline.create(syntheticCameraProfile(camera), scenario);
  const out = emptyRun(config);
  let falseBeforeBases = 0;
  try {
    for (let f = 0; f < PLACED_AT + frames; f++) {
      const placed = f >= PLACED_AT;
      const frame = live.frameWithPoses(placed ? {} : away, seed * 1000 + CONDITION_KEY[condition] * 100 + f);
      if (f === PLACED_AT) classify(out, frame);
      const image =
        setup.jpegQuality === undefined ? frame.image : await jpegRoundTrip(frame.image, setup.jpegQuality);
      const at = { capturedAt: f * STATIC_FRAME_GAP_MS, sequence: f };
      // Not timed against native OpenCV: the whole-frame ratio is the static scenes' and clutter's.
      const o = await runFrame(pipeline, frame, image, at, null);
      if (!placed) falseBeforeBases += o.falseCount;
      else record(out, o, f === PLACED_AT, f === PLACED_AT + frames - 1);
    }
  } finally {
    pipeline.dispose();
  }
  return { ...out, falseBeforeBases };
}
