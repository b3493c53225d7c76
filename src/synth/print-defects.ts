import type { MarkerBits } from './marker-bits.ts';
import { hash2 } from './value-noise.ts';

/**
 * How a real printer spoils a marker, for training readers that must cope: ink that spreads
 * (or a light print that erodes) the black cells, specks of toner on the white and voids in the
 * black, and a print scale slightly off (a "fit to page" the player did not notice). Off by
 * default; the truth reports the printed size, so a reader is scored against what is on paper.
 */
export interface PrintDefects {
  /** Ink spread (+) or erosion (−) of the black cells' edges, mm (at most 0.45 of a cell is used). */
  readonly inkSpreadMm?: number;
  /** Specks per mm² of printed paper: toner dots on white, voids in black. */
  readonly speckPerMm2?: number;
  /** Speck radius, mm (each speck 0.5–1.5 × this; default 0.12). */
  readonly speckRadiusMm?: number;
  /** Each marker is printed at 1 + u × scaleError of its declared size, u uniform in [−1, 1] per marker. */
  readonly scaleError?: number;
  /** Seed of the per-marker draws and the specks (default 1). */
  readonly seed?: number;
}

/** One printed marker's defects, resolved from `PrintDefects` and its id. */
export interface MarkerPrint {
  /** Printed size / declared size. */
  readonly scale: number;
  readonly inkSpreadMm: number;
  readonly speckPerMm2: number;
  readonly speckRadiusMm: number;
  /** Per-marker salt of the speck pattern. */
  readonly salt: number;
}

/** The defects of marker `id`, or null when the print is perfect (the renderer's fast path). */
export function markerPrint(defects: PrintDefects | undefined, id: number): MarkerPrint | null {
  if (!defects) return null;
  const spread = defects.inkSpreadMm ?? 0;
  const density = defects.speckPerMm2 ?? 0;
  const scaleError = defects.scaleError ?? 0;
  const radius = defects.speckRadiusMm ?? 0.12;
  for (const [name, v] of [
    ['inkSpreadMm', spread],
    ['speckPerMm2', density],
    ['scaleError', scaleError],
    ['speckRadiusMm', radius],
  ] as const) {
    if (!Number.isFinite(v)) throw new Error(`print defect ${name} must be a finite number, got ${v}`);
  }
  if (density < 0 || radius <= 0 || scaleError < 0 || scaleError >= 0.5)
    throw new Error('print defects need speckPerMm2 ≥ 0, speckRadiusMm > 0 and 0 ≤ scaleError < 0.5');
  if (spread === 0 && density === 0 && scaleError === 0) return null;
  const seed = defects.seed ?? 1;
  const u = 2 * hash2(id, seed, 0x51ced) - 1;
  return {
    scale: 1 + u * scaleError,
    inkSpreadMm: spread,
    speckPerMm2: density,
    speckRadiusMm: radius,
    salt: (Math.imul(seed, 0x2c1b3c6d) ^ Math.imul(id + 1, 0x297a2d39)) | 0,
  };
}

/** Distance from (u, v) to the unit cell [c, c+1] × [r, r+1], in cells. */
function cellDistance(u: number, v: number, c: number, r: number): number {
  const dx = Math.max(c - u, 0, u - c - 1);
  const dy = Math.max(r - v, 0, v - r - 1);
  return Math.hypot(dx, dy);
}

/**
 * Whether a spoiled print has ink at marker-frame point (a, b) mm from the marker's centre
 * (a toward its right, b toward its top), anywhere on its paper of half side `paperHalfMm`.
 */
export function printedInk(
  bits: MarkerBits,
  sizeMm: number,
  paperHalfMm: number,
  print: MarkerPrint,
  a: number,
  b: number,
): boolean {
  const n = bits.cells;
  const cell = sizeMm / n;
  const half = sizeMm / 2;
  const u = (a + half) / cell;
  const v = (half - b) / cell;
  const isInkCell = (c: number, r: number) =>
    c >= 0 && r >= 0 && c < n && r < n && bits.white[r * n + c] === 0;
  const c0 = Math.floor(u);
  const r0 = Math.floor(v);
  let ink = isInkCell(c0, r0);
  const s = Math.max(-0.45, Math.min(0.45, print.inkSpreadMm / cell));
  if (s > 0 && !ink) {
    // Spread: white within s of any black cell turns black (rounding the corners, as ink does).
    for (let r = r0 - 1; r <= r0 + 1 && !ink; r++)
      for (let c = c0 - 1; c <= c0 + 1 && !ink; c++)
        if (isInkCell(c, r) && cellDistance(u, v, c, r) < s) ink = true;
  } else if (s < 0 && ink) {
    for (let r = r0 - 1; r <= r0 + 1 && ink; r++)
      for (let c = c0 - 1; c <= c0 + 1 && ink; c++)
        if (!isInkCell(c, r) && cellDistance(u, v, c, r) < -s) ink = false;
  }
  if (print.speckPerMm2 > 0) {
    // One possible speck per lattice cell of the paper, at a seeded place inside it.
    const g = 1 / Math.sqrt(print.speckPerMm2);
    const pa = a + paperHalfMm;
    const pb = b + paperHalfMm;
    const gi = Math.floor(pa / g);
    const gj = Math.floor(pb / g);
    if (hash2(gi, gj, print.salt) < 0.85) {
      const cx = (gi + 0.2 + 0.6 * hash2(gi, gj, print.salt + 1)) * g;
      const cy = (gj + 0.2 + 0.6 * hash2(gi, gj, print.salt + 2)) * g;
      const r = print.speckRadiusMm * (0.5 + hash2(gi, gj, print.salt + 3));
      if ((pa - cx) ** 2 + (pb - cy) ** 2 < r * r) ink = !ink;
    }
  }
  return ink;
}
