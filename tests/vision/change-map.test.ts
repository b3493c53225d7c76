import { beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import { toGrey, type SynthFrame } from '../../src/synth/render.ts';
import type { Scenario } from '../../src/table/scenario.ts';
import { blockMeans, ChangeMap, medianOf, mergeOverlapping } from '../../src/vision/change-map.ts';
import { Prng } from '../../src/synth/noise.ts';

describe('change map', () => {
  let scenario: Scenario;
  let live: LiveSyntheticTable;
  const grey = (f: SynthFrame) => ({ data: toGrey(f.image), width: f.image.width, height: f.image.height });

  beforeAll(async () => {
    scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: 20, seed: 39 });
    live = await LiveSyntheticTable.create(scenario, frameTable(scenario.table, { resolution: '1080p' }), {
      seed: 39,
    });
  });

  it('sees nothing in fresh noise or a change of exposure, and everything on the first frame', () => {
    const map = new ChangeMap();
    const first = map.update(grey(live.frameWithPoses({}, 1)), 30);
    expect(first.compared).toBe(false);
    expect(first.share).toBe(1);
    expect(map.update(grey(live.frameWithPoses({}, 2)), 30).regions).toEqual([]);
    const g = grey(live.frameWithPoses({}, 3));
    const brighter = { ...g, data: Uint8Array.from(g.data, (v) => Math.min(255, v + 12)) };
    expect(map.update(brighter, 30).regions).toEqual([]);
  });

  it('finds a base pushed by 2 mm: one region around where it was and where it is', () => {
    const map = new ChangeMap();
    map.update(grey(live.frameWithPoses({}, 1)), 30);
    const base = live.frameWithPoses({}, 1).truth.bases[20]!;
    const id = base.markerId;
    const moved = { [id]: { x: base.centreMm.x + 2, y: base.centreMm.y, headingDeg: base.headingDeg } };
    const frame = live.frameWithPoses(moved, 2);
    const changes = map.update(grey(frame), 30);
    expect(changes.regions).toHaveLength(1);
    const r = changes.regions[0]!;
    for (const c of frame.truth.bases[20]!.marker.cornersPx) {
      expect(c.u).toBeGreaterThan(r.x0);
      expect(c.u).toBeLessThan(r.x0 + r.w);
      expect(c.v).toBeGreaterThan(r.y0);
      expect(c.v).toBeLessThan(r.y0 + r.h);
    }
    expect(changes.share).toBeLessThan(0.01);
  });

  it('merges overlapping rectangles until none overlap', () => {
    const merged = mergeOverlapping([
      { x0: 0, y0: 0, w: 10, h: 10 },
      { x0: 5, y0: 5, w: 10, h: 10 },
      { x0: 100, y0: 100, w: 5, h: 5 },
      { x0: 14, y0: 14, w: 3, h: 3 },
    ]);
    expect(merged).toEqual([
      { x0: 0, y0: 0, w: 17, h: 17 },
      { x0: 100, y0: 100, w: 5, h: 5 },
    ]);
  });
});

describe('change map arithmetic (same answers as the plain sums and a sort)', () => {
  it('block means equal a brute-force mean of every block, for 8-bit pictures of any size and offset', () => {
    const rng = new Prng(17);
    for (const [width, height, b, offset] of [
      [64, 48, 8, 0],
      [1920, 1080, 8, 0],
      [100, 37, 8, 0], // width not a multiple of 4: the plain path
      [64, 40, 8, 1], // unaligned view: the plain path
      [60, 45, 5, 0],
    ] as const) {
      const buffer = new Uint8Array(width * height + offset);
      for (let i = 0; i < buffer.length; i++) buffer[i] = rng.nextU32() & 0xff;
      // Saturated corners: the 16-bit lanes at their fullest.
      buffer.fill(255, offset, offset + width * 8);
      const data = buffer.subarray(offset);
      const cols = Math.floor(width / b);
      const rows = Math.floor(height / b);
      const means = blockMeans({ data, width }, b, cols, rows);
      for (let by = 0; by < rows; by++)
        for (let bx = 0; bx < cols; bx++) {
          let sum = 0;
          for (let y = by * b; y < (by + 1) * b; y++)
            for (let x = bx * b; x < (bx + 1) * b; x++) sum += data[y * width + x]!;
          expect(means[by * cols + bx]).toBe(Math.fround(sum / (b * b)));
        }
    }
  });

  it("the median is a sorted copy's middle element, and the values are left alone", () => {
    const rng = new Prng(5);
    for (const n of [1, 2, 3, 10, 101, 32_400]) {
      for (const levels of [3, 1000]) {
        const values = Float32Array.from({ length: n }, () => ((rng.nextU32() % levels) - levels / 2) / 64);
        const copy = Float32Array.from(values);
        const sorted = Float32Array.from(values).sort();
        expect(medianOf(values)).toBe(sorted[n >> 1]);
        expect(values).toEqual(copy);
      }
    }
    expect(medianOf(new Float32Array(0))).toBe(0);
  });
});
