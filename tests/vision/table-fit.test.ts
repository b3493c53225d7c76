import { beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import type { Scenario } from '../../src/table/scenario.ts';
import { frameTable, syntheticCameraProfile, truePose, type SynthCamera } from '../../src/synth/camera.ts';
import { renderScene, toGrey, type SynthFrame } from '../../src/synth/render.ts';
import { quadDistance, type Quad } from '../../src/vision/candidates.ts';
import { codeBook, dictionaryCodes, type DictionaryCodes } from '../../src/vision/code-book.ts';
import { codePattern } from '../../src/vision/code-fit.ts';
import { DEFAULT_TEMPLATE_DECODER, readQuad } from '../../src/vision/template-decoder.ts';
import { roughQuad } from './rough-quad.ts';
import type { GreyImage } from '../../src/vision/image.ts';
import { alignQuad, DEFAULT_ALIGN } from '../../src/vision/quad-align.ts';
import { DEFAULT_FINDER } from '../../src/vision/finder-types.ts';
import {
  DEFAULT_TABLE_FIT,
  fitFrameOnTable,
  fitOnTable,
  measureOnTable,
  type TableSquare,
} from '../../src/vision/table-fit.ts';
import { pixelToTablePlane } from '../../src/camera/projection.ts';

/** A bench scene of one tag size at 1080p, rendered with the renderer's truth. */
interface Scene {
  readonly scenario: Scenario;
  readonly camera: SynthCamera;
}

async function sceneOf(o: {
  markerMm: number;
  seed: number;
  tiltDeg: number;
  noiseSigma: number;
  blurSigma?: number;
}): Promise<{ scene: Scene; frame: SynthFrame; grey: GreyImage; codes: DictionaryCodes }> {
  const scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: o.markerMm, seed: o.seed });
  const camera = frameTable(scenario.table, { resolution: '1080p', tiltDeg: o.tiltDeg });
  const frame = await renderScene(scenario, camera, {
    seed: o.seed,
    noiseSigma: o.noiseSigma,
    ...(o.blurSigma === undefined ? {} : { blurSigma: o.blurSigma }),
  });
  const grey = { data: toGrey(frame.image), width: frame.image.width, height: frame.image.height };
  return { scene: { scenario, camera }, frame, grey, codes: await dictionaryCodes('aruco_mip_36h12') };
}

/** The printed square of marker `id` (its size times `scale`) on the scene's table, as the camera sees it. */
function squareIn({ scenario, camera }: Scene, id: number, scale: number): TableSquare {
  const spec = scenario.units.flatMap((u) => u.bases).find((b) => b.marker.id === id)!.marker;
  return {
    camera: syntheticCameraProfile(camera),
    pose: truePose(camera),
    sizeMm: spec.sizeMm * scale,
    heightMm: spec.heightMm,
  };
}

/**
 * Small tags measured as squares on the table: against the renderer's true corners, on a noisy
 * 1080p picture of 15 mm tags seen 20° off vertical, the table's three parameters leave the
 * corners closer to the truth than a free quad's eight; and a square of the wrong size is refused.
 */
describe('table fit of 15 mm tags at 1080p, tilt 20°, noise σ 5', () => {
  let scene: Scene;
  let frame: SynthFrame;
  let grey: GreyImage;
  let codes: DictionaryCodes;
  // The renderer's σ 0.6 px Gaussian is a σ 0.5 px tent to the model (what the blur estimate finds).
  const blurSigmaPx = 0.5;

  beforeAll(async () => {
    ({ scene, frame, grey, codes } = await sceneOf({ markerMm: 15, seed: 43, tiltDeg: 20, noiseSigma: 5 }));
  });

  const squareOf = (id: number, scale = 1) => squareIn(scene, id, scale);

  /** Each tag's free fit (its code fitted to the picture from its true corners), as the finder measures it. */
  const freeFits = () =>
    frame.truth.bases.flatMap((base) => {
      const truth = base.marker.cornersPx as Quad;
      const free = alignQuad(grey, truth, codePattern(codes, base.markerId), 8, {
        ...DEFAULT_ALIGN,
        blurSigmaPx,
        coarseBlurPx: 0,
      });
      return free ? [{ id: base.markerId, truth, free: free.corners }] : [];
    });

  it('takes the corners closer to the truth than the free fit', () => {
    const fits = freeFits();
    expect(fits.length).toBeGreaterThan(20);
    const free: number[] = [];
    const onTable: number[] = [];
    let refused = 0;
    for (const f of fits) {
      const fitted = fitOnTable(grey, f.free, codePattern(codes, f.id), 8, squareOf(f.id), blurSigmaPx);
      if (!fitted) {
        refused++;
        continue;
      }
      free.push(quadDistance(f.free, f.truth));
      onTable.push(quadDistance(fitted, f.truth));
    }
    const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!;
    console.log(
      `worst-corner error median / p90: free ${q(free, 0.5).toFixed(3)} / ${q(free, 0.9).toFixed(3)} px, ` +
        `on the table ${q(onTable, 0.5).toFixed(3)} / ${q(onTable, 0.9).toFixed(3)} px; ${refused} of ${fits.length} refused`,
    );
    expect(refused).toBeLessThanOrEqual(fits.length / 10);
    expect(q(onTable, 0.5)).toBeLessThan(0.7 * q(free, 0.5));
    expect(q(onTable, 0.9)).toBeLessThan(0.7 * q(free, 0.9));
  });

  // A quad inferred from the sticker round a tag is a pixel or two off and turned a few degrees,
  // and no code reads there; the tag's frame (its code unknown) fitted on the table puts it back
  // close enough to read half of them (27 of 54 from 1.4 px off and 4° turned), none wrongly.
  it('places a tag from a rough quad by its frame alone, code unknown', () => {
    const book = codeBook(
      codes,
      frame.truth.bases.map((b) => b.markerId),
    );
    const decoder = { ...DEFAULT_TEMPLATE_DECODER, blurSigmaPx };
    const readsRight = (quad: Quad | null, id: number) => {
      const r = quad ? readQuad(grey, quad, book, decoder) : null;
      return !!r && r.id === id && r.evidence >= DEFAULT_FINDER.firmEvidence;
    };
    let roughRead = 0;
    let placedRead = 0;
    let placedWrong = 0;
    for (const base of frame.truth.bases) {
      const start = roughQuad(base.marker.cornersPx as Quad);
      const placed = fitFrameOnTable(grey, start, 8, squareOf(base.markerId), blurSigmaPx);
      if (readsRight(start, base.markerId)) roughRead++;
      if (readsRight(placed, base.markerId)) placedRead++;
      const r = placed ? readQuad(grey, placed, book, decoder) : null;
      if (r && r.id !== base.markerId && r.evidence >= DEFAULT_FINDER.firmEvidence) placedWrong++;
    }
    const n = frame.truth.bases.length;
    console.log(
      `read from a rough quad: ${roughRead} of ${n}; placed by its frame first: ${placedRead} (${placedWrong} wrong)`,
    );
    expect(placedRead).toBeGreaterThanOrEqual(0.4 * n);
    expect(placedRead).toBeGreaterThan(roughRead + 0.3 * n);
    expect(placedWrong).toBe(0);
  });

  it('refuses a square 10 % larger than the printed tag', () => {
    const fits = freeFits();
    const accepted = fits.filter((f) =>
      fitOnTable(grey, f.free, codePattern(codes, f.id), 8, squareOf(f.id, 1.1), blurSigmaPx),
    ).length;
    console.log(`a square 10 % too large: ${accepted} of ${fits.length} accepted`);
    expect(accepted).toBeLessThanOrEqual(fits.length / 20);
  });
});

/**
 * Under lens blur wide against the cells (σ 1.4 px on 20 mm tags at 1080p, tilt 15°: σ/cell about
 * 0.6–0.75) the blur reaches past the one-cell quiet zone to the base top, whose level the fit
 * takes apart (tag-footprint.ts OuterWeights). Before it did, a free quad came out about a tenth
 * too large, its residual advantage was overstated, and only the finder's wider limit
 * (blurOverstatement) kept the right square; now the plain limit keeps nearly every tag, and the
 * table fit is far closer to the truth than the free fit, and refuses a square 10 % too large.
 */
describe('table fit of 20 mm tags at 1080p under lens blur σ 1.4', () => {
  let scene: Scene;
  let frame: SynthFrame;
  let grey: GreyImage;
  let codes: DictionaryCodes;
  // What the blur estimate learns of the renderer's σ 1.4 px Gaussian on such a scene.
  const blurSigmaPx = 1.3;

  beforeAll(async () => {
    ({ scene, frame, grey, codes } = await sceneOf({
      markerMm: 20,
      seed: 47,
      tiltDeg: 15,
      noiseSigma: 3,
      blurSigma: 1.4,
    }));
  });

  const squareOf = (id: number, scale = 1) => squareIn(scene, id, scale);

  const fitted = (scale: number) =>
    frame.truth.bases.flatMap((base) => {
      const truth = base.marker.cornersPx as Quad;
      const pattern = codePattern(codes, base.markerId);
      const free = alignQuad(grey, truth, pattern, 8, { ...DEFAULT_ALIGN, blurSigmaPx, coarseBlurPx: 0 });
      if (!free) return [];
      const onTable = fitOnTable(grey, free.corners, pattern, 8, squareOf(base.markerId, scale), blurSigmaPx);
      return [{ truth, free: free.corners, onTable }];
    });

  it('keeps the right square for nearly every tag, closer to the truth than the free fit', () => {
    const fits = fitted(1);
    expect(fits.length).toBeGreaterThan(20);
    const kept = fits.filter((f) => f.onTable);
    const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!;
    const free = kept.map((f) => quadDistance(f.free, f.truth));
    const onTable = kept.map((f) => quadDistance(f.onTable!, f.truth));
    console.log(
      `blurred: kept ${kept.length} of ${fits.length}; ` +
        `worst-corner p90 free ${q(free, 0.9).toFixed(3)} px, on the table ${q(onTable, 0.9).toFixed(3)} px`,
    );
    expect(kept.length).toBeGreaterThanOrEqual(0.9 * fits.length);
    expect(q(onTable, 0.9)).toBeLessThan(0.6 * q(free, 0.9));
  });

  // Under blur a free fit can bend a tag out of square (a 720p tag's quad 5 px off at one corner
  // was refused at a quarter side and its base placed 3 mm off): the square explains the picture
  // better and may move half a side to where the tag is.
  it('takes the square from a free quad bent out of square, one corner a third of a side off', () => {
    const bent = fitted(1).flatMap(({ truth, free }) => {
      const side = Math.hypot(free[1].u - free[0].u, free[1].v - free[0].v);
      const c = { u: (free[0].u + free[2].u) / 2, v: (free[0].v + free[2].v) / 2 };
      const away = Math.hypot(free[3].u - c.u, free[3].v - c.v);
      const k = 1 + side / 3 / away;
      const quad = [
        free[0],
        free[1],
        free[2],
        { u: c.u + k * (free[3].u - c.u), v: c.v + k * (free[3].v - c.v) },
      ] as const;
      const base = frame.truth.bases.find((b) => b.marker.cornersPx === truth)!;
      const pattern = codePattern(codes, base.markerId);
      const onTable = fitOnTable(
        grey,
        quad as unknown as Quad,
        pattern,
        8,
        squareOf(base.markerId),
        blurSigmaPx,
      );
      return [{ truth, onTable }];
    });
    const placed = bent.filter((b) => b.onTable && quadDistance(b.onTable, b.truth) < 0.6);
    console.log(
      `blurred, one corner bent a third of a side: ${placed.length} of ${bent.length} placed within 0.6 px`,
    );
    expect(placed.length).toBeGreaterThanOrEqual(0.9 * bent.length);
  });

  it('refuses a square 10 % larger than the printed tag', () => {
    const fits = fitted(1.1);
    const accepted = fits.filter((f) => f.onTable).length;
    console.log(`blurred, a square 10 % too large: ${accepted} of ${fits.length} accepted`);
    expect(accepted).toBeLessThanOrEqual(fits.length / 20);
  });
});

/**
 * The fit's own sigmas (measureOnTable): its covariance, the residual's variance over the fit's
 * information about the three parameters. Against the renderer's truth, on 12 mm tags at 1080p
 * (cells of about 1.6 px, where the reported heading sigma matters to an arc's edge): the heading
 * error is within two sigmas for nearly every tag (98 % at noise σ 2, 94 % at 8), and a noisier
 * picture reports larger sigmas (median 0.20° and 0.32°).
 */
describe('the table fit reports how sure it is', () => {
  const blurSigmaPx = 0.5;
  const measure = async (noiseSigma: number) => {
    const { scene, frame, grey, codes } = await sceneOf({ markerMm: 12, seed: 47, tiltDeg: 15, noiseSigma });
    const camera = syntheticCameraProfile(scene.camera);
    const pose = truePose(scene.camera);
    const out: Array<{ errorDeg: number; sigmaDeg: number }> = [];
    for (const base of frame.truth.bases) {
      const truth = base.marker.cornersPx as Quad;
      const square = squareIn(scene, base.markerId, 1);
      const m = measureOnTable(grey, truth, codePattern(codes, base.markerId), 8, square, blurSigmaPx, {
        ...DEFAULT_TABLE_FIT,
        maxChi2: 1e9,
      });
      if (!m) continue;
      const angle = (q: Quad) => {
        const [tl, tr, br, bl] = q.map((c) => pixelToTablePlane(camera, pose, c, square.heightMm)!);
        return Math.atan2(tr!.y - tl!.y + (br!.y - bl!.y), tr!.x - tl!.x + (br!.x - bl!.x));
      };
      const e = ((angle(m.corners) - angle(truth)) * 180) / Math.PI;
      out.push({ errorDeg: Math.abs(((e + 540) % 360) - 180), sigmaDeg: m.sigmaHeadingDeg });
    }
    return out;
  };

  it('puts 12 mm tags within two of their heading sigmas, and a noisier picture reports more', async () => {
    const clean = await measure(2);
    const noisy = await measure(8);
    const within = (xs: typeof clean) => xs.filter((x) => x.errorDeg <= 2 * x.sigmaDeg).length / xs.length;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const sigmaOf = (xs: typeof clean) => median(xs.map((x) => x.sigmaDeg));
    console.log(
      `noise 2: ${clean.length} tags, ${(100 * within(clean)).toFixed(0)} % within 2σ, σ median ${sigmaOf(clean).toFixed(3)}°; ` +
        `noise 8: ${noisy.length} tags, ${(100 * within(noisy)).toFixed(0)} % within 2σ, σ median ${sigmaOf(noisy).toFixed(3)}°`,
    );
    expect(clean.length).toBeGreaterThan(40);
    expect(noisy.length).toBeGreaterThan(40);
    expect(within(clean)).toBeGreaterThan(0.85);
    expect(within(noisy)).toBeGreaterThan(0.85);
    // Not four times: at low noise the model's misfit, not the noise, is most of the residual.
    expect(sigmaOf(noisy)).toBeGreaterThan(1.3 * sigmaOf(clean));
  });
});
