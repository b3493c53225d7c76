import type { PackedViews } from './code-book.ts';
import type { Moments } from './template-moments.ts';

/** The template decoder's cheap screen (template-decoder.ts): which views are worth an exact fit. */

/**
 * The views most like the picture, by a cheap screen: each data bit's weighted mean grey level
 * (centred), summed over each view's white bits. Returns view indices, best first.
 */
export function screen(z: Float64Array, packed: PackedViews, keep: number): number[] {
  const { white, offsets } = packed;
  const views = offsets.length - 1;
  if (views <= keep) return Array.from({ length: views }, (_, h) => h);
  const topH = new Int32Array(keep).fill(-1);
  const topS = new Float64Array(keep).fill(-Infinity);
  for (let h = 0; h < views; h++) {
    let score = 0;
    for (let i = offsets[h]!; i < offsets[h + 1]!; i++) score += z[white[i]!]!;
    if (score <= topS[keep - 1]!) continue;
    let j = keep - 1;
    while (j > 0 && topS[j - 1]! < score) {
      topS[j] = topS[j - 1]!;
      topH[j] = topH[j - 1]!;
      j--;
    }
    topS[j] = score;
    topH[j] = h;
  }
  return Array.from(topH).filter((h) => h >= 0);
}

/** Each data bit's weighted mean grey level, centred on the mean over bits. */
export function bitMeans(m: Moments, nBits: number): Float64Array {
  const z = new Float64Array(nBits);
  let mean = 0;
  for (let k = 0; k < nBits; k++) {
    z[k] = m.u[k]! > 1e-9 ? m.v[k]! / m.u[k]! : 0;
    mean += z[k]!;
  }
  mean /= nBits;
  for (let k = 0; k < nBits; k++) z[k]! -= mean;
  return z;
}
