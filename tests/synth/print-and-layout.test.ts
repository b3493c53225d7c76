import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/accuracy-scenes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import {
  DEFAULT_CLUTTER_COUNTS,
  handShadows,
  handsOverMarkers,
  randomClutter,
  randomShadows,
} from '../../src/synth/clutter-layout.ts';
import { CHAR_ADVANCE, glyph, textInk, textSize } from '../../src/synth/font.ts';
import { markerBits } from '../../src/synth/marker-bits.ts';
import { markerPrint, printedInk } from '../../src/synth/print-defects.ts';
import { renderScene } from '../../src/synth/render.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';

const demo = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'), 'demo');

describe('default renders are unchanged by the new options', () => {
  // Hashes of these renders: the defaults must keep every byte when options are added. Taken before
  // clutter, glare, shadows, JPEG and print defects existed (commit 08551b1), and again when ink
  // came to be integrated over each sample's footprint (ink-coverage.ts), which changes every
  // marker's pixels on purpose.
  it('demo at 480 × 270, default and with every sensor option set', async () => {
    const cam = frameTable(demo.table, { resolution: { width: 480, height: 270 } });
    const sha = async (o: Parameters<typeof renderScene>[2]) =>
      createHash('sha256')
        .update((await renderScene(demo, cam, o)).image.data)
        .digest('hex');
    expect(await sha({ seed: 3 })).toBe('303235476741c52398afc1bd380ed49564cdc1d46d602732ab06c1d1ebbcb233');
    expect(await sha({ seed: 3, lighting: 0.7, noiseSigma: 4, blurSigma: 1.2, supersampling: 3 })).toBe(
      'c2f898ee5535e22e407ebe0744840d1d54a2b21c83a20767bac69e453679251c',
    );
    // Empty extras are no extras.
    expect(await sha({ seed: 3, clutter: [], glare: [], shadows: [], printDefects: {} })).toBe(
      '303235476741c52398afc1bd380ed49564cdc1d46d602732ab06c1d1ebbcb233',
    );
  });
});

describe('print defects', () => {
  it('ink spread grows the black, erosion shrinks it, specks flip a few spots; off is a perfect print', async () => {
    const bits = await markerBits('aruco_mip_36h12', 17);
    const size = 20;
    const paper = 12.5;
    const inkShare = (defects: Parameters<typeof markerPrint>[0]) => {
      const print = markerPrint(defects, 17)!;
      let ink = 0;
      let n = 0;
      for (let a = -paper; a < paper; a += 0.05)
        for (let b = -paper; b < paper; b += 0.05) {
          n++;
          if (printedInk(bits, size * print.scale, paper, print, a, b)) ink++;
        }
      return ink / n;
    };
    expect(markerPrint(undefined, 17)).toBeNull();
    expect(markerPrint({ inkSpreadMm: 0, speckPerMm2: 0, scaleError: 0 }, 17)).toBeNull();
    // The perfect print, read through the defects path with nothing to do: the code's own black share.
    const cells = bits.cells;
    let black = 0;
    for (const w of bits.white) if (w === 0) black++;
    const exact = ((black / (cells * cells)) * size * size) / (4 * paper * paper);
    const none = inkShare({ scaleError: 1e-9 });
    expect(none).toBeCloseTo(exact, 2);
    expect(inkShare({ inkSpreadMm: 0.3 })).toBeGreaterThan(none + 0.02);
    expect(inkShare({ inkSpreadMm: -0.3 })).toBeLessThan(none - 0.02);
    const speckled = inkShare({ speckPerMm2: 2, speckRadiusMm: 0.15 });
    expect(Math.abs(speckled - none)).toBeGreaterThan(0.001);
    expect(Math.abs(speckled - none)).toBeLessThan(0.1);
    expect(() => markerPrint({ scaleError: 0.7 }, 1)).toThrow(/scaleError/);
  });

  it('a wrong print scale shows in the truth’s corners and printScale; each marker draws its own', async () => {
    const scenario = benchScenario({
      dictionary: 'aruco_mip_36h12',
      markerMm: 20,
      columns: 3,
      rows: 2,
      seed: 2,
    });
    const cam = frameTable(scenario.table, { resolution: { width: 320, height: 180 } });
    const frame = await renderScene(scenario, cam, {
      supersampling: 1,
      printDefects: { scaleError: 0.03, seed: 4 },
    });
    const scales = frame.truth.bases.map((b) => b.marker.printScale);
    expect(new Set(scales).size).toBe(scales.length);
    for (const b of frame.truth.bases) {
      const [tl, tr] = b.marker.cornersMm;
      expect(Math.hypot(tr.x - tl.x, tr.y - tl.y)).toBeCloseTo(20 * b.marker.printScale, 9);
      expect(Math.abs(b.marker.printScale - 1)).toBeLessThanOrEqual(0.03);
    }
  });
});

describe('clutter layouts', () => {
  const table = { widthMm: 1828.8, depthMm: 1219.2 };

  it('are seeded, hold the counts asked for and keep lying clutter off the places to keep clear', () => {
    const avoid = [
      { x: 400, y: 400, radiusMm: 150 },
      { x: 1300, y: 800, radiusMm: 200 },
    ];
    const a = randomClutter({ table, seed: 12, avoid });
    expect(randomClutter({ table, seed: 12, avoid })).toEqual(a);
    expect(randomClutter({ table, seed: 13, avoid })).not.toEqual(a);
    for (const kind of ['base', 'die', 'ruler', 'card', 'hand'] as const)
      expect(a.filter((c) => c.kind === kind)).toHaveLength(DEFAULT_CLUTTER_COUNTS[kind]);
    for (const item of a) {
      if (item.kind === 'hand') continue;
      expect(item.x).toBeGreaterThan(0);
      expect(item.x).toBeLessThan(table.widthMm);
      for (const c of avoid) expect(Math.hypot(item.x - c.x, item.y - c.y)).toBeGreaterThan(c.radiusMm);
    }
    const many = randomClutter({ table, seed: 1, counts: { base: 20, die: 0, ruler: 0, card: 0, hand: 0 } });
    expect(many.every((c) => c.kind === 'base')).toBe(true);
    expect(many.some((c) => c.kind === 'base' && c.rim)).toBe(true);
    expect(many.some((c) => c.kind === 'base' && !c.rim)).toBe(true);
  });

  it('hands reach over their targets from the nearer long edge; each hand casts a soft shadow', () => {
    const targets = [
      { x: 300, y: 200, sizeMm: 20, zMm: 3 },
      { x: 900, y: 1100, sizeMm: 20, zMm: 3 },
    ];
    const hands = handsOverMarkers(targets, table, 3);
    expect(hands).toHaveLength(2);
    const [near, far] = hands;
    // Fingers point into the table: +y from the near edge (heading ≈ 0), −y from the far one.
    expect(Math.cos((near!.headingDeg * Math.PI) / 180)).toBeGreaterThan(0.7);
    expect(Math.cos((far!.headingDeg * Math.PI) / 180)).toBeLessThan(-0.7);
    for (const [i, h] of hands.entries()) {
      // Palm ≈ 12 cm behind the fingertips, which end within a marker's size of the target.
      const d = Math.hypot(h.x - targets[i]!.x, h.y - targets[i]!.y);
      expect(d).toBeGreaterThan(80);
      expect(d).toBeLessThan(170);
      expect(h.heightMm).toBeGreaterThan(targets[i]!.zMm + 12 + h.curlMm - 1e-9);
    }
    const shadows = handShadows(hands);
    expect(shadows).toHaveLength(4);
    expect(randomShadows(table, 5, 3)).toHaveLength(3);
  });
});

describe('the bitmap font', () => {
  it('has distinct glyphs, prints upper case for lower, and lays text out in 6 × 9 font-pixel cells', () => {
    const chars = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.,:-+/\'"()%=?'];
    const keys = chars.map((c) => Array.from(glyph(c)).join(''));
    expect(new Set(keys).size).toBe(chars.length);
    expect(glyph('a')).toEqual(glyph('A'));
    expect(glyph('~')).toEqual(glyph('?'));
    expect(textSize(['AB', 'C'])).toEqual({ width: 11, height: 16 });
    // "I": a vertical stem in column 2; column 5 is the gap before the next letter.
    for (let row = 0; row < 7; row++) expect(textInk(['II'], 2.5, row + 0.5)).toBe(true);
    expect(textInk(['II'], 5.5, 3.5)).toBe(false);
    expect(textInk(['II'], CHAR_ADVANCE + 2.5, 3.5)).toBe(true);
    expect(textInk(['II'], 2.5, 7.5)).toBe(false);
    expect(textInk(['I', 'I'], 2.5, 9.5)).toBe(true);
  });
});
