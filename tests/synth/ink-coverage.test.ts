import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frameTable, RESOLUTIONS } from '../../src/synth/camera.ts';
import { InkCoverage } from '../../src/synth/ink-coverage.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import type { MarkerBits } from '../../src/synth/marker-bits.ts';
import { renderScene, toGrey } from '../../src/synth/render.ts';
import type { PixelPoint } from '../../src/synth/truth.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Ink share of the parallelogram by brute force: a k × k grid of points inside it, each looked up. */
function bruteInk(
  bits: MarkerBits,
  size: number,
  a: number,
  b: number,
  u: number[],
  v: number[],
  k: number,
): number {
  const n = bits.cells;
  let ink = 0;
  for (let j = 0; j < k; j++)
    for (let i = 0; i < k; i++) {
      const s = (i + 0.5) / k - 0.5;
      const t = (j + 0.5) / k - 0.5;
      const pa = a + s * u[0]! + t * v[0]!;
      const pb = b + s * u[1]! + t * v[1]!;
      const col = Math.floor(((pa + size / 2) / size) * n);
      const row = Math.floor(((size / 2 - pb) / size) * n);
      if (col >= 0 && col < n && row >= 0 && row < n && bits.white[row * n + col] === 0) ink++;
    }
  return ink / (k * k);
}

describe('InkCoverage', () => {
  it('equals the ink share found by dense sampling, for 3,000 footprints of every shape and size', () => {
    const rand = rng(41);
    const cover = new InkCoverage();
    let worst = 0;
    let partial = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const n = 8;
      const white = new Uint8Array(n * n).map(() => (rand() < 0.5 ? 1 : 0));
      const bits: MarkerBits = { cells: n, white };
      const size = 12;
      const cell = size / n;
      // Footprints from a twentieth of a cell to three cells, sheared and turned; some off the marker.
      const scale = cell * (0.05 + 3 * rand() ** 2);
      const angle = rand() * Math.PI * 2;
      const shear = rand() - 0.5;
      const squash = 0.3 + rand();
      const u = [scale * Math.cos(angle), scale * Math.sin(angle)];
      const v = [
        scale * squash * (-Math.sin(angle) + shear * Math.cos(angle)),
        scale * squash * (Math.cos(angle) + shear * Math.sin(angle)),
      ];
      const a = (rand() - 0.5) * size * 1.3;
      const b = (rand() - 0.5) * size * 1.3;
      const exact = cover.coverage(bits, size, a, b, u[0]!, u[1]!, v[0]!, v[1]!);
      const brute = bruteInk(bits, size, a, b, u, v, 300);
      worst = Math.max(worst, Math.abs(exact - brute));
      if (brute > 0.02 && brute < 0.98) partial++;
    }
    // 300 × 300 points place each edge to 1/300 of the footprint: the brute force's own error.
    expect(worst).toBeLessThan(0.008);
    expect(partial).toBeGreaterThan(1000);
  });

  it('gives the cell colour for a footprint inside one cell, paper off the marker, NaN when degenerate', () => {
    const bits: MarkerBits = { cells: 2, white: Uint8Array.from([0, 1, 1, 0]) };
    const cover = new InkCoverage();
    expect(cover.coverage(bits, 10, -2.5, 2.5, 0.5, 0, 0, 0.5)).toBe(1); // top-left cell, black
    expect(cover.coverage(bits, 10, 2.5, 2.5, 0.5, 0, 0, 0.5)).toBe(0); // top-right cell, white
    expect(cover.coverage(bits, 10, 20, 0, 0.5, 0, 0, 0.5)).toBe(0);
    expect(cover.coverage(bits, 10, 0, 2.5, 1, 0, 0, 1)).toBeCloseTo(0.5, 12); // across the black/white edge
    expect(cover.coverage(bits, 10, 0, 0, 1, 0, 2, 0)).toBeNaN();
  });
});

describe('the renderer integrates ink over each sample', () => {
  it('draws the same small tags with 3 samples a pixel as with 12', async () => {
    // Point samples put every cell edge on a 1/s px grid: without integration, 3 samples against 12
    // differed by up to 56 grey levels on these tags.
    const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'), 'demo');
    const cam = frameTable(scenario.table, { resolution: '720p' });
    expect(cam.width).toBe(RESOLUTIONS['720p'].width);
    const sensor = { seed: 3, noiseSigma: 0, blurSigma: 0.01, lighting: 0 };
    const coarse = await renderScene(scenario, cam, { ...sensor, supersampling: 3 });
    const fine = await renderScene(scenario, cam, { ...sensor, supersampling: 12 });
    const g3 = toGrey(coarse.image);
    const g12 = toGrey(fine.image);
    let worst = 0;
    let pixels = 0;
    for (const base of coarse.truth.bases) {
      // Pixels whose centre is inside the printed square shrunk by a pixel: the whole footprint is on paper.
      const q = base.marker.cornersPx;
      const inside = (p: PixelPoint) =>
        q.every((c, i) => {
          const d = q[(i + 1) % 4]!;
          const ex = d.u - c.u;
          const ey = d.v - c.v;
          const len = Math.hypot(ex, ey);
          return (ex * (p.v - c.v) - ey * (p.u - c.u)) / len >= 1;
        }) ||
        q.every((c, i) => {
          const d = q[(i + 1) % 4]!;
          const ex = d.u - c.u;
          const ey = d.v - c.v;
          const len = Math.hypot(ex, ey);
          return (ex * (p.v - c.v) - ey * (p.u - c.u)) / len <= -1;
        });
      const us = q.map((c) => c.u);
      const vs = q.map((c) => c.v);
      for (let v = Math.floor(Math.min(...vs)); v <= Math.ceil(Math.max(...vs)); v++)
        for (let u = Math.floor(Math.min(...us)); u <= Math.ceil(Math.max(...us)); u++) {
          if (!inside({ u, v })) continue;
          const o = v * cam.width + u;
          worst = Math.max(worst, Math.abs(g3[o]! - g12[o]!));
          pixels++;
        }
    }
    expect(pixels).toBeGreaterThan(500);
    expect(worst).toBeLessThanOrEqual(3);
  });

  it('point-samples ink only when asked (the live demo), and nothing but ink', async () => {
    const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'), 'demo');
    const cam = frameTable(scenario.table, { resolution: '720p' });
    const options = { seed: 5, noiseSigma: 0 };
    const exact = (await LiveSyntheticTable.create(scenario, cam, options)).frame(0);
    const pointed = (
      await LiveSyntheticTable.create(scenario, cam, { ...options, pointSampledInk: true })
    ).frame(0);
    const a = toGrey(exact.image);
    const b = toGrey(pointed.image);
    // Pixels that differ lie on the tags (within their paper), and some differ a lot.
    const onTag = (u: number, v: number) =>
      [...exact.truth.bases.map((x) => x.marker), ...exact.truth.references].some((m) => {
        const us = m.cornersPx.map((c) => c.u);
        const vs = m.cornersPx.map((c) => c.v);
        return (
          u >= Math.min(...us) - 3 &&
          u <= Math.max(...us) + 3 &&
          v >= Math.min(...vs) - 3 &&
          v <= Math.max(...vs) + 3
        );
      });
    let differing = 0;
    let worst = 0;
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      differing++;
      worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
      expect(
        onTag(i % cam.width, Math.floor(i / cam.width)),
        `pixel ${i % cam.width}, ${Math.floor(i / cam.width)}`,
      ).toBe(true);
    }
    expect(differing).toBeGreaterThan(500);
    expect(worst).toBeGreaterThan(20);
  });
});
