import type { Pixel } from '../camera/projection.ts';
import { cellWeight, MAX_HALF_CELLS, pixelsAround, type Grey } from './tag-footprint.ts';
import type { TemplateDecoderOptions } from './template-decoder.ts';
import { WorkArray } from './work-array.ts';

/**
 * The template decoder's one pass over the pixels (template-decoder.ts): the sums from which the
 * residual of any code follows without looking at the pixels again.
 */

/** Data cells one pixel's kernel may touch (a wide blur on tiny cells touches many). */
const MAX_ENTRIES = 64;

/**
 * Per-candidate sufficient statistics: everything the residual of any code needs, summed once
 * over the pixels, so that trying a code costs a few hundred additions instead of a pass over
 * the pixels.
 */
export interface Moments {
  n: number;
  sumI: number;
  sumII: number;
  /** Known part of the whiteness (the one-cell quiet zone is white, border black): Σc, Σc², Σc·I. */
  sumC: number;
  sumCC: number;
  sumCI: number;
  /** Weight on what lies past the quiet zone (its level is fitted): Σo, Σo², Σo·I, Σo·c. */
  sumO: number;
  sumOO: number;
  sumOI: number;
  sumOC: number;
  /** Per data bit: Σa, Σa·I, Σa·c, Σa·o. */
  u: Float64Array;
  v: Float64Array;
  q: Float64Array;
  r: Float64Array;
  /** Σ a_k a_l, dense (bits × bits). */
  g: Float64Array;
}

/**
 * gatherMoments' arrays, reused: the moments live only until the reading that gathered them is
 * done (readQuad, viewMisfit), and no reading starts inside another.
 */
const momentWork = {
  u: new WorkArray(Float64Array),
  v: new WorkArray(Float64Array),
  q: new WorkArray(Float64Array),
  r: new WorkArray(Float64Array),
  g: new WorkArray(Float64Array),
  bitIdx: new WorkArray(Int32Array),
  bitW: new WorkArray(Float64Array),
};

/**
 * Gathers the moments of the pixels around a quad (the blurred-box model of tag-footprint.ts,
 * inlined here: this loop is most of a reading's cost).
 */
export function gatherMoments(
  grey: Grey,
  corners: readonly Pixel[],
  cells: number,
  options: TemplateDecoderOptions,
): Moments | null {
  const pixels = pixelsAround(grey, corners, cells, options.marginCells);
  if (!pixels || pixels.count < 16) return null;
  const { toGrid } = pixels;
  const bitsPerSide = cells - 2;
  const nBits = bitsPerSide * bitsPerSide;
  const m: Moments = {
    n: 0,
    sumI: 0,
    sumII: 0,
    sumC: 0,
    sumCC: 0,
    sumCI: 0,
    sumO: 0,
    sumOO: 0,
    sumOI: 0,
    sumOC: 0,
    u: momentWork.u.take(nBits),
    v: momentWork.v.take(nBits),
    q: momentWork.q.take(nBits),
    r: momentWork.r.take(nBits),
    g: momentWork.g.take(nBits * nBits),
  };
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = toGrid;
  const sigma = Math.sqrt(options.blurSigmaPx * options.blurSigmaPx + 1 / 12);
  const bitIdx = momentWork.bitIdx.take(MAX_ENTRIES);
  const bitW = momentWork.bitW.take(MAX_ENTRIES);
  for (let i = 0; i < pixels.count; i++) {
    const pu = pixels.u[i]!;
    const pv = pixels.v[i]!;
    const w = h6 * pu + h7 * pv + h8;
    const gx = (h0 * pu + h1 * pv + h2) / w;
    const gy = (h3 * pu + h4 * pv + h5) / w;
    // The pixel's blurred footprint as a tent in grid units (local magnification of the homography).
    const det = Math.abs(((h0 - gx * h6) * (h4 - gy * h7) - (h1 - gx * h7) * (h3 - gy * h6)) / (w * w));
    const half = Math.sqrt(6 * det) * sigma;
    if (!(half > 0 && half < MAX_HALF_CELLS)) continue;
    let known = 0;
    let outer = 0;
    let nEntries = 0;
    for (let cy = Math.floor(gy - half); cy <= Math.floor(gy + half); cy++) {
      const oy = cellWeight(gy, half, cy);
      if (oy <= 0) continue;
      const rowOutside = cy < 0 || cy >= cells;
      const rowPastQuiet = cy < -1 || cy > cells;
      const rowBorder = cy === 0 || cy === cells - 1;
      for (let cx = Math.floor(gx - half); cx <= Math.floor(gx + half); cx++) {
        const ox = cellWeight(gx, half, cx);
        if (ox <= 0) continue;
        const weight = ox * oy;
        if (rowPastQuiet || cx < -1 || cx > cells)
          outer += weight; // past the quiet zone: a level of its own
        else if (rowOutside || cx < 0 || cx >= cells)
          known += weight; // quiet zone: white
        else if (!rowBorder && cx !== 0 && cx !== cells - 1 && nEntries < MAX_ENTRIES) {
          bitIdx[nEntries] = (cy - 1) * bitsPerSide + (cx - 1);
          bitW[nEntries] = weight;
          nEntries++;
        } // else: black border, no whiteness
      }
    }
    const value = pixels.values[i]!;
    m.n++;
    m.sumI += value;
    m.sumII += value * value;
    m.sumC += known;
    m.sumCC += known * known;
    m.sumCI += known * value;
    m.sumO += outer;
    m.sumOO += outer * outer;
    m.sumOI += outer * value;
    m.sumOC += outer * known;
    for (let e = 0; e < nEntries; e++) {
      const k = bitIdx[e]!;
      const wk = bitW[e]!;
      m.u[k]! += wk;
      m.v[k]! += wk * value;
      m.q[k]! += wk * known;
      m.r[k]! += wk * outer;
      const row = k * nBits;
      for (let f = 0; f < nEntries; f++) m.g[row + bitIdx[f]!]! += wk * bitW[f]!;
    }
  }
  return m.n >= 16 ? m : null;
}
