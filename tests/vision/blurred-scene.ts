import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { renderScene, toGrey, type SynthFrame } from '../../src/synth/render.ts';

/**
 * The bench scene with 25 mm MIP 36h12 tags at 720p, tilt 15°, under lens blur σ 1.4 px (cells of
 * 1.3–2.2 px) and noise σ 3: the blurred small tags the decoder tests read. Seeded.
 */
export async function blurredScene(
  seed: number,
): Promise<{ frame: SynthFrame; grey: { data: Uint8Array; width: number; height: number } }> {
  const scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: 25, seed });
  const frame = await renderScene(scenario, frameTable(scenario.table, { resolution: '720p', tiltDeg: 15 }), {
    seed,
    blurSigma: 1.4,
    noiseSigma: 3,
  });
  return { frame, grey: { data: toGrey(frame.image), width: frame.image.width, height: frame.image.height } };
}
