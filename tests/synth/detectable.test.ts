import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frameTable, type ResolutionName } from '../../src/synth/camera.ts';
import { cvDictionaryName } from '../../src/synth/marker-bits.ts';
import { renderScene, toGrey } from '../../src/synth/render.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { loadOpenCV } from '../../src/vision/opencv.ts';

/**
 * The rendered demo must be a fair picture: OpenCV's own ArUco detector (not our Detector)
 * finds every marker, at the corners the truth gives.
 */
const demo = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'), 'demo');

async function detect(resolution: ResolutionName, seed: number) {
  const cv = await loadOpenCV();
  const cam = frameTable(demo.table, { resolution });
  const { image, truth } = await renderScene(demo, cam, { seed });
  const grey = cv.matFromArray(image.height, image.width, cv.CV_8UC1, toGrey(image));
  const dict = cv.getPredefinedDictionary(cv[cvDictionaryName(demo.markerDictionary)]);
  const params = new cv.aruco_DetectorParameters();
  // Without refinement OpenCV reports whole-pixel polygon corners; sub-pixel is what we measure.
  params.cornerRefinementMethod = cv.CORNER_REFINE_SUBPIX;
  const detector = new cv.aruco_ArucoDetector(dict, params, new cv.aruco_RefineParameters(10, 3, true));
  const corners = new cv.MatVector();
  const ids = new cv.Mat();
  detector.detectMarkers(grey, corners, ids);
  const found = new Map<number, Float32Array>();
  for (let i = 0; i < ids.rows; i++) {
    const c = corners.get(i);
    found.set(ids.data32S[i] as number, Float32Array.from(c.data32F as Float32Array));
    c.delete();
  }
  for (const m of [grey, corners, ids, detector, params, dict]) m.delete();
  const expected = [...truth.references, ...truth.bases.map((b) => b.marker)];
  const errors: number[] = [];
  const missing: number[] = [];
  const perMarker: Array<{ id: number; mean: number; max: number }> = [];
  for (const m of expected) {
    const c = found.get(m.markerId);
    if (!c) {
      missing.push(m.markerId);
      continue;
    }
    const e = m.cornersPx.map((p, k) => Math.hypot(c[2 * k]! - p.u, c[2 * k + 1]! - p.v));
    errors.push(...e);
    perMarker.push({ id: m.markerId, mean: e.reduce((a, b) => a + b, 0) / 4, max: Math.max(...e) });
  }
  const extra = [...found.keys()].filter((id) => !expected.some((m) => m.markerId === id));
  errors.sort((a, b) => a - b);
  const rms = Math.sqrt(errors.reduce((a, b) => a + b * b, 0) / errors.length);
  const median = errors[Math.floor(errors.length / 2)]!;
  const max = errors[errors.length - 1]!;
  console.log(
    `${resolution} seed ${seed}: found ${found.size}/${expected.length}, missing [${missing}], extra [${extra}]; ` +
      `corner error median ${median.toFixed(3)} px, rms ${rms.toFixed(3)} px, max ${max.toFixed(3)} px`,
  );
  return { missing, extra, rms, median, max, perMarker };
}

describe('OpenCV finds the rendered demo markers', () => {
  it.each([1, 2, 3])('1080p, seed %i: every marker found, corners on the truth', async (seed) => {
    const r = await detect('1080p', seed);
    expect(r.missing).toEqual([]);
    expect(r.extra).toEqual([]);
    // 32 mm tags are ~26 px across here (3.3 px per cell): OpenCV's sub-pixel corners scatter
    // about ±0.5 px around the truth; a systematic offset would show in the median.
    expect(r.median).toBeLessThan(0.5);
    expect(r.rms).toBeLessThan(0.6);
    expect(r.max).toBeLessThan(2);
    // One marker's four corners may all sit ~0.9 px off (cornerSubPix wanders on 3 px cells: the
    // same marker, 32, was just under 0.9 before ink was integrated per sample and 0.90–0.94 after,
    // with the same median and rms); a picture drawn in the wrong place would be off everywhere.
    for (const m of r.perMarker) expect(m.mean, `marker ${m.id}`).toBeLessThan(1.0);
  });

  it('4k: every marker found, corners within 0.5 px', async () => {
    const r = await detect('4k', 1);
    expect(r.missing).toEqual([]);
    expect(r.max).toBeLessThan(1);
    expect(r.rms).toBeLessThan(0.5);
  });
});
