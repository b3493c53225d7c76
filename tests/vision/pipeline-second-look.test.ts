import { afterEach, describe, expect, it, vi } from 'vitest';
import { PatchEvidence } from '../../src/vision/evidence.ts';
import { MarkerFinder } from '../../src/vision/marker-finder.ts';
import { firstFrameOf } from './recall-scene-frame.ts';

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
    const looks = vi.spyOn(MarkerFinder.prototype, 'find');
    const newFrames = vi.spyOn(PatchEvidence.prototype, 'nextFrame');
    const { result, score } = await firstFrameOf({
      resolution: '720p',
      sizeMm: 20,
      tiltDeg: 15,
      condition: 'blur',
      seed: 1713,
    });
    // The blur was learned in this frame, so it was looked at twice: one frame of evidence.
    expect(looks).toHaveBeenCalledTimes(2);
    expect(newFrames).toHaveBeenCalledTimes(1);
    expect(result.detections.filter((d) => d.stage === 'evidence')).toEqual([]);
    expect(score.wrong).toEqual([]);
    expect(score.found.size).toBeGreaterThan(20);
  });
});
