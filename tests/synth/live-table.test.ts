import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frameTable } from '../../src/synth/camera.ts';
import { handShadows, handsOverMarkers, randomClutter, randomGlare } from '../../src/synth/clutter-layout.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import { renderScene } from '../../src/synth/render.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';

const demo = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'), 'demo');

describe('LiveSyntheticTable', () => {
  it('moves one unit forward and back, and its incremental frames equal full renders', async () => {
    const cam = frameTable(demo.table, { resolution: '720p' });
    const opts = { noiseSigma: 0, supersampling: 3, movingUnitId: 'camerons' };
    const live = await LiveSyntheticTable.create(demo, cam, opts);
    const t0 = performance.now();
    const frames = [0, 2500, 5000, 10_000, 20_000].map((t) => live.frame(t));
    console.log(`live 720p: ${((performance.now() - t0) / frames.length).toFixed(0)} ms per frame`);

    const lead = (i: number) => frames[i]!.truth.bases.find((b) => b.markerId === 40)!;
    // Camerons face 180°, i.e. toward table −y: advancing 150 mm lowers y by 150 mm at half period.
    expect(lead(0).centreMm.y).toBeCloseTo(820, 9);
    expect(lead(3).centreMm.y).toBeCloseTo(670, 9);
    expect(lead(3).centreMm.x).toBeCloseTo(800, 9);
    expect(lead(4).centreMm.y).toBeCloseTo(820, 9);
    const other = (i: number) => frames[i]!.truth.bases.find((b) => b.markerId === 10)!;
    expect(other(3).centreMm).toEqual(other(0).centreMm);

    for (const t of [5000, 10_000, 0]) {
      const full = await renderScene(demo, cam, { ...opts, poses: live.posesAt(t) });
      const inc = live.frame(t);
      expect(Buffer.compare(Buffer.from(inc.image.data), Buffer.from(full.image.data)), `t = ${t}`).toBe(0);
      expect(inc.truth).toEqual(full.truth);
      // Drawn into a used buffer (the demo's renderer reuses its frames): the same picture, in it.
      const used = new Uint8Array(full.image.data.length).fill(123);
      const again = live.frame(t, null, used);
      expect(again.image.data).toBe(used);
      expect(Buffer.compare(Buffer.from(used), Buffer.from(full.image.data)), `t = ${t}, reused`).toBe(0);
    }
    expect(() => live.frame(0, null, new Uint8Array(10))).toThrow(/frame buffer/);
  });

  it('is deterministic for (seed, time) and its noise changes from frame to frame', async () => {
    const cam = frameTable(demo.table, { resolution: '720p' });
    const a = await LiveSyntheticTable.create(demo, cam, { seed: 5 });
    const b = await LiveSyntheticTable.create(demo, cam, { seed: 5 });
    const fa = a.frame(1234);
    expect(Buffer.compare(Buffer.from(fa.image.data), Buffer.from(b.frame(1234).image.data))).toBe(0);
    expect(Buffer.compare(Buffer.from(fa.image.data), Buffer.from(a.frame(1235).image.data))).not.toBe(0);
  });

  it('serves 1080p frames (timing printed, not asserted)', async () => {
    const cam = frameTable(demo.table);
    const live = await LiveSyntheticTable.create(demo, cam);
    const n = 10;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) live.frame(i * 333);
    const ms = (performance.now() - t0) / n;
    console.log(`live 1080p: ${ms.toFixed(0)} ms per frame (${(1000 / ms).toFixed(1)} fps)`);
    expect(live.frame(0).image.data.length).toBe(1920 * 1080 * 3);
  });

  it('with clutter, hands, glare, shadows and print defects, incremental frames still equal full renders', async () => {
    const cam = frameTable(demo.table, { resolution: { width: 640, height: 360 } });
    const placed = demo.units.flatMap((u) =>
      u.bases.flatMap((b) => (b.pose ? [{ ...b.pose, id: b.marker.id }] : [])),
    );
    const avoid = placed.map((p) => ({ x: p.x, y: p.y, radiusMm: 45 }));
    const lying = randomClutter({ table: demo.table, seed: 2, avoid, counts: { hand: 0 } });
    const hands = handsOverMarkers(
      placed.slice(0, 2).map((p) => ({ x: p.x, y: p.y, sizeMm: 32, zMm: 3 })),
      demo.table,
      7,
    );
    const extras = {
      clutter: [...lying, ...hands],
      glare: [randomGlare(demo.table, 3, placed[5])],
      shadows: handShadows(hands),
      printDefects: { inkSpreadMm: 0.2, speckPerMm2: 0.3, scaleError: 0.02 },
    };
    const opts = { noiseSigma: 0, supersampling: 2, movingUnitId: 'camerons' };
    const live = await LiveSyntheticTable.create(demo, cam, { ...opts, ...extras });
    for (const t of [5000, 0]) {
      const full = await renderScene(demo, cam, { ...opts, ...extras, poses: live.posesAt(t) });
      const inc = live.frame(t);
      expect(Buffer.compare(Buffer.from(inc.image.data), Buffer.from(full.image.data)), `t = ${t}`).toBe(0);
      expect(inc.truth).toEqual(full.truth);
    }
    // New clutter and a softer lens: the next frame is what a full render of them draws.
    const other = randomClutter({ table: demo.table, seed: 8, avoid, counts: { hand: 1 } });
    live.setClutter(other);
    live.setSensor({ blurSigma: 1.1 });
    const full = await renderScene(demo, cam, {
      ...opts,
      ...extras,
      clutter: other,
      blurSigma: 1.1,
      poses: live.posesAt(2500),
    });
    const inc = live.frame(2500);
    expect(Buffer.compare(Buffer.from(inc.image.data), Buffer.from(full.image.data))).toBe(0);
    expect(inc.truth).toEqual(full.truth);
    expect(inc.truth.clutter).toHaveLength(other.length);
  });
});
