import { beforeAll, describe, expect, it } from 'vitest';
import type { SceneRun } from '../../bench/recall-run.ts';
import {
  clutterLayout,
  conditionSetup,
  FIRST_BENCH_SEED,
  recallScenario,
  referencesOnly,
} from '../../bench/recall-scenes.ts';
import {
  headingError,
  MATCH_MM,
  quantile,
  recallCounts,
  scoreBases,
  scoreDetections,
  type LocatedBase,
} from '../../bench/recall-score.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { buildScene, loadSceneBits } from '../../src/synth/scene.ts';
import { sceneTruth, type SceneTruth } from '../../src/synth/truth.ts';
import type { Scenario } from '../../src/table/scenario.ts';

/**
 * The recall benchmark's scoring and scenes (bench/recall-*.ts), checked against the renderer's
 * truth alone (no detector runs here): a base located where the truth puts it counts, one 5 mm
 * away does not; a detection on a tag with another id is false.
 */

const scenario: Scenario = recallScenario(20, FIRST_BENCH_SEED + 1);
const camera = frameTable(scenario.table, { resolution: '1080p', tiltDeg: 15 });
let truth: SceneTruth;

beforeAll(async () => {
  truth = sceneTruth(camera, buildScene(scenario, await loadSceneBits(scenario)));
});

const atTruth = (t: SceneTruth): LocatedBase[] =>
  t.bases.map((b) => ({ markerId: b.markerId, x: b.centreMm.x, y: b.centreMm.y, headingDeg: b.headingDeg }));

describe('scoring located bases against the truth', () => {
  it('counts every base located where the truth puts it, with no error', () => {
    const s = scoreBases(truth, atTruth(truth));
    expect(s.found.size).toBe(54);
    expect(s.wrong).toEqual([]);
    expect(Math.max(...s.errorsMm)).toBeLessThan(1e-9);
    expect(Math.max(...s.headingErrorsDeg)).toBeLessThan(1e-9);
  });

  it('a base 5 mm from its truth is not found and is a false detection; 2 mm away is found with a 2 mm error', () => {
    const [a, b, ...rest] = atTruth(truth);
    const s = scoreBases(truth, [
      { ...a!, x: a!.x + 5 },
      { ...b!, y: b!.y - 2, headingDeg: b!.headingDeg + 0.4 },
      ...rest,
    ]);
    expect(MATCH_MM).toBeLessThan(5);
    expect(s.found.has(a!.markerId)).toBe(false);
    expect(s.wrong.map((w) => w.markerId)).toEqual([a!.markerId]);
    expect(s.found.has(b!.markerId)).toBe(true);
    expect(quantile(s.errorsMm, 1)).toBeCloseTo(2, 9);
    expect(quantile(s.headingErrorsDeg, 1)).toBeCloseTo(0.4, 9);
    // No sigmas given: none compared.
    expect(s.positionOverSigma).toEqual([]);
  });

  it("sets each found base's errors against the sigmas it reports", () => {
    const [a, b] = atTruth(truth);
    const s = scoreBases(truth, [
      { ...a!, x: a!.x + 0.3, sigmaMm: 0.1, headingDeg: a!.headingDeg - 1, sigmaHeadingDeg: 0.25 },
      { ...b!, x: b!.x + 5, sigmaMm: 0.1, sigmaHeadingDeg: 0.25 }, // not found: not compared
    ]);
    expect(s.positionOverSigma).toHaveLength(1);
    expect(s.positionOverSigma[0]).toBeCloseTo(3, 9);
    expect(s.headingOverSigma[0]).toBeCloseTo(4, 9);
  });

  it('an id not on the table, two ids swapped, or one id twice are all false', () => {
    const [a, b, ...rest] = atTruth(truth);
    const s = scoreBases(truth, [
      { ...a!, markerId: b!.markerId },
      { ...b!, markerId: a!.markerId },
      { ...rest[0]!, markerId: 500 },
      rest[1]!,
      { ...rest[1]! },
    ]);
    expect(s.found.size).toBe(1);
    expect(s.wrong.map((w) => w.markerId).sort((x, y) => x - y)).toEqual(
      [a!.markerId, b!.markerId, rest[1]!.markerId, 500].sort((x, y) => x - y),
    );
  });

  it('heading errors wrap round the circle', () => {
    expect(headingError(359, 1)).toBeCloseTo(2, 9);
    expect(headingError(-179, 179)).toBeCloseTo(2, 9);
    expect(headingError(90, -90)).toBeCloseTo(180, 9);
  });
});

describe('scoring raw detections against the truth', () => {
  const corners = (id: number) =>
    [...truth.bases.map((b) => b.marker), ...truth.references].find((m) => m.markerId === id)!.cornersPx;

  it('a detection on the truth corners of its own id is seen; the reference sheets count too', () => {
    const ids = [truth.bases[0]!.markerId, truth.references[2]!.markerId];
    const s = scoreDetections(
      truth,
      ids.map((id) => ({ id, corners: corners(id) })),
    );
    expect([...s.seen].sort()).toEqual([...ids].sort());
    expect(s.falseDetections).toEqual([]);
  });

  it('a detection a quarter of a tag off, or carrying another tag’s id, or an id not on the table is false', () => {
    const [m0, m1] = truth.bases.map((b) => b.marker);
    const side = Math.hypot(m0!.cornersPx[1].u - m0!.cornersPx[0].u, m0!.cornersPx[1].v - m0!.cornersPx[0].v);
    const shifted = m0!.cornersPx.map((p) => ({ u: p.u + 0.25 * side, v: p.v }));
    const s = scoreDetections(truth, [
      { id: m0!.markerId, corners: shifted },
      { id: m0!.markerId, corners: m1!.cornersPx },
      { id: 400, corners: m1!.cornersPx },
    ]);
    expect(s.seen.size).toBe(0);
    expect(s.falseDetections).toHaveLength(3);
  });
});

describe('recall scenes', () => {
  it('keep the whole table in frame and every tag in view', () => {
    expect(truth.bases).toHaveLength(54);
    expect(truth.bases.every((b) => b.marker.inView)).toBe(true);
    expect(truth.references.every((m) => m.inView)).toBe(true);
  });

  it('hands reach over bases, partly hiding their tags, and never over the reference sheets', async () => {
    const setup = conditionSetup('hands', scenario, FIRST_BENCH_SEED + 1);
    const t = sceneTruth(
      camera,
      buildScene(scenario, await loadSceneBits(scenario), {}, { clutter: setup.table.clutter ?? [] }),
    );
    expect(t.references.every((m) => m.hiddenFraction === 0)).toBe(true);
    // An arm may also pass over a base on its way; the fingertips only ever hide part of a tag.
    const partly = t.bases.filter((b) => b.marker.hiddenFraction > 0 && b.marker.hiddenFraction < 1);
    expect(partly.length).toBeGreaterThanOrEqual(3);
  });

  it('the clutter table holds the reference sheets and clutter, and no marked base', async () => {
    const drawn = referencesOnly(scenario);
    const items = clutterLayout(drawn, FIRST_BENCH_SEED + 9);
    const kinds = new Set(items.map((i) => i.kind));
    expect([...kinds].sort()).toEqual(['base', 'card', 'die', 'hand', 'ruler']);
    const t = sceneTruth(camera, buildScene(drawn, await loadSceneBits(drawn), {}, { clutter: items }));
    expect(t.bases).toEqual([]);
    expect(t.references.map((m) => m.markerId)).toEqual([0, 1, 2, 3]);
    // Any base id seen on it is false.
    const s = scoreDetections(t, [
      { id: truth.bases[0]!.markerId, corners: truth.bases[0]!.marker.cornersPx },
    ]);
    expect(s.falseDetections).toHaveLength(1);
  });
});

describe('recall counts', () => {
  const run = (found: number[][], visible: number[]): SceneRun => ({
    resolution: '1080p',
    sizeMm: 20,
    tiltDeg: 0,
    condition: 'noise',
    frames: found.length,
    visible,
    partlyHidden: [],
    washedOut: [],
    foundPerFrame: found.map((f) => new Set(f)),
    falsePerFrame: found.map(() => 0),
    falseExamples: [],
    errorsMm: [],
    headingErrorsDeg: [],
    positionOverSigma: [],
    headingOverSigma: [],
    stagesFirst: {},
    stagesLast: {},
    timings: [],
    nativeFound: 0,
    nativeFalse: 0,
  });

  it('single frame is the first frame, within 10 frames the last; a base lost after being found is counted', () => {
    const c = recallCounts(run([[1], [1, 2], [2, 3], [1, 2, 3, 99]], [1, 2, 3, 4]));
    expect(c).toEqual({ visible: 4, single: 1, last: 3, lostFrames: 1 });
  });
});
