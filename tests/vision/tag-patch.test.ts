import { describe, expect, it } from 'vitest';
import type { Pixel } from '../../src/camera/projection.ts';
import type { Quad } from '../../src/vision/candidates.ts';
import { applyHomography, homographyFrom, invert3 } from '../../src/vision/homography.ts';
import { DEFAULT_TAG_PATCH, normalisePatch, rawTagPatch, tagPatch } from '../../src/vision/tag-patch.ts';
import type { Grey } from '../../src/vision/tag-footprint.ts';

/**
 * The patch sampler against pictures whose every pixel is known: a checkerboard of marker cells
 * painted through a chosen homography (each pixel's value is the cell its centre falls in, 4 × 4
 * supersampled), independent of the sampler's own mapping.
 */

const CELLS = 8;

/** Cell (column, row) → grey level: a pattern with no symmetry, so turns and flips show. */
const cellLevel = (c: number, r: number): number =>
  c < 0 || r < 0 || c >= CELLS || r >= CELLS
    ? 230
    : (c * 7 + r * 13) % 5 === 0
      ? 220
      : 20 + 12 * ((c + 2 * r) % 4);

function paint(width: number, height: number, corners: Quad): Grey {
  const toImage = homographyFrom(
    [
      { x: 0, y: 0 },
      { x: CELLS, y: 0 },
      { x: CELLS, y: CELLS },
      { x: 0, y: CELLS },
    ],
    corners,
  )!;
  const toGrid = invert3(toImage)!;
  const data = new Uint8Array(width * height);
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      let sum = 0;
      for (let j = 0; j < 4; j++)
        for (let i = 0; i < 4; i++) {
          const g = applyHomography(toGrid, u - 0.5 + (i + 0.5) / 4, v - 0.5 + (j + 0.5) / 4);
          sum += cellLevel(Math.floor(g.u), Math.floor(g.v));
        }
      data[v * width + u] = Math.round(sum / 16);
    }
  }
  return { data, width, height };
}

/** The patch pixel at the centre of cell (c, r), c and r from −1 (quiet zone) to 8. */
const atCell = (patch: Float32Array, c: number, r: number): number =>
  patch[(3 * (r + 1) + 1) * DEFAULT_TAG_PATCH.size + 3 * (c + 1) + 1]!;

describe('tag patch', () => {
  // A large, tilted, perspective tag: about 7 px per cell.
  const big: Quad = [
    { u: 30.2, v: 22.7 },
    { u: 88.9, v: 30.1 },
    { u: 84.4, v: 86.6 },
    { u: 24.8, v: 80.3 },
  ];
  const bigGrey = paint(112, 110, big);

  it('puts every cell, border and quiet zone where the quad says, 3 × 3 pixels per cell', () => {
    const patch = rawTagPatch(bigGrey, big, CELLS)!;
    expect(patch.length).toBe(30 * 30);
    for (let r = -1; r <= CELLS; r++)
      for (let c = -1; c <= CELLS; c++)
        expect(atCell(patch, c, r), `cell ${c},${r}`).toBeCloseTo(cellLevel(c, r), -1);
  });

  it('follows the quad’s corner order: starting at corner 1 turns the patch a quarter', () => {
    const a = rawTagPatch(bigGrey, big, CELLS)!;
    const turned = [big[1], big[2], big[3], big[0]] as const;
    const b = rawTagPatch(bigGrey, turned, CELLS)!;
    const n = DEFAULT_TAG_PATCH.size;
    // Patch b's (row, col) is patch a's (col, n − 1 − row): corner 1 of the quad is b's top-left.
    let worst = 0;
    for (let row = 0; row < n; row++)
      for (let col = 0; col < n; col++)
        worst = Math.max(worst, Math.abs(b[row * n + col]! - a[col * n + (n - 1 - row)]!));
    expect(worst).toBeLessThan(1e-3);
  });

  it('averages over a patch pixel’s footprint on a large tag instead of aliasing', () => {
    // Fine stripes (period 2 px) over a 60 px tag: a patch pixel covers two stripes.
    const width = 90;
    const data = new Uint8Array(width * width);
    for (let v = 0; v < width; v++) for (let u = 0; u < width; u++) data[v * width + u] = u % 2 ? 200 : 40;
    const quad: Quad = [
      { u: 15, v: 15 },
      { u: 75, v: 15 },
      { u: 75, v: 75 },
      { u: 15, v: 75 },
    ];
    const patch = rawTagPatch({ data, width, height: width }, quad, CELLS)!;
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of patch) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    // Point sampling would give 40 and 200; averaging each footprint stays near the mean 120.
    expect(hi - lo).toBeLessThan(40);
  });

  it('reads a small tag (1.2 px per cell) by interpolation and keeps its cell pattern', () => {
    const small: Quad = [
      { u: 10.3, v: 9.8 },
      { u: 19.9, v: 10.4 },
      { u: 19.4, v: 20.0 },
      { u: 9.8, v: 19.5 },
    ];
    const grey = paint(30, 30, small);
    const patch = rawTagPatch(grey, small, CELLS)!;
    const big8 = rawTagPatch(bigGrey, big, CELLS)!;
    // Blurred by the small pixels, but still correlated with the sharp pattern cell by cell.
    const xs: number[] = [];
    const ys: number[] = [];
    for (let r = 0; r < CELLS; r++)
      for (let c = 0; c < CELLS; c++) {
        xs.push(atCell(patch, c, r));
        ys.push(atCell(big8, c, r));
      }
    const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
    const mx = mean(xs);
    const my = mean(ys);
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    xs.forEach((x, i) => {
      sxy += (x - mx) * (ys[i]! - my);
      sxx += (x - mx) ** 2;
      syy += (ys[i]! - my) ** 2;
    });
    expect(sxy / Math.sqrt(sxx * syy)).toBeGreaterThan(0.6);
  });

  it('normalises to zero mean and unit spread, and leaves a flat patch flat', () => {
    const p = tagPatch(bigGrey, big, CELLS)!;
    const mean = p.reduce((s, v) => s + v, 0) / p.length;
    const sd = Math.sqrt(p.reduce((s, v) => s + (v - mean) ** 2, 0) / p.length);
    expect(mean).toBeCloseTo(0, 5);
    expect(sd).toBeCloseTo(1, 4);
    const flat = normalisePatch(Float32Array.from({ length: 900 }, (_, i) => 100 + (i % 3)));
    expect(Math.max(...flat.map(Math.abs))).toBeLessThan(0.2);
  });

  it('gives no patch for degenerate quads or quads mostly outside the picture, and refuses bad input', () => {
    const line: Pixel[] = [
      { u: 10, v: 10 },
      { u: 20, v: 10 },
      { u: 30, v: 10 },
      { u: 40, v: 10 },
    ];
    expect(rawTagPatch(bigGrey, line, CELLS)).toBeNull();
    const outside: Quad = big.map((p) => ({ u: p.u + 80, v: p.v })) as unknown as Quad;
    expect(rawTagPatch(bigGrey, outside, CELLS)).toBeNull();
    const nan: Quad = [{ u: Number.NaN, v: 0 }, big[1], big[2], big[3]];
    expect(rawTagPatch(bigGrey, nan, CELLS)).toBeNull();
    expect(() => rawTagPatch(bigGrey, big.slice(0, 3), CELLS)).toThrow(/four corners/);
    expect(() => rawTagPatch(bigGrey, big, 2.5)).toThrow(/cells/);
    expect(() => rawTagPatch(bigGrey, big, CELLS, { ...DEFAULT_TAG_PATCH, size: 3 })).toThrow(/patch size/);
  });
});
