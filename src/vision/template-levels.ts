import { MIN_OUTER_WEIGHT } from './tag-footprint.ts';
import type { Moments } from './template-moments.ts';

/**
 * The template decoder's level fits (template-decoder.ts): how well one code view, or a blank
 * pattern, explains the pixels at the best black, white and surround levels, from the moments.
 */

export interface LevelFit {
  readonly sse: number;
  /** Fitted white − black. */
  readonly contrast: number;
}

/** Sums over the pixels of a view's whiteness w (paper to one cell past the border): Σw, Σw·I, Σw², Σw·o. */
export interface WhitenessSums {
  readonly sw: number;
  readonly swi: number;
  readonly sww: number;
  readonly swo: number;
}

/** The whiteness sums of the white bits white[from … to), from the moments (one pass over the bits). */
export function whitenessSums(
  m: Moments,
  white: Uint16Array,
  from: number,
  to: number,
  nBits: number,
): WhitenessSums {
  let sw = m.sumC;
  let swi = m.sumCI;
  let sww = m.sumCC;
  let swo = m.sumOC;
  const { u, v, q, r, g } = m;
  for (let i = from; i < to; i++) {
    const k = white[i]!;
    sw += u[k]!;
    swi += v[k]!;
    sww += 2 * q[k]!;
    swo += r[k]!;
    const row = k * nBits;
    for (let j = from; j < to; j++) sww += g[row + white[j]!]!;
  }
  return { sw, swi, sww, swo };
}

/** The best a + b·x fit of the pixels on one regressor with sums Σx, Σx·I, Σx². */
function twoLevels(m: Moments, sx: number, sxi: number, sxx: number): LevelFit {
  const n = m.n;
  const varX = sxx - (sx * sx) / n;
  const sst = m.sumII - (m.sumI * m.sumI) / n;
  if (varX <= 1e-9) return { sse: sst, contrast: 0 };
  const cov = sxi - (sx * m.sumI) / n;
  const b = cov / varX;
  // A pattern that only fits with white darker than black is no fit at all.
  if (b <= 0) return { sse: sst, contrast: b };
  return { sse: Math.max(0, sst - (cov * cov) / varX), contrast: b };
}

/**
 * The best fit with paper everywhere past the border (what lies past it is white): whiteness
 * w + o, whose sums follow from w's and the moments.
 */
export function paperLevels(m: Moments, s: WhitenessSums): LevelFit {
  return twoLevels(m, s.sw + m.sumO, s.swi + m.sumOI, s.sww + 2 * s.swo + m.sumOO);
}

/**
 * Residual sum of squares of the best a + b·whiteness + c·outer fit for the white bits
 * white[from … to): black a, white a + b, and what lies past the one-cell quiet zone at its own
 * level a + c (a painted base top a cell or two from the tag, which a blur of a cell reaches).
 */
export function residual(m: Moments, white: Uint16Array, from: number, to: number, nBits: number): LevelFit {
  const s = whitenessSums(m, white, from, to, nBits);
  const n = m.n;
  const varW = s.sww - (s.sw * s.sw) / n;
  const sst = m.sumII - (m.sumI * m.sumI) / n;
  if (varW <= 1e-9) return { sse: sst, contrast: 0 };
  const cov = s.swi - (s.sw * m.sumI) / n;
  const varO = m.sumOO - (m.sumO * m.sumO) / n;
  const covWO = s.swo - (s.sw * m.sumO) / n;
  const covO = m.sumOI - (m.sumO * m.sumI) / n;
  const det = varW * varO - covWO * covWO;
  // Little past the quiet zone reaches these pixels (or only as the whiteness does): paper everywhere.
  if (m.sumO < MIN_OUTER_WEIGHT || det <= 1e-9 * varW * varO) return paperLevels(m, s);
  const b = (varO * cov - covWO * covO) / det;
  if (b <= 0) return { sse: sst, contrast: b };
  const c = (varW * covO - covWO * cov) / det;
  return { sse: Math.max(0, sst - b * cov - c * covO), contrast: b };
}
