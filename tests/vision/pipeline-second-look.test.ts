import { afterEach, describe, expect, it, vi } from 'vitest';
import { conditionSetup, recallScenario, WEBCAM_SENSOR } from '../../bench/recall-scenes.ts';
import { scoreBases } from '../../bench/recall-score.ts';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import { PatchEvidence } from '../../src/vision/evidence.ts';
import { MarkerFinder } from '../../src/vision/marker-finder.ts';
import { VisionPipeline } from '../../src/vision/pipeline.ts';

/**
 * A whole-frame search that learns the camera is blurred looks at the frame again with a wider
 * window (pipeline.ts). That second look is the same picture: the pixels summed over frames for
 * still tags must not count it twice. They did, and the evidence stage, which waits for two
 * frames, read a blurred 720p tag as a code it is not on "two frames" of one picture (tuning seed
 * 1713, 20 mm tags at 15°, blur σ 1.4: id 39 placed 0.4 m from its base).
 */
describe('the second look at a frame', () => {
  afterEach(() => vi.restoreAllMocks());

  it('starts no new frame of evidence, and places no base where it is not', async () => {
    const seed = 1713;
    const scenario = recallScenario(20, seed);
    const camera = frameTable(scenario.table, { resolution: '720p', tiltDeg: 15 });
    const setup = conditionSetup('blur', scenario, seed);
    const live = await LiveSyntheticTable.create(scenario, camera, { ...setup.table, seed });
    live.setSensor({
      noiseSigma: setup.table.noiseSigma ?? WEBCAM_SENSOR.noiseSigma,
      blurSigma: setup.table.blurSigma ?? WEBCAM_SENSOR.blurSigma,
    });
    const looks = vi.spyOn(MarkerFinder.prototype, 'find');
    const newFrames = vi.spyOn(PatchEvidence.prototype, 'nextFrame');
    const pipeline = await VisionPipeline.create(syntheticCameraProfile(camera), scenario);
    try {
      const frame = live.frameWithPoses({}, seed * 1000 + 400);
      const result = pipeline.process({ image: { ...frame.image, channels: 3 }, capturedAt: 0, sequence: 0 });
      // The blur was learned in this frame, so it was looked at twice: one frame of evidence.
      expect(looks).toHaveBeenCalledTimes(2);
      expect(newFrames).toHaveBeenCalledTimes(1);
      expect(result.detections.filter((d) => d.stage === 'evidence')).toEqual([]);
      const score = scoreBases(frame.truth, result.located.bases);
      expect(score.wrong).toEqual([]);
      expect(score.found.size).toBeGreaterThan(20);
    } finally {
      pipeline.dispose();
    }
  });
});
