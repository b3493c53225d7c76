import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { renderScene } from '../../src/synth/render.ts';
import {
  CandidatePass,
  DEFAULT_CANDIDATE_PASS,
  type CandidatePassResult,
} from '../../src/vision/candidate-pass.ts';
import { quadCentre, quadDistance, type Quad } from '../../src/vision/candidates.ts';
import { toGrayMat } from '../../src/vision/grey-mat.ts';
import { loadOpenCV, type OpenCV } from '../../src/vision/opencv.ts';
import { balancedShare, SplitCandidatePass } from '../../src/vision/split-pass.ts';

/** Two threads find the same quads as one: each exactly once, the ones across the middle included. */
describe('candidate pass split over two threads', () => {
  let gray: OpenCV;
  let split: SplitCandidatePass;
  let single: CandidatePass;

  beforeAll(async () => {
    const cv = await loadOpenCV();
    const scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: 20, seed: 35, rows: 9 });
    const frame = await renderScene(scenario, frameTable(scenario.table, { resolution: '1080p' }), {
      seed: 35,
    });
    gray = toGrayMat(cv, { ...frame.image, channels: 3 });
    split = await SplitCandidatePass.create(
      { ...DEFAULT_CANDIDATE_PASS, dictionary: 'aruco_mip_36h12' },
      100,
    );
    single = await CandidatePass.create({ dictionary: 'aruco_mip_36h12' });
  });

  afterAll(() => {
    split?.dispose();
    single?.dispose();
    gray?.delete();
  });

  const all = (r: CandidatePassResult): Quad[] => [...r.read.map((x) => x.quad), ...r.unread];

  it('finds every quad the single pass finds, once, at the same corners', () => {
    const one = all(single.run(gray));
    const two = all(split.run(gray));
    // Quads near the middle row are the ones at risk of being lost or doubled.
    const nearMiddle = one.filter((q) => Math.abs(quadCentre(q).v - 540) < 100);
    expect(nearMiddle.length).toBeGreaterThan(3);
    for (const q of one) {
      const matches = two.filter((p) => quadDistance(p, q) < 0.01);
      expect(matches, `quad at ${JSON.stringify(quadCentre(q))}`).toHaveLength(1);
    }
    expect(two).toHaveLength(one.length);
  });

  it('reads the same ids, and keeps working frame after frame', () => {
    const ids = (r: CandidatePassResult) => r.read.map((x) => x.id).sort((a, b) => a - b);
    const expected = ids(single.run(gray));
    for (let i = 0; i < 3; i++) expect(ids(split.run(gray))).toEqual(expected);
  });

  it('finds every quad once wherever the cut lies', async () => {
    // The top half strong noise (hundreds of thousands of specks to trace), the bottom half the
    // frame as it was: the top costs several times the bottom, so a balanced cut moves up.
    const mixed = gray.clone();
    const d = mixed.data as Uint8Array;
    let seed = 11;
    for (let i = 0; i < 540 * 1920; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      d[i] = 100 + ((seed >>> 16) % 61);
    }
    try {
      const expected = all(single.run(mixed));
      // The cut where the balance may take it, from one bound to the other (its first run).
      for (const firstShare of [0.3, 0.42, 0.58, 0.7]) {
        const uneven = await SplitCandidatePass.create(
          { ...DEFAULT_CANDIDATE_PASS, dictionary: 'aruco_mip_36h12' },
          100,
          firstShare,
        );
        try {
          expect(uneven.helperShare).toBe(firstShare);
          const got = all(uneven.run(mixed));
          expect(got).toHaveLength(expected.length);
          for (const q of expected) expect(got.filter((p) => quadDistance(p, q) < 0.01)).toHaveLength(1);
        } finally {
          uneven.dispose();
        }
      }
    } finally {
      mixed.delete();
    }
  });

  it('moves its cut half-way towards equal time on both threads, within its bounds', () => {
    // The top three times as costly per row: equal time with a quarter of the rows, bounded at 0.3.
    expect(balancedShare(0.5, 3, 1)).toBeCloseTo(0.375, 12);
    expect(balancedShare(0.375, 3, 1)).toBeCloseTo(0.3125, 12);
    expect(balancedShare(0.3125, 3, 1)).toBe(0.3);
    // Equal costs: back towards the middle.
    expect(balancedShare(0.3, 1, 1)).toBeCloseTo(0.4, 12);
    // The bottom costly: down, to the upper bound at most.
    expect(balancedShare(0.6, 1, 9)).toBe(0.7);
    // Nothing measured: the share stays, bounded.
    expect(balancedShare(0.45, 0, 2)).toBe(0.45);
    expect(balancedShare(0.45, Number.NaN, 2)).toBe(0.45);
    expect(balancedShare(0.9, 0, 0)).toBe(0.7);
  });
});
