import { beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { renderScene, type SynthFrame } from '../../src/synth/render.ts';
import type { Scenario } from '../../src/table/scenario.ts';
import { VisionPipeline } from '../../src/vision/pipeline.ts';

/**
 * A marker 3 mm up a base, at the far corner of a 72 × 48 in table seen from 1.2 m: the Locator
 * must put it back on the table using the marker's height. Measured once with the true height in
 * the scenario and once with the height left at 0, both against the renderer's truth.
 */
const MM_PER_IN = 25.4;

/** The bench's 72 × 48 in scene cut down to one base, 20 mm marker on 25 mm, at the far right corner. */
function farCornerScenario(heightMm: number): Scenario {
  const full = benchScenario({ dictionary: 'apriltag_36h11', markerMm: 20, markerHeightMm: 3, seed: 1 });
  const unit = full.units.at(-1)!; // the last grid base: far (y = depth − 120 mm), right (x = width − 150 mm)
  const base = unit.bases[0]!;
  return {
    ...full,
    units: [{ ...unit, bases: [{ ...base, marker: { ...base.marker, heightMm } }] }],
  };
}

describe('marker height at the far corner (1080p, camera 1.2 m up, tilt 10°)', () => {
  const truthScenario = farCornerScenario(3);
  const camera = frameTable(truthScenario.table, { resolution: '1080p', heightMm: 1200, tiltDeg: 10 });
  let frame: SynthFrame;
  const errorIn: Record<'corrected' | 'flat', number> = { corrected: Number.NaN, flat: Number.NaN };

  beforeAll(async () => {
    frame = await renderScene(truthScenario, camera, { seed: 7 });
    for (const [key, heightMm] of [
      ['corrected', 3],
      ['flat', 0],
    ] as const) {
      const pipeline = await VisionPipeline.create(
        syntheticCameraProfile(camera),
        farCornerScenario(heightMm),
      );
      const result = pipeline.process({ image: { ...frame.image, channels: 3 }, capturedAt: 0, sequence: 1 });
      pipeline.dispose();
      const truth = frame.truth.bases[0]!;
      const m = result.located.bases.find((b) => b.markerId === truth.markerId);
      if (m) errorIn[key] = Math.hypot(m.x - truth.centreMm.x, m.y - truth.centreMm.y) / MM_PER_IN;
    }
    console.log(
      `far-corner base at (${frame.truth.bases[0]!.centreMm.x.toFixed(0)}, ${frame.truth.bases[0]!.centreMm.y.toFixed(0)}) mm, marker 3 mm up: ` +
        `error ${errorIn.corrected.toFixed(4)} in with its height, ${errorIn.flat.toFixed(4)} in taken as flat`,
    );
  });

  it('puts the base at the far corner of the table', () => {
    const t = frame.truth.bases[0]!;
    expect(t.centreMm.x).toBeGreaterThan(truthScenario.table.widthMm - 200);
    expect(t.centreMm.y).toBeGreaterThan(truthScenario.table.depthMm - 200);
    expect(t.marker.inView).toBe(true);
  });

  it('measures the base within 0.02 in when the marker height is known', () => {
    expect(errorIn.corrected).toBeLessThanOrEqual(0.02);
  });

  it('is visibly wrong when the height is ignored (the parallax of 3 mm at the far corner)', () => {
    // Seen from about 1.1 m away horizontally and 1.2 m up, 3 mm of height shifts the marker
    // ≈ 3 × 1.1 / 1.2 ≈ 2.7 mm ≈ 0.1 in outward: five times the tolerance.
    expect(errorIn.flat).toBeGreaterThan(0.05);
    expect(errorIn.flat).toBeGreaterThan(5 * errorIn.corrected);
  });
});
