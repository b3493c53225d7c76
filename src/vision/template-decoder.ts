import type { Pixel } from '../camera/projection.ts';
import type { CodeBook } from './code-book.ts';
import { invert3 } from './homography.ts';
import { forEachCellWeight, gridToImage, pixelsAround, type Grey } from './tag-footprint.ts';

/**
 * Reads a candidate quad by maximum likelihood over the codes in play.
 *
 * OpenCV reads a marker by warping it to a grid and thresholding each cell. On a 15 mm tag at
 * 1080p a cell is 1.5 px: every pixel mixes two to four cells, so thresholded bits are half
 * guesses and a 587-code dictionary cannot be told apart. We know far more: which few codes are
 * in play, that the border is black and the quiet zone white, and how the camera blurs. So each
 * code (in each of its four rotations) is *rendered* into the pixels the quad covers — every
 * pixel's expected whiteness is a weighted sum of the cells its blurred footprint touches — and
 * compared with what the camera saw, allowing any black and white level (a + b·whiteness).
 * The code with the smallest squared residual wins; how much better it fits than the runner-up,
 * in units of the residual noise, is the evidence (a Gaussian log-likelihood ratio).
 *
 * Blank patterns (all data cells black, all white) compete as well, so a dark square that is
 * not a marker (a base, a die, a shadow) loses to "blank" and is not read as any code.
 */

export interface TemplateDecoderOptions {
  /** Optical blur of the camera (Gaussian σ, px), on top of each pixel's own area. */
  readonly blurSigmaPx: number;
  /** How far outside the black border pixels are compared, in cells (inside the one-cell quiet zone). */
  readonly marginCells: number;
}

export const DEFAULT_TEMPLATE_DECODER: TemplateDecoderOptions = {
  blurSigmaPx: 0.7,
  marginCells: 0.5,
};

/** One reading of a quad: the best code in play, its fit, and the evidence against every alternative. */
export interface TemplateReading {
  readonly id: number;
  /** Marker corner at the quad's corner 0 (0 TL, 1 TR, 2 BR, 3 BL). */
  readonly rotation: number;
  /** The quad's corners reordered so that corner 0 is the marker's top-left (OpenCV's order). */
  readonly corners: readonly [Pixel, Pixel, Pixel, Pixel];
  /**
   * Log-likelihood ratio (nats) of the best code in play over the best alternative in play:
   * another code, another rotation of the same code, or a blank pattern. Gaussian noise with the
   * best fit's own residual.
   */
  readonly evidence: number;
  /** The alternative in play that came closest: a code id, or -1 for a blank pattern. */
  readonly runnerUpId: number;
  /**
   * Log-likelihood ratio of the best code in play over the best code *not* in play. Negative when
   * some other code of the dictionary explains the picture better: a marker that is not part of
   * this scenario, which must not be read as one that is.
   */
  readonly plausibility: number;
  /** The best code not in play, and its own evidence over everything else (in play, blanks, the rest). */
  readonly foreign: { readonly id: number; readonly rotation: number; readonly evidence: number } | null;
  /** Share of the pixels' variance the best code explains (1 = perfect). */
  readonly fit: number;
  /** Grey levels between the fitted black and white. */
  readonly contrast: number;
  /** Residual noise of the best fit, grey levels (one sigma). */
  readonly residualSigma: number;
  /** Pixels compared. */
  readonly pixels: number;
  /** Sum of squared residuals per view in play (book.views order), kept so evidence can be added over frames. */
  readonly scores: Float64Array;
}

/**
 * Per-candidate sufficient statistics: everything the residual of any code needs, summed once
 * over the pixels, so that trying a code costs a few hundred additions instead of a pass over
 * the pixels.
 */
interface Moments {
  n: number;
  sumI: number;
  sumII: number;
  /** Known part of the whiteness (quiet zone is white, border black): Σc, Σc², Σc·I. */
  sumC: number;
  sumCC: number;
  sumCI: number;
  /** Per data bit: Σa, Σa·I, Σa·c. */
  u: Float64Array;
  v: Float64Array;
  q: Float64Array;
  /** Σ a_k a_l, dense (bits × bits). */
  g: Float64Array;
}

/** Gathers the moments of the pixels around a quad (see tag-footprint.ts for the model). */
function gatherMoments(
  grey: Grey,
  corners: readonly Pixel[],
  cells: number,
  options: TemplateDecoderOptions,
): Moments | null {
  const toImage = gridToImage(corners, cells);
  const toGrid = toImage && invert3(toImage);
  const pixels = toGrid && pixelsAround(grey, corners, cells, options.marginCells);
  if (!toGrid || !pixels || pixels.count < 16) return null;
  const bitsPerSide = cells - 2;
  const nBits = bitsPerSide * bitsPerSide;
  const m: Moments = {
    n: 0,
    sumI: 0,
    sumII: 0,
    sumC: 0,
    sumCC: 0,
    sumCI: 0,
    u: new Float64Array(nBits),
    v: new Float64Array(nBits),
    q: new Float64Array(nBits),
    g: new Float64Array(nBits * nBits),
  };
  // One pixel's cells are visited together; flush its sums when the next pixel starts.
  const bitIdx = new Int32Array(32);
  const bitW = new Float64Array(32);
  let nEntries = 0;
  let known = 0;
  let current = -1;
  const flush = () => {
    if (current < 0) return;
    const value = pixels.values[current]!;
    m.n++;
    m.sumI += value;
    m.sumII += value * value;
    m.sumC += known;
    m.sumCC += known * known;
    m.sumCI += known * value;
    for (let e = 0; e < nEntries; e++) {
      const k = bitIdx[e]!;
      const wk = bitW[e]!;
      m.u[k]! += wk;
      m.v[k]! += wk * value;
      m.q[k]! += wk * known;
      for (let f = 0; f < nEntries; f++) m.g[k * nBits + bitIdx[f]!]! += wk * bitW[f]!;
    }
  };
  forEachCellWeight(pixels, toGrid, options.blurSigmaPx, (pixel, cx, cy, weight) => {
    if (pixel !== current) {
      flush();
      current = pixel;
      nEntries = 0;
      known = 0;
    }
    if (cx < 0 || cy < 0 || cx >= cells || cy >= cells) known += weight;
    else if (cx > 0 && cy > 0 && cx < cells - 1 && cy < cells - 1 && nEntries < bitIdx.length) {
      bitIdx[nEntries] = (cy - 1) * bitsPerSide + (cx - 1);
      bitW[nEntries] = weight;
      nEntries++;
    }
  });
  flush();
  return m.n >= 16 ? m : null;
}

interface LevelFit {
  readonly sse: number;
  /** Fitted black level (a) and white − black (b). */
  readonly offset: number;
  readonly contrast: number;
}

/** Residual sum of squares of the best a + b·whiteness fit for one set of white bits. */
function residual(m: Moments, white: Uint16Array, nBits: number): LevelFit {
  let sw = m.sumC;
  let swi = m.sumCI;
  let sww = m.sumCC;
  for (let i = 0; i < white.length; i++) {
    const k = white[i]!;
    sw += m.u[k]!;
    swi += m.v[k]!;
    sww += 2 * m.q[k]!;
    const row = k * nBits;
    for (let j = 0; j < white.length; j++) sww += m.g[row + white[j]!]!;
  }
  const n = m.n;
  const varW = sww - (sw * sw) / n;
  const sst = m.sumII - (m.sumI * m.sumI) / n;
  if (varW <= 1e-9) return { sse: sst, offset: m.sumI / n, contrast: 0 };
  const cov = swi - (sw * m.sumI) / n;
  const b = cov / varW;
  // A pattern that only fits with white darker than black is no fit at all.
  if (b <= 0) return { sse: sst, offset: m.sumI / n, contrast: b };
  return { sse: Math.max(0, sst - (cov * cov) / varW), offset: (m.sumI - b * sw) / n, contrast: b };
}

/** Foreign codes given an exact fit after the soft-bit screen. */
const FOREIGN_SHORTLIST = 12;

/**
 * The foreign views most like the picture, by a cheap screen: each data bit's weighted mean
 * grey level, correlated with each view's white bits.
 */
function foreignShortlist(m: Moments, book: CodeBook): number[] {
  const nBits = book.bitsPerSide * book.bitsPerSide;
  const z = new Float64Array(nBits);
  let mean = 0;
  for (let k = 0; k < nBits; k++) {
    z[k] = m.u[k]! > 1e-9 ? m.v[k]! / m.u[k]! : 0;
    mean += z[k]!;
  }
  mean /= nBits;
  for (let k = 0; k < nBits; k++) z[k]! -= mean;
  const top: Array<{ h: number; score: number }> = [];
  for (let h = 0; h < book.foreign.length; h++) {
    const white = book.foreign[h]!.white;
    let score = 0;
    for (let i = 0; i < white.length; i++) score += z[white[i]!]!;
    if (top.length < FOREIGN_SHORTLIST || score > top[top.length - 1]!.score) {
      top.push({ h, score });
      top.sort((a, b) => b.score - a.score);
      if (top.length > FOREIGN_SHORTLIST) top.pop();
    }
  }
  return top.map((t) => t.h);
}

/**
 * Reads one quad against a code book. Returns null when the quad is too small or degenerate to
 * compare. The caller decides what evidence is enough (see marker-reader.ts).
 */
export function readQuad(
  grey: Grey,
  corners: readonly [Pixel, Pixel, Pixel, Pixel],
  book: CodeBook,
  options: TemplateDecoderOptions = DEFAULT_TEMPLATE_DECODER,
): TemplateReading | null {
  const cells = book.bitsPerSide + 2;
  const nBits = book.bitsPerSide * book.bitsPerSide;
  const m = gatherMoments(grey, corners, cells, options);
  if (!m) return null;
  const scores = new Float64Array(book.views.length);
  let best = -1;
  let bestFit: LevelFit = { sse: Infinity, offset: 0, contrast: 0 };
  for (let h = 0; h < book.views.length; h++) {
    const fit = residual(m, book.views[h]!.white, nBits);
    scores[h] = fit.sse;
    if (fit.sse < bestFit.sse) {
      bestFit = fit;
      best = h;
    }
  }
  if (best < 0) return null;
  // Runner-up in play: every other view (another code, or another rotation of the same), and the blanks.
  let runnerSse = Infinity;
  let runnerUpId = -1;
  for (let h = 0; h < book.views.length; h++) {
    if (h !== best && scores[h]! < runnerSse) {
      runnerSse = scores[h]!;
      runnerUpId = book.views[h]!.id;
    }
  }
  const allWhite = Uint16Array.from({ length: nBits }, (_, k) => k);
  let blankSse = Infinity;
  for (const blank of [new Uint16Array(0), allWhite])
    blankSse = Math.min(blankSse, residual(m, blank, nBits).sse);
  if (blankSse < runnerSse) {
    runnerSse = blankSse;
    runnerUpId = -1;
  }
  // The best codes not in play, and the one after it.
  let foreignBest = -1;
  let foreignSse = Infinity;
  let foreignSecond = Infinity;
  for (const h of foreignShortlist(m, book)) {
    const { sse } = residual(m, book.foreign[h]!.white, nBits);
    if (sse < foreignSse) {
      foreignSecond = foreignSse;
      foreignSse = sse;
      foreignBest = h;
    } else if (sse < foreignSecond) foreignSecond = sse;
  }
  const view = book.views[best]!;
  const sst = m.sumII - (m.sumI * m.sumI) / m.n;
  // Noise from the best fit of all, whichever code made it; floored so that a near-perfect fit
  // cannot claim unbounded evidence.
  const bestOfAll = Math.min(bestFit.sse, foreignSse);
  const noise = bestOfAll / Math.max(1, m.n - 2);
  const twoVar = 2 * Math.max(noise, 1);
  const r = view.rotation;
  const foreignView = foreignBest >= 0 ? book.foreign[foreignBest]! : null;
  return {
    id: view.id,
    rotation: r,
    // Marker corner k sits at quad corner k − r.
    corners: [corners[(4 - r) % 4]!, corners[(5 - r) % 4]!, corners[(6 - r) % 4]!, corners[(7 - r) % 4]!],
    evidence: (runnerSse - bestFit.sse) / twoVar,
    runnerUpId,
    plausibility: (foreignSse - bestFit.sse) / twoVar,
    foreign: foreignView
      ? {
          id: foreignView.id,
          rotation: foreignView.rotation,
          evidence: (Math.min(bestFit.sse, blankSse, foreignSecond) - foreignSse) / twoVar,
        }
      : null,
    fit: sst > 0 ? 1 - bestFit.sse / sst : 0,
    contrast: bestFit.contrast,
    residualSigma: Math.sqrt(bestFit.sse / Math.max(1, m.n - 2)),
    pixels: m.n,
    scores,
  };
}
