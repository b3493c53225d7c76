import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frameTable } from '../../src/synth/camera.ts';
import { buildScene, loadSceneBits, placedBases, type PoseOverrides } from '../../src/synth/scene.ts';
import { Shader } from '../../src/synth/shade.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';

const demo = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'), 'demo');

describe('Shader ground cache (the live table keeps the rays of redrawn pixels)', () => {
  it('shades cached pixels bit for bit as afresh: over the cloth, a reference sheet and the floor, at 1–3 samples', async () => {
    const cam = frameTable(demo.table, { resolution: { width: 480, height: 270 } });
    const bits = await loadSceneBits(demo);
    const placed = placedBases(demo);
    // Two bases carried over a reference sheet (60, 60) and past the table's edge (floor), one turned.
    const moved: PoseOverrides = {
      [placed[0]!.base.marker.id]: { x: 70, y: 80, headingDeg: 30 },
      [placed[1]!.base.marker.id]: { x: 5, y: 600, headingDeg: 90 },
    };
    for (const samples of [1, 2, 3]) {
      for (const poses of [{}, moved, {}]) {
        const scene = buildScene(demo, bits, poses);
        const fresh = new Shader(cam, scene, { lighting: 0.25, supersampling: samples });
        const cached = new Shader(cam, scene, { lighting: 0.25, supersampling: samples });
        cached.enableGroundCache();
        const boxes = scene.bases.map((b) => fresh.baseBox(b));
        const a = new Float32Array(cam.width * cam.height * 3);
        const b = new Float32Array(cam.width * cam.height * 3);
        fresh.renderBases(a, boxes);
        cached.renderBases(b, boxes); // fills the cache
        b.fill(0);
        cached.renderBases(b, boxes); // shades from it
        expect(Buffer.compare(Buffer.from(a.buffer), Buffer.from(b.buffer)), `${samples} samples`).toBe(0);
        expect(a.some((v) => v > 0)).toBe(true);
      }
    }
  });

  it('draws a moved base from the cache filled before it moved, as a fresh shader does', async () => {
    const cam = frameTable(demo.table, { resolution: { width: 480, height: 270 } });
    const bits = await loadSceneBits(demo);
    const id = placedBases(demo)[3]!.base.marker.id;
    const start = placedBases(demo)[3]!.pose;
    const cached = new Shader(cam, buildScene(demo, bits), { lighting: 0.25, supersampling: 3 });
    cached.enableGroundCache();
    for (const dy of [0, 4, 9, 4, 0]) {
      const scene = buildScene(demo, bits, { [id]: { ...start, y: start.y + dy } });
      cached.setScene(scene);
      const fresh = new Shader(cam, scene, { lighting: 0.25, supersampling: 3 });
      const boxes = scene.bases.map((b) => fresh.baseBox(b));
      const a = new Float32Array(cam.width * cam.height * 3);
      const b = new Float32Array(cam.width * cam.height * 3);
      fresh.renderBases(a, boxes);
      cached.renderBases(b, boxes);
      expect(Buffer.compare(Buffer.from(a.buffer), Buffer.from(b.buffer)), `moved ${dy} mm`).toBe(0);
    }
  });
});
