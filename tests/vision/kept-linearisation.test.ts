import { beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable, syntheticCameraProfile, truePose } from '../../src/synth/camera.ts';
import { renderScene, toGrey, type SynthFrame } from '../../src/synth/render.ts';
import { quadDistance, type Quad } from '../../src/vision/candidates.ts';
import { dictionaryCodes, type DictionaryCodes } from '../../src/vision/code-book.ts';
import { codePattern } from '../../src/vision/code-fit.ts';
import type { GreyImage } from '../../src/vision/image.ts';
import { measureOnTable, remeasureOnTable, type TableSquare } from '../../src/vision/table-fit.ts';
import { stepFromKept } from '../../src/vision/kept-linearisation.ts';

/**
 * A still tag measured again on the mean of its frames by one step from its first fit's
 * linearisation: against the full fit run to convergence on the same mean (an independent
 * computation of the same measurement), and against the renderer's true corners. The picture's
 * noise is added here, seeded, to one clean render, so the mean of n frames is the clean picture
 * plus noise of σ/√n.
 */
describe('one step from a kept linearisation (12 mm tags, 1080p, tilt 20°, noise σ 15)', () => {
  const NOISE = 15;
  const FRAMES = 8;
  let frame: SynthFrame;
  let clean: Float32Array;
  let codes: DictionaryCodes;
  let squareOf: (id: number) => TableSquare;
  let width: number;
  let height: number;

  /** Seeded Gaussian noise (Box–Muller over a small LCG), so the test needs no library. */
  function noisy(seed: number): Float32Array {
    let s = seed >>> 0 || 1;
    const uniform = () => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return (s + 0.5) / 4294967296;
    };
    return Float32Array.from(clean, (v) => {
      const g = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
      return v + NOISE * g;
    });
  }

  const greyOf = (data: Float32Array): GreyImage => ({ data, width, height });

  beforeAll(async () => {
    const scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: 12, seed: 61 });
    const camera = frameTable(scenario.table, { resolution: '1080p', tiltDeg: 20 });
    frame = await renderScene(scenario, camera, { seed: 61, noiseSigma: 0 });
    width = frame.image.width;
    height = frame.image.height;
    clean = Float32Array.from(toGrey(frame.image));
    codes = await dictionaryCodes('aruco_mip_36h12');
    squareOf = (id) => {
      const spec = scenario.units.flatMap((u) => u.bases).find((b) => b.marker.id === id)!.marker;
      return {
        camera: syntheticCameraProfile(camera),
        pose: truePose(camera),
        sizeMm: spec.sizeMm,
        heightMm: spec.heightMm,
      };
    };
  });

  it('gives the full fit on the mean of the frames, and comes closer to the truth than the first frame', () => {
    const pictures = Array.from({ length: FRAMES }, (_, f) => noisy(101 + f));
    const mean = new Float32Array(clean.length);
    for (const p of pictures) for (let i = 0; i < mean.length; i++) mean[i]! += p[i]! / FRAMES;
    const first = greyOf(pictures[0]!);
    const stepVsFull: number[] = [];
    const firstErr: number[] = [];
    const stepErr: number[] = [];
    const fullErr: number[] = [];
    for (const base of frame.truth.bases) {
      const truth = base.marker.cornersPx as Quad;
      const pattern = codePattern(codes, base.markerId);
      const square = squareOf(base.markerId);
      const measured = measureOnTable(first, truth, pattern, 8, square, 0.7);
      if (!measured?.kept) continue;
      const step = remeasureOnTable(measured.kept, greyOf(mean), square, measured.corners, 0.3);
      const full = measureOnTable(greyOf(mean), measured.corners, pattern, 8, square, 0.7);
      if (!step || !full) continue;
      stepVsFull.push(quadDistance(step.corners, full.corners));
      firstErr.push(quadDistance(measured.corners, truth));
      stepErr.push(quadDistance(step.corners, truth));
      fullErr.push(quadDistance(full.corners, truth));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    console.log(
      `${stepVsFull.length} tags; step vs full fit, worst corner median ${median(stepVsFull).toFixed(4)} px, ` +
        `max ${Math.max(...stepVsFull).toFixed(4)} px; error to the truth, median: first frame ` +
        `${median(firstErr).toFixed(3)}, step ${median(stepErr).toFixed(3)}, full ${median(fullErr).toFixed(3)} px`,
    );
    expect(stepVsFull.length).toBeGreaterThan(40);
    // The step is the full fit's measurement to a small share of the noise it removes.
    expect(median(stepVsFull)).toBeLessThan(0.25 * median(firstErr));
    expect(Math.max(...stepVsFull)).toBeLessThan(0.1);
    expect(median(stepErr)).toBeLessThan(0.75 * median(firstErr));
    expect(median(stepErr)).toBeLessThan(median(fullErr) + 0.005);
  });

  it('refuses a step where the tag is no longer where its fit left it, or the fit is of another place', () => {
    // The picture moved a whole pixel right: every tag's step goes past a third of a pixel.
    const first = greyOf(noisy(7));
    const moved = new Float32Array(clean.length);
    const shifted = noisy(8);
    for (let y = 0; y < height; y++)
      for (let x = 1; x < width; x++) moved[y * width + x] = shifted[y * width + x - 1]!;
    let tried = 0;
    let refused = 0;
    for (const base of frame.truth.bases.slice(0, 20)) {
      const square = squareOf(base.markerId);
      const measured = measureOnTable(
        first,
        base.marker.cornersPx as Quad,
        codePattern(codes, base.markerId),
        8,
        square,
        0.7,
      );
      if (!measured?.kept) continue;
      tried++;
      if (!remeasureOnTable(measured.kept, greyOf(moved), square, measured.corners, 0.3)) refused++;
      // A fit kept for another place (the tag taken to be a pixel away) is not stepped from.
      const elsewhere = measured.corners.map((c) => ({ u: c.u + 1, v: c.v })) as unknown as Quad;
      expect(remeasureOnTable(measured.kept, first, square, elsewhere, 0.3)).toBeNull();
      // On the very picture it was fitted on, the step stays where the fit ended.
      const same = stepFromKept(measured.kept, first);
      expect(same).not.toBeNull();
      for (let j = 0; j < 2; j++)
        expect(Math.abs(same!.params[j]! - measured.kept.params[j]!)).toBeLessThan(0.02);
    }
    expect(tried).toBeGreaterThan(10);
    expect(refused).toBe(tried);
  });
});
