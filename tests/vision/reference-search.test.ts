import { describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { randomShadows } from '../../src/synth/clutter-layout.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import { CandidatePass } from '../../src/vision/candidate-pass.ts';
import { quadCentre } from '../../src/vision/candidates.ts';
import { loadOpenCV } from '../../src/vision/opencv.ts';
import { VisionPipeline } from '../../src/vision/pipeline.ts';
import { ReferenceSearch } from '../../src/vision/reference-search.ts';

/**
 * Under strong uneven light (hot spot, vignette, cast shadows) the candidate pass's 5 px window
 * misses reference sheets in the dark corners; without three of them nothing is measured. The
 * second look must read every sheet, where the truth has it. Seed 52 is the tests' own; on this
 * frame the 5 px pass alone reads fewer than all four sheets (checked below, so the test keeps
 * testing what it says).
 */
describe('reference sheets under uneven light', () => {
  it('are all read by the second look, and the pipeline measures the table', async () => {
    const seed = 52;
    const scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: 20, seed });
    const cam = frameTable(scenario.table, { resolution: '1080p', tiltDeg: 0 });
    const live = await LiveSyntheticTable.create(scenario, cam, {
      seed,
      noiseSigma: 3,
      blurSigma: 0.7,
      supersampling: 2,
      lighting: 0.9,
      shadows: randomShadows(scenario.table, seed, 4),
    });
    const frame = live.frameWithPoses({}, 1);
    const { width, height, data } = frame.image;
    const cv = await loadOpenCV();
    const grey = new Uint8Array(width * height);
    for (let i = 0; i < grey.length; i++)
      grey[i] = Math.round(0.299 * data[3 * i]! + 0.587 * data[3 * i + 1]! + 0.114 * data[3 * i + 2]!);
    const gray = cv.matFromArray(height, width, cv.CV_8UC1, grey);
    const ids = new Set(scenario.referenceMarkers.map((m) => m.id));
    const plain = await CandidatePass.create({ dictionary: scenario.markerDictionary });
    const search = await ReferenceSearch.create(scenario.markerDictionary, 84 / 8, 84, width);
    try {
      const plainRead = plain.run(gray).read.filter((r) => ids.has(r.id));
      expect(plainRead.length).toBeLessThan(4);
      const found = search.run(gray, ids);
      expect(new Set(found.map((f) => f.id))).toEqual(ids);
      for (const f of found) {
        const truth = frame.truth.references.find((r) => r.markerId === f.id)!;
        const c = quadCentre(f.quad);
        const t = quadCentre(truth.cornersPx);
        expect(Math.hypot(c.u - t.u, c.v - t.v)).toBeLessThan(2);
      }
    } finally {
      gray.delete();
      plain.dispose();
      search.dispose();
    }
    const pipeline = await VisionPipeline.create(syntheticCameraProfile(cam), scenario);
    try {
      const result = pipeline.process({ image: { ...frame.image, channels: 3 }, capturedAt: 0, sequence: 0 });
      expect(result.located.table).not.toBeNull();
      expect(result.located.bases.length).toBeGreaterThan(40);
    } finally {
      pipeline.dispose();
    }
  }, 120_000);
});
