import { beforeAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable, projectPoint, type SynthCamera } from '../../src/synth/camera.ts';
import { handsOverMarkers, randomClutter } from '../../src/synth/clutter-layout.ts';
import { renderScene, toGrey, type RenderOptions, type SynthFrame } from '../../src/synth/render.ts';
import type { MarkerTruth } from '../../src/synth/truth.ts';
import type { Scenario } from '../../src/table/scenario.ts';

/**
 * What players' tables add, against the renderer's truth: clutter drawn where the truth says,
 * hands hiding what the truth says they hide, glare and shadows where the truth puts them, and
 * JPEG changing the bytes but not the truth. Pictures without noise or blur unless said, so a
 * pixel changes only where something was added.
 */

const scenario: Scenario = benchScenario({
  dictionary: 'aruco_mip_36h12',
  markerMm: 40,
  columns: 5,
  rows: 4,
  seed: 11,
});
const cam: SynthCamera = frameTable(scenario.table, { resolution: '720p' });
const still: RenderOptions = { noiseSigma: 0, blurSigma: 0, supersampling: 2, seed: 1 };
const bases = scenario.units.flatMap((u) => u.bases.map((b) => ({ id: b.marker.id, pose: b.pose! })));

/** Pixels strictly inside a marker's black square (shrunk by `inset` of its side), as indices. */
function insidePixels(m: MarkerTruth, inset = 0.08): number[] {
  const [tl, tr, , bl] = m.cornersMm;
  const out: number[] = [];
  const n = 24;
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const a = inset + ((1 - 2 * inset) * (i + 0.5)) / n;
      const b = inset + ((1 - 2 * inset) * (j + 0.5)) / n;
      const p = projectPoint(cam, {
        x: tl.x + a * (tr.x - tl.x) + b * (bl.x - tl.x),
        y: tl.y + a * (tr.y - tl.y) + b * (bl.y - tl.y),
        z: tl.z,
      })!;
      out.push(Math.round(p.v) * cam.width + Math.round(p.u));
    }
  return [...new Set(out)];
}

describe('clutter, hands, glare, shadows and JPEG on the synthetic table (720p)', () => {
  let plain: SynthFrame;
  beforeAll(async () => {
    plain = await renderScene(scenario, cam, still);
  });

  it('draws each piece of clutter inside the pixel rectangle its truth gives, and nothing elsewhere', async () => {
    const avoid = bases.map((b) => ({ x: b.pose.x, y: b.pose.y, radiusMm: 40 }));
    const clutter = randomClutter({ table: scenario.table, seed: 3, avoid, counts: { hand: 1 } });
    const frame = await renderScene(scenario, cam, { ...still, clutter });
    expect(frame.truth.clutter.map((c) => c.kind).sort()).toEqual(clutter.map((c) => c.kind).sort());
    const inside = new Uint8Array(cam.width * cam.height);
    for (const c of frame.truth.clutter) {
      const r = c.boundsPx;
      expect(r, `item ${c.index} in view`).not.toBeNull();
      let changed = 0;
      for (let y = r!.y0; y < r!.y1; y++)
        for (let x = r!.x0; x < r!.x1; x++) {
          inside[y * cam.width + x] = 1;
          const k = 3 * (y * cam.width + x);
          if (Math.abs(frame.image.data[k]! - plain.image.data[k]!) > 2) changed++;
        }
      // Every item shows (a die at 720p is a few pixels, a hand thousands).
      expect(changed, `item ${c.index} (${c.kind}) visible`).toBeGreaterThanOrEqual(4);
    }
    const outside: number[] = [];
    for (let p = 0; p < inside.length; p++)
      if (!inside[p] && frame.image.data[3 * p] !== plain.image.data[3 * p]) outside.push(p);
    expect(outside.slice(0, 5).map((p) => [p % cam.width, Math.floor(p / cam.width)])).toEqual([]);
    // Lying clutter was kept off the bases: their markers are untouched.
    for (const b of frame.truth.bases) {
      if (frame.truth.clutter.some((c) => c.covers.some((m) => m.markerId === b.markerId))) continue;
      for (const p of insidePixels(b.marker)) expect(frame.image.data[3 * p]).toBe(plain.image.data[3 * p]);
    }
  });

  it('hands hide what the truth says: a marker’s hidden fraction matches the share of its pixels that changed', async () => {
    const targets = bases.slice(0, 8).map((b) => ({ x: b.pose.x, y: b.pose.y, sizeMm: 40, zMm: 3 }));
    const hands = handsOverMarkers(targets, scenario.table, 5);
    const frame = await renderScene(scenario, cam, { ...still, clutter: hands });
    let partly = 0;
    for (const b of frame.truth.bases) {
      const pixels = insidePixels(b.marker, 0);
      const changed = pixels.filter((p) => {
        const k = 3 * p;
        return Math.abs(frame.image.data[k]! - plain.image.data[k]!) > 6;
      }).length;
      const share = changed / pixels.length;
      const hidden = b.marker.hiddenFraction;
      // Pixels on the square's very edge may take a sliver of a finger beside it.
      if (hidden === 0) expect(share, `marker ${b.markerId}`).toBeLessThanOrEqual(0.01);
      else {
        if (hidden < 1) partly++;
        // Sampled on different grids (12 × 12 vs 24 × 24 pixels): agree within a few cells' worth.
        expect(Math.abs(share - hidden), `marker ${b.markerId}: ${share} vs ${hidden}`).toBeLessThan(0.12);
        // The clutter truth names the hand that hides it, with the same share.
        const byHands = frame.truth.clutter.flatMap((c) => c.covers.filter((m) => m.markerId === b.markerId));
        expect(byHands.reduce((s, m) => s + m.fraction, 0)).toBeCloseTo(hidden, 9);
      }
    }
    // The hands reach over their targets: most are partly (not wholly) hidden.
    expect(partly).toBeGreaterThanOrEqual(5);
  });

  it('glare saturates where the truth puts it and leaves far markers alone', async () => {
    const target = frame0Marker(plain, 0);
    const frame = await renderScene(scenario, cam, {
      ...still,
      glare: [{ x: target.centreMm.x, y: target.centreMm.y, radiusMm: 30, peak: 400 }],
    });
    const m = frame.truth.bases[0]!.marker;
    expect(m.glareLevel).toBeGreaterThan(300);
    const centre = projectPoint(cam, m.centreMm)!;
    const k = 3 * (Math.round(centre.v) * cam.width + Math.round(centre.u));
    expect([...frame.image.data.subarray(k, k + 3)]).toEqual([255, 255, 255]);
    for (const b of frame.truth.bases.slice(1)) {
      if (Math.hypot(b.centreMm.x - m.centreMm.x, b.centreMm.y - m.centreMm.y) < 4 * 30 + 40) continue;
      expect(b.marker.glareLevel).toBe(0);
      for (const p of insidePixels(b.marker)) expect(frame.image.data[3 * p]).toBe(plain.image.data[3 * p]);
    }
  });

  it('a cast shadow darkens the table by the factor the truth gives', async () => {
    const m = frame0Marker(plain, 3);
    const frame = await renderScene(scenario, cam, {
      ...still,
      shadows: [
        {
          shape: 'ellipse',
          x: m.centreMm.x,
          y: m.centreMm.y,
          rxMm: 150,
          ryMm: 120,
          headingDeg: 20,
          depth: 0.4,
          softnessMm: 30,
        },
      ],
    });
    const t = frame.truth.bases[3]!.marker;
    expect(t.shadowFactor).toBeCloseTo(0.6, 9);
    expect(frame.truth.bases[0]!.marker.shadowFactor).toBe(1);
    // The white quiet zone just outside the marker's top edge: 60 % of its unshadowed grey.
    const [tl, tr] = t.cornersMm;
    const q = projectPoint(cam, {
      x: (tl.x + tr.x) / 2 + 0.06 * (tl.x - t.centreMm.x),
      y: (tl.y + tr.y) / 2 + 0.06 * (tl.y - t.centreMm.y),
      z: tl.z,
    })!;
    const k = 3 * (Math.round(q.v) * cam.width + Math.round(q.u));
    expect(plain.image.data[k]).toBeGreaterThan(150);
    expect(frame.image.data[k]! / plain.image.data[k]!).toBeCloseTo(0.6, 1);
  });

  it('JPEG changes the bytes, a little, and not the truth', async () => {
    const sensor: RenderOptions = { seed: 4, supersampling: 2 };
    const raw = await renderScene(scenario, cam, sensor);
    const q90 = await renderScene(scenario, cam, { ...sensor, jpegQuality: 90 });
    const q40 = await renderScene(scenario, cam, { ...sensor, jpegQuality: 40 });
    expect(q90.truth).toEqual(raw.truth);
    expect(q40.truth).toEqual(raw.truth);
    const mad = (a: SynthFrame) => {
      const g = toGrey(a.image);
      const r = toGrey(raw.image);
      let s = 0;
      for (let i = 0; i < g.length; i++) s += Math.abs(g[i]! - r[i]!);
      return s / g.length;
    };
    expect(mad(q90)).toBeGreaterThan(0.3);
    expect(mad(q40)).toBeGreaterThan(mad(q90));
    expect(mad(q40)).toBeLessThan(6);
    await expect(renderScene(scenario, cam, { ...sensor, jpegQuality: 0 })).rejects.toThrow(/JPEG quality/);
  });
});

function frame0Marker(frame: SynthFrame, i: number): MarkerTruth {
  return frame.truth.bases[i]!.marker;
}
