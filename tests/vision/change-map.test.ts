import { beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import { toGrey, type SynthFrame } from '../../src/synth/render.ts';
import type { Scenario } from '../../src/table/scenario.ts';
import { ChangeMap, mergeOverlapping } from '../../src/vision/change-map.ts';

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
