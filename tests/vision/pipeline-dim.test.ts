import { describe, expect, it } from 'vitest';
import { conditionSetup, recallScenario, WEBCAM_SENSOR } from '../../bench/recall-scenes.ts';
import { scoreBases } from '../../bench/recall-score.ts';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import { VisionPipeline } from '../../src/vision/pipeline.ts';

/** The first frame of a recall tuning scene under uneven light, scored against the renderer's truth. */
async function firstFrame(resolution: '720p' | '1080p', sizeMm: number, tiltDeg: number, seed: number) {
  const scenario = recallScenario(sizeMm, seed);
  const camera = frameTable(scenario.table, { resolution, tiltDeg });
  const setup = conditionSetup('uneven light', scenario, seed);
  const live = await LiveSyntheticTable.create(scenario, camera, { ...setup.table, seed });
  live.setSensor({
    noiseSigma: setup.table.noiseSigma ?? WEBCAM_SENSOR.noiseSigma,
    blurSigma: setup.table.blurSigma ?? WEBCAM_SENSOR.blurSigma,
  });
  const pipeline = await VisionPipeline.create(syntheticCameraProfile(camera), scenario);
  try {
    const frame = live.frameWithPoses({}, seed * 1000 + 400);
    const result = pipeline.process({ image: { ...frame.image, channels: 3 }, capturedAt: 0, sequence: 0 });
    const visible = frame.truth.bases.filter((b) => b.marker.inView && b.marker.hiddenFraction === 0);
    return { score: scoreBases(frame.truth, result.located.bases), visible: visible.map((b) => b.markerId) };
  } finally {
    pipeline.dispose();
  }
}

/**
 * In deep shadow a small tag's one-cell black border sinks into the dark base and cloth, and no
 * dark quad is found round it; its white sticker still stands out, and the dim regions are
 * searched for light squares too (pipeline.ts dimLook), read as what surrounds a tag.
 */
describe('tags in deep shadow', () => {
  // Tag 54 under a cast shadow and the lamp's fall-off: grey 1–29 across it; found in no frame before.
  it('finds a 20 mm tag at 1080p whose paper is at grey 29', async () => {
    const { score } = await firstFrame('1080p', 20, 15, 1701);
    expect(score.found.has(54)).toBe(true);
    expect(score.wrong).toEqual([]);
  });

  // 720p 25 mm at 15°: of ten such scenes 28 of 540 bases were missed in the first frame, 1 now.
  it('finds every 25 mm tag of a 720p scene under uneven light', async () => {
    const { score, visible } = await firstFrame('720p', 25, 15, 1724);
    expect(visible.filter((id) => !score.found.has(id))).toEqual([]);
    expect(score.wrong).toEqual([]);
  });
});
