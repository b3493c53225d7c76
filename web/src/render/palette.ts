import type { OverlayKind, Tone } from '../core/table-overlays.ts';

/**
 * The overlays' colours in one place, with the contrast rule they are held to: every outline is
 * a bright stroke over a dark halo, so that on a dark cloth the stroke and on a light cloth the
 * halo stands out at 3:1 or better (WCAG's figure for graphics), and the stroke against its own
 * halo too. Answers never rest on colour alone: borderline is dashed, a blocked sight line is
 * dashed, a clear one solid.
 */

export const TONE_COLOUR: Readonly<Record<Tone, string>> = {
  yes: '#8ce99a',
  no: '#ffa8a8',
  borderline: '#ffc078',
  neutral: '#a5d8ff',
};

/** Under every stroke: a dark line a few pixels wider. */
export const HALO = '#0b0d10';
export const HALO_ALPHA = 0.85;

export const TERRAIN_STROKE: Readonly<Record<string, string>> = {
  wood: '#b2f2bb',
  road: '#ffe8cc',
};
export const TERRAIN_STROKE_DEFAULT = '#f1f3f5';
export const QUARTER_STROKE = '#a5d8ff';
export const ZONE_STROKE = '#ffffff';
export const MEASURE_COLOUR = '#ffd43b';

/** Dash patterns (CSS px): what tells answers apart without colour. */
export const DASH: Readonly<Record<string, readonly number[]>> = {
  borderline: [10, 6],
  blockedSight: [7, 5],
  /** A threat line answered no: dotted, apart from blocked sight's dashes and borderline's long dashes. */
  threatNo: [2, 6],
  terrainArea: [6, 4],
  quarter: [4, 4],
  zone: [3, 5],
  solid: [],
};

/** Every stroke colour an overlay kind may be drawn with (for the contrast test and the legend). */
export function strokeColours(): Array<{ what: string; colour: string }> {
  const out: Array<{ what: string; colour: string }> = [];
  for (const [tone, colour] of Object.entries(TONE_COLOUR)) out.push({ what: `answer ${tone}`, colour });
  for (const [kind, colour] of Object.entries(TERRAIN_STROKE)) out.push({ what: `terrain ${kind}`, colour });
  out.push({ what: 'terrain', colour: TERRAIN_STROKE_DEFAULT });
  out.push({ what: 'front quarter', colour: QUARTER_STROKE });
  out.push({ what: 'zone', colour: ZONE_STROKE });
  out.push({ what: 'measurement', colour: MEASURE_COLOUR });
  return out;
}

export type { OverlayKind };

/** WCAG relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const lin = (c: string) => {
    const v = parseInt(c, 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(m[1]!) + 0.7152 * lin(m[2]!) + 0.0722 * lin(m[3]!);
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** A halo colour blended over the cloth at HALO_ALPHA. */
export function haloOver(cloth: string): string {
  const c = (hex: string, i: number) => parseInt(hex.replace('#', '').slice(2 * i, 2 * i + 2), 16);
  const mix = [0, 1, 2].map((i) => Math.round(c(HALO, i) * HALO_ALPHA + c(cloth, i) * (1 - HALO_ALPHA)));
  return `#${mix.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** How well a stroke with its halo stands out on a cloth: the better of the two, and the stroke on its halo. */
export function outlineContrast(stroke: string, cloth: string): { onCloth: number; onHalo: number } {
  const halo = haloOver(cloth);
  return {
    onCloth: Math.max(contrast(stroke, cloth), contrast(halo, cloth)),
    onHalo: contrast(stroke, halo),
  };
}

/** The tactical view's cloth (the table from above). */
export const TACTICAL_CLOTH = '#3d5a3a';
