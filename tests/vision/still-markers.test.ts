import { beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import { toGrey, type SynthFrame } from '../../src/synth/render.ts';
import type { Scenario } from '../../src/table/scenario.ts';
import type { Quad } from '../../src/vision/candidates.ts';
import type { GreyImage } from '../../src/vision/image.ts';
import { StillMarkers } from '../../src/vision/still-markers.ts';

/**
 * "Still" must mean still: the same markers under fresh sensor noise or a uniform change of light
 * are kept; a base pushed by a third of a millimetre, or taken away, is not.
 */
describe('still markers', () => {
  let scenario: Scenario;
  let live: LiveSyntheticTable;
  let first: SynthFrame;
  const grey = (f: SynthFrame): GreyImage => ({
    data: toGrey(f.image),
    width: f.image.width,
    height: f.image.height,
  });
  const found = (f: SynthFrame) =>
    f.truth.bases.map((b) => ({ id: b.markerId, corners: b.marker.cornersPx as Quad }));
  const posesOf = (s: Scenario) =>
    Object.fromEntries(s.units.flatMap((u) => u.bases.map((b) => [b.marker.id, b.pose!] as const)));

  beforeAll(async () => {
    scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: 20, seed: 31 });
    live = await LiveSyntheticTable.create(scenario, frameTable(scenario.table, { resolution: '1080p' }), {
      seed: 31,
    });
    first = live.frameWithPoses({}, 1);
  });

  it('keeps every marker through fresh noise and a change of light', () => {
    const still = new StillMarkers<{ id: number; corners: Quad }>();
    const g = grey(first);
    for (const m of found(first)) still.remember(g, m);
    expect(still.recall(grey(live.frameWithPoses({}, 2)))).toHaveLength(54);
    const brighter = grey(live.frameWithPoses({}, 3));
    const lit = Uint8Array.from(brighter.data, (v) => Math.min(255, v + 9));
    expect(still.recall({ ...brighter, data: lit })).toHaveLength(54);
  });

  it('lets go of a base pushed by 0.3 mm, and of one taken away', () => {
    const still = new StillMarkers<{ id: number; corners: Quad }>();
    const g = grey(first);
    for (const m of found(first)) still.remember(g, m);
    const poses = posesOf(scenario);
    const pushed = scenario.units[10]!.bases[0]!.marker.id;
    const gone = scenario.units[20]!.bases[0]!.marker.id;
    const moved = {
      ...poses,
      [pushed]: { ...poses[pushed]!, x: poses[pushed]!.x + 0.3 },
      // Taken off the table: far outside the picture.
      [gone]: { ...poses[gone]!, x: -5000, y: -5000 },
    };
    const kept = still.recall(grey(live.frameWithPoses(moved, 4))).map((m) => m.id);
    expect(kept).not.toContain(pushed);
    expect(kept).not.toContain(gone);
    expect(kept).toHaveLength(52);
  });
});
