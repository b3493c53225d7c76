import { describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import { VisionPipeline } from '../../src/vision/pipeline.ts';

const headingError = (a: number, b: number) => Math.abs(((((a - b + 180) % 360) + 360) % 360) - 180);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/**
 * A still small tag is measured again on the mean of the frames it has stood still in
 * (marker-finder.ts measureStillAgain): its heading, against the renderer's truth, gets better
 * as the frames add up instead of keeping the first frame's noise.
 */
const FRAMES = 12;

describe('small still tags measured again on their averaged pixels', () => {
  it('turns the headings of 12 mm tags at 1080p under strong noise towards the truth over 12 frames', async () => {
    const scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: 12, seed: 83 });
    const cam = frameTable(scenario.table, { resolution: '1080p', tiltDeg: 15 });
    const live = await LiveSyntheticTable.create(scenario, cam, { seed: 83, noiseSigma: 6, blurSigma: 0.7 });
    const pipeline = await VisionPipeline.create(syntheticCameraProfile(cam), scenario);
    const errorsByFrame: Array<Map<number, number>> = [];
    try {
      for (let f = 0; f < FRAMES; f++) {
        const frame = live.frameWithPoses({}, 8300 + f);
        const result = pipeline.process({
          image: { ...frame.image, channels: 3 },
          capturedAt: f * 200,
          sequence: f,
        });
        const errors = new Map<number, number>();
        for (const b of result.located.bases) {
          const truth = frame.truth.bases.find((t) => t.markerId === b.markerId);
          if (truth) errors.set(b.markerId, headingError(b.headingDeg, truth.headingDeg));
        }
        errorsByFrame.push(errors);
      }
    } finally {
      pipeline.dispose();
    }
    const first = errorsByFrame[0]!;
    const last = errorsByFrame[FRAMES - 1]!;
    const both = [...first.keys()].filter((id) => last.has(id));
    const before = median(both.map((id) => first.get(id)!));
    const after = median(both.map((id) => last.get(id)!));
    const changed = both.filter((id) => first.get(id) !== last.get(id)).length;
    console.log(
      `${both.length} tags found in the first and last frames: heading error median ${before.toFixed(3)}° → ${after.toFixed(3)}°; ${changed} measured again`,
    );
    expect(both.length).toBeGreaterThan(30);
    expect(changed).toBeGreaterThan(0.8 * both.length);
    expect(after).toBeLessThan(0.9 * before);
  });
});
