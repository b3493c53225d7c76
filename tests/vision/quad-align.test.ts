import { beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { renderScene, toGrey, type SynthFrame } from '../../src/synth/render.ts';
import { quadDistance, type Quad } from '../../src/vision/candidates.ts';
import { dictionaryCodes, type DictionaryCodes } from '../../src/vision/code-book.ts';
import type { GreyImage } from '../../src/vision/image.ts';
import { alignQuad, DEFAULT_ALIGN, markerPattern } from '../../src/vision/quad-align.ts';

/**
 * Fitting a small tag's corners to its known code: from corners half a pixel off (what edge
 * fitting leaves on 1.5 px cells), back to the renderer's truth.
 */
describe('quad alignment on 15 mm tags at 1080p', () => {
  let frame: SynthFrame;
  let grey: GreyImage;
  let codes: DictionaryCodes;

  beforeAll(async () => {
    const scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: 15, seed: 37 });
    frame = await renderScene(scenario, frameTable(scenario.table, { resolution: '1080p' }), { seed: 37 });
    grey = { data: toGrey(frame.image), width: frame.image.width, height: frame.image.height };
    codes = await dictionaryCodes('aruco_mip_36h12');
  });

  it('brings corners over half a pixel off to within a seventh of a pixel', () => {
    let state = 37;
    const jitter = () => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return (state / 0x7fffffff - 0.5) * 1.2; // ±0.6 px
    };
    const before: number[] = [];
    const after: number[] = [];
    for (const base of frame.truth.bases) {
      const truth = base.marker.cornersPx as Quad;
      const start = truth.map((c) => ({ u: c.u + jitter(), v: c.v + jitter() })) as unknown as Quad;
      const white: number[] = [];
      codes.bits(base.markerId).forEach((b, k) => b && white.push(k));
      const fitted = alignQuad(grey, start, markerPattern(8, white), 8, {
        ...DEFAULT_ALIGN,
        // The renderer's σ 0.6 px Gaussian is a σ 0.5 px tent to the model (what the blur estimate finds).
        blurSigmaPx: 0.5,
        coarseBlurPx: 0,
      });
      expect(fitted, `marker ${base.markerId}`).not.toBeNull();
      before.push(quadDistance(start, truth));
      after.push(quadDistance(fitted!.corners, truth));
    }
    const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(0.9 * (xs.length - 1))]!;
    console.log(
      `worst-corner error p90: ${p90(before).toFixed(2)} px before, ${p90(after).toFixed(3)} px after`,
    );
    expect(p90(before)).toBeGreaterThan(0.4);
    expect(p90(after)).toBeLessThan(0.15);
  });
});
