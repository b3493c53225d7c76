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
  const ONE = { coarse: 1, routine: 1 };
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

  it('sums a still marker over its frames and offers the mean at 2, 3, 5, 8 … frames, once each', () => {
    const still = new StillMarkers<{ id: number; corners: Quad }>();
    const frames = [1, 5, 6, 7, 8, 9, 10, 11].map((n) => grey(live.frameWithPoses({}, n)));
    const markers = found(first);
    for (const m of markers) still.remember(frames[0]!, m);
    const { width, height } = frames[0]!;
    const mean = new Float32Array(width * height);
    const dueAt: number[] = [];
    for (let f = 1; f < frames.length; f++) {
      expect(still.recall(frames[f]!)).toHaveLength(54);
      const due = still.averagedDue(
        { coarse: 100, routine: 100 },
        mean,
        width,
        (m) => m.id !== markers[0]!.id,
      );
      if (due.length === 0) continue;
      dueAt.push(f + 1);
      // All but the one not wanted, each with every frame so far.
      expect(due).toHaveLength(53);
      expect(due.every((d) => d.frames === f + 1)).toBe(true);
      // The mean written over each region is the plain mean of those frames' pixels.
      const c = markers[1]!.corners;
      const u = Math.round((c[0].u + c[2].u) / 2);
      const v = Math.round((c[0].v + c[2].v) / 2);
      for (const [du, dv] of [
        [0, 0],
        [2, -1],
        [-3, 2],
      ] as const) {
        const at = (v + dv) * width + u + du;
        const expected = frames.slice(0, f + 1).reduce((sum, g) => sum + g.data[at]!, 0) / (f + 1);
        expect(mean[at]).toBeCloseTo(expected, 3);
      }
    }
    expect(dueAt).toEqual([2, 3, 5, 8]);
    expect(height).toBe(1080);
  });

  it('does not add a frame looked at a second time', () => {
    const still = new StillMarkers<{ id: number; corners: Quad }>();
    const [a, b] = [15, 16].map((n) => grey(live.frameWithPoses({}, n)));
    const m = found(first)[5]!;
    still.remember(a!, m);
    const mean = new Float32Array(a!.width * a!.height);
    // The same frame again: still there, but one frame summed.
    expect(still.recall(a!, false)).toEqual([m]);
    expect(still.averagedDue(ONE, mean, a!.width, () => true)).toEqual([]);
    expect(still.recall(b!)).toEqual([m]);
    expect(still.averagedDue(ONE, mean, a!.width, () => true)[0]?.frames).toBe(2);
  });

  it('keeps the sums when a marker is measured again, and starts them afresh when it is read again', () => {
    const still = new StillMarkers<{ id: number; corners: Quad }>();
    const [a, b, c] = [12, 13, 14].map((n) => grey(live.frameWithPoses({}, n)));
    const m = found(first)[3]!;
    still.remember(a!, m);
    still.recall(b!);
    const mean = new Float32Array(a!.width * a!.height);
    const [due] = still.averagedDue(ONE, mean, a!.width, () => true);
    expect(due?.frames).toBe(2);
    const moved = { id: m.id, corners: m.corners.map((p) => ({ u: p.u + 0.01, v: p.v })) as unknown as Quad };
    still.replace(moved);
    expect(still.recall(c!)).toEqual([moved]);
    still.remember(c!, moved);
    expect(still.averagedDue(ONE, mean, a!.width, () => true)).toEqual([]);
  });

  it('offers coarse markers first, under their own limit, until one is measured again finely', () => {
    const still = new StillMarkers<{ id: number; corners: Quad }>();
    const [a, b] = [17, 18].map((n) => grey(live.frameWithPoses({}, n)));
    const markers = found(first);
    markers.forEach((m, i) => still.remember(a!, m, i < 3));
    still.recall(b!);
    const mean = new Float32Array(a!.width * a!.height);
    const due = still.averagedDue({ coarse: 2, routine: 4 }, mean, a!.width, () => true);
    expect(due.map((d) => d.coarse)).toEqual([true, true, false, false, false, false]);
    // The third coarse one, left over, is still coarse; the first, measured again, is not.
    still.replace(markers[0]!);
    const c = grey(live.frameWithPoses({}, 19));
    still.recall(c);
    still.recall(grey(live.frameWithPoses({}, 20)));
    const next = still.averagedDue({ coarse: 100, routine: 0 }, mean, a!.width, () => true);
    expect(next.map((d) => d.value.id)).toEqual([markers[1]!.id, markers[2]!.id]);
  });

  it('makes a marker whose picture is changing coarse, and sums it afresh once it is not', () => {
    const still = new StillMarkers<{ id: number; corners: Quad }>();
    const frames = [21, 22, 23, 24, 25].map((n) => grey(live.frameWithPoses({}, n)));
    const m = found(first)[7]!;
    still.remember(frames[0]!, m);
    const mean = new Float32Array(frames[0]!.width * frames[0]!.height);
    const due = () => still.averagedDue({ coarse: 1, routine: 0 }, mean, frames[0]!.width, () => true);
    // Changing (by the caller's measure) in two frames: summed, and coarse.
    still.recall(frames[1]!, true, () => true);
    still.recall(frames[2]!, true, () => true);
    // Unchanged again: summed from this frame on, so due again at two frames, not four.
    still.recall(frames[3]!);
    expect(due()).toEqual([]);
    still.recall(frames[4]!);
    expect(due()).toEqual([{ value: m, frames: 2, coarse: true }]);
  });
});
