import { conditionSetup, recallScenario, WEBCAM_SENSOR, type Condition } from '../../bench/recall-scenes.ts';
import { scoreBases, type BaseScore } from '../../bench/recall-score.ts';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import { VisionPipeline, type PipelineResult } from '../../src/vision/pipeline.ts';

export interface RecallSceneConfig {
  resolution: '720p' | '1080p';
  sizeMm: number;
  tiltDeg: number;
  condition: Condition;
  seed: number;
}

/** A recall scene's table, camera and renderer under its condition, as the recall benchmark sets them up. */
export async function recallTable(o: RecallSceneConfig) {
  const scenario = recallScenario(o.sizeMm, o.seed);
  const camera = frameTable(scenario.table, { resolution: o.resolution, tiltDeg: o.tiltDeg });
  const setup = conditionSetup(o.condition, scenario, o.seed);
  const live = await LiveSyntheticTable.create(scenario, camera, { ...setup.table, seed: o.seed });
  live.setSensor({
    noiseSigma: setup.table.noiseSigma ?? WEBCAM_SENSOR.noiseSigma,
    blurSigma: setup.table.blurSigma ?? WEBCAM_SENSOR.blurSigma,
  });
  return { scenario, camera, live };
}

/**
 * The first frame of a recall tuning scene (never a benchmark seed: those start at 5000), drawn
 * as the recall benchmark draws it, through a fresh pipeline, scored against the renderer's truth.
 */
export async function firstFrameOf(
  o: RecallSceneConfig,
): Promise<{ result: PipelineResult; score: BaseScore; visible: number[] }> {
  const { scenario, camera, live } = await recallTable(o);
  const pipeline = await VisionPipeline.create(syntheticCameraProfile(camera), scenario);
  try {
    const frame = live.frameWithPoses({}, o.seed * 1000 + 400);
    const result = pipeline.process({ image: { ...frame.image, channels: 3 }, capturedAt: 0, sequence: 0 });
    const visible = frame.truth.bases
      .filter((b) => b.marker.inView && b.marker.hiddenFraction === 0)
      .map((b) => b.markerId);
    return { result, score: scoreBases(frame.truth, result.located.bases), visible };
  } finally {
    pipeline.dispose();
  }
}
