import { describe, expect, it } from 'vitest';
import type { ClutterItem } from '../../src/synth/clutter.ts';
import { compileProps, type Prop } from '../../src/synth/props.ts';

/**
 * The clutter's shapes and printing, probed with vertical rays from 1 m above the table (no
 * camera, no picture): what a ray hits and which colour it finds there.
 */

const out = new Float64Array(3);

/** Colour seen straight down at (x, y), or null when the ray misses every prop. */
function look(props: readonly Prop[], x: number, y: number): { rgb: number[]; z: number } | null {
  let best = Infinity;
  let hit: Prop | null = null;
  for (const p of props) {
    const t = p.intersect(x, y, 1000, 0, 0, -1);
    if (t < best) {
      best = t;
      hit = p;
    }
  }
  if (!hit) return null;
  // Re-intersect the winner so its remembered face is this ray's.
  hit.intersect(x, y, 1000, 0, 0, -1);
  hit.surface(x, y, 1000 - best, out);
  return { rgb: [...out], z: 1000 - best };
}
const dark = (c: { rgb: number[] } | null) => c !== null && c.rgb[0]! + c.rgb[1]! + c.rgb[2]! < 150;

describe('clutter props', () => {
  it('a bare base is a box of its size and height; a rim base has a dark rim round a flocked top', () => {
    const [plain] = compileProps([
      {
        kind: 'base',
        x: 100,
        y: 100,
        headingDeg: 0,
        widthMm: 40,
        depthMm: 60,
        heightMm: 4,
        colour: '#222222',
      },
    ]);
    expect(look([plain!], 100, 100)?.z).toBeCloseTo(4, 9);
    expect(look([plain!], 119.9, 129.9)).not.toBeNull();
    expect(look([plain!], 120.1, 100)).toBeNull();
    expect(look([plain!], 100, 130.1)).toBeNull();
    const [rim] = compileProps([
      {
        kind: 'base',
        x: 0,
        y: 0,
        headingDeg: 90,
        widthMm: 40,
        depthMm: 60,
        heightMm: 3,
        colour: '#111111',
        rim: { widthMm: 3, topColour: '#5a7a35' },
      },
    ]);
    // Turned 90°: its 60 mm depth now lies along table x.
    expect(look([rim!], 29, 0)).not.toBeNull();
    expect(look([rim!], 0, 21)).toBeNull();
    expect(dark(look([rim!], 28.5, 0))).toBe(true);
    expect(dark(look([rim!], 0, 0))).toBe(false);
    expect(look([rim!], 0, 0)!.rgb[1]).toBeGreaterThan(look([rim!], 0, 0)!.rgb[0]!);
  });

  it('a die shows its top face’s pips: a centre pip for odd numbers only, corner pips from 2 up', () => {
    const die = (top: 1 | 2 | 3 | 4 | 5 | 6) =>
      compileProps([
        { kind: 'die', x: 0, y: 0, headingDeg: 0, sizeMm: 16, colour: '#f4f4f0', pipColour: '#151515', top },
      ])[0]!;
    for (const top of [1, 2, 3, 4, 5, 6] as const) {
      const d = die(top);
      expect(look([d], 0, 0)!.z).toBeCloseTo(16, 9);
      expect(dark(look([d], 0, 0)), `centre of ${top}`).toBe(top % 2 === 1);
      // Corner pips at ±0.5 of the half side (4 mm from the centre on a 16 mm die).
      expect(dark(look([d], 4, 4)), `corner of ${top}`).toBe(top >= 2);
      expect(dark(look([d], -4, 0)), `middle row of ${top}`).toBe(top === 6);
    }
  });

  it('a ruler has ink ticks at every eighth inch along its front edge and plain plastic between', () => {
    const [ruler] = compileProps([
      {
        kind: 'ruler',
        x: 0,
        y: 0,
        headingDeg: 0,
        lengthMm: 304.8,
        widthMm: 30,
        heightMm: 2,
        colour: '#f1d54a',
        inkColour: '#161616',
        units: 'in',
      },
    ]);
    const x0 = -152.4 + 4; // ticks start 4 mm from the end
    const nearEdge = 15 - 1.5;
    let ticks = 0;
    for (let i = 0; i <= 8 * 11; i++) {
      expect(dark(look([ruler!], x0 + (i * 25.4) / 8, nearEdge)), `tick ${i}`).toBe(true);
      ticks++;
      expect(dark(look([ruler!], x0 + ((i + 0.5) * 25.4) / 8, nearEdge)), `gap ${i}`).toBe(false);
    }
    expect(ticks).toBe(89);
    // The back edge carries no print.
    for (let x = -140; x < 140; x += 3.7) expect(dark(look([ruler!], x, -13))).toBe(false);
  });

  it('a card prints its text, its frame and its table; paper elsewhere', () => {
    const item: ClutterItem = {
      kind: 'card',
      x: 0,
      y: 0,
      headingDeg: 0,
      widthMm: 105,
      depthMm: 148,
      colour: '#f5f3ec',
      inkColour: '#141414',
      lines: ['I'],
      textMm: 7,
      border: true,
      grid: { rows: 2, columns: 2 },
    };
    const [card] = compileProps([item]);
    const margin = 4;
    // Frame at half the margin from the edge.
    expect(dark(look([card!], 0, 74 - 2))).toBe(true);
    expect(dark(look([card!], -52.5 + 2, 0))).toBe(true);
    // "I": its stem is font column 2 of 5 (1 mm font pixels), rows 0–6 below the margin.
    expect(dark(look([card!], -52.5 + margin + 2.5, 74 - margin - 3.5))).toBe(true);
    expect(dark(look([card!], -52.5 + margin + 0.5, 74 - margin - 3.5))).toBe(false);
    // The table: its middle rule is halfway between the text's bottom and the bottom margin.
    const top = 74 - margin - 9;
    const bottom = -74 + margin;
    expect(dark(look([card!], 10, (top + bottom) / 2))).toBe(true);
    expect(dark(look([card!], 10, (top + bottom) / 2 + 5))).toBe(false);
    expect(dark(look([card!], 0, (top + bottom) / 2 + 5))).toBe(true); // the middle column rule
  });

  it('a hand hovers at its height: palm, fingers ahead along its heading, arm rising behind', () => {
    const parts = compileProps([
      {
        kind: 'hand',
        x: 0,
        y: 0,
        headingDeg: 0,
        heightMm: 60,
        curlMm: 10,
        scale: 1,
        armRiseDeg: 20,
        skin: '#d7a27c',
        sleeve: '#2a3b5c',
      },
    ]);
    expect(parts.length).toBeGreaterThan(6);
    expect(new Set(parts.map((p) => p.index))).toEqual(new Set([0]));
    const palm = look(parts, 0, 0)!;
    expect(palm.z).toBeCloseTo(60 + 14, 6); // the ellipsoid's top
    // Middle finger along +y (heading 0), lower than the palm as it curls.
    const finger = look(parts, -9, 110)!;
    expect(finger.z).toBeLessThan(60 + 8.5);
    expect(finger.z).toBeGreaterThan(40);
    expect(look(parts, 0, 140)).toBeNull();
    // The arm behind (−y) climbs toward the player, in its sleeve colour.
    const arm = look(parts, 0, -300)!;
    expect(arm.z).toBeGreaterThan(palm.z);
    expect(arm.rgb[2]).toBeGreaterThan(arm.rgb[0]!);
    expect(parts.every((p) => !p.inCastShadows && !p.fineDetail)).toBe(true);
  });

  it('rejects what cannot be drawn, naming the item', () => {
    const base = { kind: 'base', x: 0, y: 0, headingDeg: 0, widthMm: 40, depthMm: 40, heightMm: 3 } as const;
    expect(() => compileProps([{ ...base, colour: 'green' }])).toThrow(/clutter item 0 \(base\).*#rrggbb/);
    expect(() => compileProps([{ ...base, colour: '#000', widthMm: -1 }])).toThrow(/widthMm must be > 0/);
    expect(() =>
      compileProps([
        { ...base, colour: '#000' },
        {
          kind: 'die',
          x: Number.NaN,
          y: 0,
          headingDeg: 0,
          sizeMm: 10,
          colour: '#fff',
          pipColour: '#000',
          top: 3,
        },
      ]),
    ).toThrow(/clutter item 1 \(die\): x must be a finite number/);
  });
});
