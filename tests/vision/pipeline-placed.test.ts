import { describe, expect, it } from 'vitest';
import { scoreBases } from '../../bench/recall-score.ts';
import { syntheticCameraProfile } from '../../src/synth/camera.ts';
import { VisionPipeline } from '../../src/vision/pipeline.ts';
import { recallTable } from './recall-scene-frame.ts';

/**
 * Players start Vedette on a table with only its reference sheets and then put their bases down.
 * Those bases are new where the picture changed, as new as on a first frame, and a small tag needs
 * the first look's lowest threshold there too, and a blurred one its sticker (pipeline.ts
 * changedPass). Drawn by the renderer, scored against its truth: the table alone for three
 * frames, then every base at once.
 */
describe('bases put down after the table is known', () => {
  it('are found in the frame they appear, as on a first frame (720p, 25 mm tags, blurred lens)', async () => {
    const seed = 2;
    const { scenario, camera, live } = await recallTable({
      resolution: '720p',
      sizeMm: 25,
      tiltDeg: 0,
      condition: 'blur',
      seed,
    });
    // Every base far off the table (and out of the picture) until frame 3.
    const away = Object.fromEntries(
      scenario.units
        .flatMap((u) => u.bases)
        .map((b, i) => [b.marker.id, { x: -4000 - 60 * i, y: -4000, headingDeg: 0 }]),
    );
    const pipeline = await VisionPipeline.create(syntheticCameraProfile(camera), scenario);
    try {
      for (let f = 0; f <= 3; f++) {
        const frame = live.frameWithPoses(f < 3 ? away : {}, seed * 1000 + f);
        const result = pipeline.process({
          image: { ...frame.image, channels: 3 },
          capturedAt: f * 200,
          sequence: f,
        });
        const score = scoreBases(frame.truth, result.located.bases);
        expect(score.wrong).toEqual([]);
        if (f < 3) {
          expect(result.located.bases).toEqual([]);
          continue;
        }
        // Searched where the picture changed, not whole: the case this is about.
        expect(result.search.mode).toBe('changes');
        const visible = frame.truth.bases
          .filter((b) => b.marker.inView && b.marker.hiddenFraction === 0)
          .map((b) => b.markerId);
        const missed = visible.filter((id) => !score.found.has(id));
        expect(visible.length).toBeGreaterThan(50);
        // 20 were missed in that frame before changed regions were searched as a first look is.
        expect(missed.length).toBeLessThanOrEqual(2);
      }
    } finally {
      pipeline.dispose();
    }
  });
});
