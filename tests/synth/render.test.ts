import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { frameTable, projectPoint, RESOLUTIONS, type SynthCamera } from '../../src/synth/camera.ts';
import { renderScene, toGrey, type SynthFrame } from '../../src/synth/render.ts';
import type { MarkerTruth } from '../../src/synth/truth.ts';
import { parseScenarioText, type Scenario } from '../../src/table/scenario.ts';

const demo: Scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'), 'demo');

/** Grey level at a point given in the marker's own square: (a, b) from its centre in mm, b toward its top. */
function greyAtMarker(
  frame: SynthFrame,
  cam: SynthCamera,
  grey: Uint8Array,
  m: MarkerTruth,
  a: number,
  b: number,
): number {
  const [tl, tr, , bl] = m.cornersMm;
  const size = Math.hypot(tr.x - tl.x, tr.y - tl.y);
  const right = { x: (tr.x - tl.x) / size, y: (tr.y - tl.y) / size };
  const up = { x: (tl.x - bl.x) / size, y: (tl.y - bl.y) / size };
  const p = projectPoint(cam, {
    x: m.centreMm.x + a * right.x + b * up.x,
    y: m.centreMm.y + a * right.y + b * up.y,
    z: m.centreMm.z,
  })!;
  return grey[Math.round(p.v) * frame.image.width + Math.round(p.u)]!;
}

describe('renderScene on the demo scenario (1080p)', () => {
  const cam = frameTable(demo.table);
  let frame: SynthFrame;
  let grey: Uint8Array;
  beforeAll(async () => {
    const t0 = performance.now();
    frame = await renderScene(demo, cam, { seed: 7 });
    console.log(
      `demo 1080p render: ${(performance.now() - t0).toFixed(0)} ms (first call, incl. OpenCV start-up)`,
    );
    grey = toGrey(frame.image);
  });

  it('returns an RGB image of the camera size and truth for every placed base', () => {
    expect(frame.image.width).toBe(1920);
    expect(frame.image.height).toBe(1080);
    expect(frame.image.data.length).toBe(1920 * 1080 * 3);
    const placed = demo.units.flatMap((u) => u.bases.filter((b) => b.pose)).length;
    expect(frame.truth.bases).toHaveLength(placed);
    expect(frame.truth.references).toHaveLength(demo.referenceMarkers.length);
    expect(frame.truth.camera.source).toBe('synthetic');
    for (const b of frame.truth.bases) expect(b.marker.inView).toBe(true);
  });

  it('draws each marker where the truth says: dark border cells, white quiet zone', () => {
    const markers = [...frame.truth.references, ...frame.truth.bases.map((b) => b.marker)];
    const dict = 8; // 36h11: 6 data cells + 2 border cells per side
    for (const m of markers) {
      const s = Math.hypot(m.cornersMm[1].x - m.cornersMm[0].x, m.cornersMm[1].y - m.cornersMm[0].y);
      const cell = s / dict;
      const h = s / 2;
      // Centre of each corner cell of the black border, next to each truth corner.
      const border = [
        greyAtMarker(frame, cam, grey, m, -h + cell / 2, h - cell / 2),
        greyAtMarker(frame, cam, grey, m, h - cell / 2, h - cell / 2),
        greyAtMarker(frame, cam, grey, m, h - cell / 2, -h + cell / 2),
        greyAtMarker(frame, cam, grey, m, -h + cell / 2, -h + cell / 2),
      ];
      // Middle of the quiet zone along each edge, half a cell outside the black square.
      const quiet = [
        greyAtMarker(frame, cam, grey, m, 0, h + cell / 2),
        greyAtMarker(frame, cam, grey, m, h + cell / 2, 0),
        greyAtMarker(frame, cam, grey, m, 0, -h - cell / 2),
        greyAtMarker(frame, cam, grey, m, -h - cell / 2, 0),
      ];
      for (const g of border) expect(g, `marker ${m.markerId} border`).toBeLessThan(80);
      for (const g of quiet) expect(g, `marker ${m.markerId} quiet zone`).toBeGreaterThan(120);
    }
  });

  it('truth pixel corners are consistent with the camera projection of the truth millimetres', () => {
    for (const m of frame.truth.bases.map((b) => b.marker)) {
      m.cornersMm.forEach((c, i) => {
        const p = projectPoint(cam, c)!;
        expect(p.u).toBeCloseTo(m.cornersPx[i]!.u, 9);
        expect(p.v).toBeCloseTo(m.cornersPx[i]!.v, 9);
      });
      // OpenCV order: TL, TR, BR, BL runs clockwise in the image (positive shoelace area, y down).
      const c = m.cornersPx;
      let area = 0;
      for (let i = 0; i < 4; i++) area += c[i]!.u * c[(i + 1) % 4]!.v - c[(i + 1) % 4]!.u * c[i]!.v;
      expect(area).toBeGreaterThan(0);
    }
  });

  it('is deterministic for a seed, and the seed changes only the noise', async () => {
    const again = await renderScene(demo, cam, { seed: 7 });
    expect(Buffer.compare(Buffer.from(again.image.data), Buffer.from(frame.image.data))).toBe(0);
    const other = await renderScene(demo, cam, { seed: 8 });
    let diff = 0;
    let sq = 0;
    for (let i = 0; i < other.image.data.length; i++) {
      const d = other.image.data[i]! - frame.image.data[i]!;
      if (d !== 0) diff++;
      sq += d * d;
    }
    expect(diff).toBeGreaterThan(other.image.data.length / 4);
    // Two independent draws of σ = 2 noise differ by σ√2 ≈ 2.8 grey levels RMS.
    expect(Math.sqrt(sq / other.image.data.length)).toBeGreaterThan(2);
    expect(Math.sqrt(sq / other.image.data.length)).toBeLessThan(3.5);
  });

  it('moves a base with a pose override, leaving the scenario alone', async () => {
    const id = 10;
    const moved = await renderScene(demo, cam, {
      seed: 7,
      poses: { [id]: { x: 400, y: 600, headingDeg: 45 } },
    });
    const b = moved.truth.bases.find((t) => t.markerId === id)!;
    expect(b.centreMm).toEqual({ x: 400, y: 600 });
    expect(b.headingDeg).toBe(45);
    // The marker's top edge now points 45° left of table +y.
    const [tl, tr] = b.marker.cornersMm;
    expect((Math.atan2(tr.y - tl.y, tr.x - tl.x) * 180) / Math.PI).toBeCloseTo(45, 9);
    const g = toGrey(moved.image);
    const m = b.marker;
    const s = 32;
    expect(greyAtMarker(moved, cam, g, m, -s / 2 + 2, s / 2 - 2)).toBeLessThan(80);
    expect(demo.units[0]!.bases[0]!.pose).toEqual({ x: 680, y: 330, headingDeg: 0 });
  });
});

describe('renderScene sizes', () => {
  it.each(Object.keys(RESOLUTIONS))('%s', async (name) => {
    const cam = frameTable(demo.table, { resolution: name as keyof typeof RESOLUTIONS });
    const t0 = performance.now();
    const f = await renderScene(demo, cam, { seed: 1 });
    console.log(`demo ${name} render: ${(performance.now() - t0).toFixed(0)} ms`);
    expect([f.image.width, f.image.height]).toEqual([cam.width, cam.height]);
    expect(f.image.data.length).toBe(cam.width * cam.height * 3);
    expect(f.truth.camera.imageWidth).toBe(cam.width);
  });
});
