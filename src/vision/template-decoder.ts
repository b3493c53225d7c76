import type { Pixel } from '../camera/projection.ts';
import type { CodeBook, PackedViews } from './code-book.ts';
import { cellWeight, MAX_HALF_CELLS, MIN_OUTER_WEIGHT, pixelsAround, type Grey } from './tag-footprint.ts';
import { WorkArray } from './work-array.ts';

/** Data cells one pixel's kernel may touch (a wide blur on tiny cells touches many). */
const MAX_ENTRIES = 64;

/**
 * Reads a candidate quad by maximum likelihood over the codes in play.
 *
 * OpenCV reads a marker by warping it to a grid and thresholding each cell. On a 15 mm tag at
 * 1080p a cell is 1.5 px: every pixel mixes two to four cells, so thresholded bits are half
 * guesses and a 587-code dictionary cannot be told apart. We know far more: which few codes are
 * in play, that the border is black and the quiet zone white, and how the camera blurs. So each
 * code (in each of its four rotations) is *rendered* into the pixels the quad covers — every
 * pixel's expected whiteness is a weighted sum of the cells its blurred footprint touches — and
 * compared with what the camera saw, allowing any black and white level (a + b·whiteness) and
 * any level for what lies past the one-cell quiet zone (a painted base top that a wide blur
 * reaches).
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
  blurSigmaPx: 0.6,
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
  /** The other code in play that came closest, blanks aside (-1: none). */
  readonly rivalCodeId: number;
  /**
   * Log-likelihood ratio of the best code in play over the best code *not* in play. Negative when
   * some other code of the dictionary explains the picture better: a marker that is not part of
   * this scenario, which must not be read as one that is (unless, on a small blurred tag, the two
   * codes fitted at their best say otherwise: firm-reading.ts).
   */
  readonly plausibility: number;
  /** The best code not in play, and its own evidence over everything else (in play, blanks, the rest). */
  readonly foreign: { readonly id: number; readonly rotation: number; readonly evidence: number } | null;
  /** Share of the pixels' variance the best code explains (1 = perfect). */
  readonly fit: number;
  /**
   * The same with paper taken to reach everywhere round the tag (no level of its own for what
   * lies past the quiet zone): how well the picture is a printed marker on paper. A die on the
   * cloth gains from the surround's own level what a tag on paper does not need.
   */
  readonly paperFit: number;
  /** Grey levels between the fitted black and white. */
  readonly contrast: number;
  /** Residual noise of the best fit, grey levels (one sigma). */
  readonly residualSigma: number;
  /** Pixels compared. */
  readonly pixels: number;
  /** Sum of squared residuals per view in play (book.views order; Infinity for views the screen left out). */
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
function gatherMoments(
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

interface LevelFit {
  readonly sse: number;
  /** Fitted white − black. */
  readonly contrast: number;
}

/** Sums over the pixels of a view's whiteness w (paper to one cell past the border): Σw, Σw·I, Σw², Σw·o. */
interface WhitenessSums {
  readonly sw: number;
  readonly swi: number;
  readonly sww: number;
  readonly swo: number;
}

/** The whiteness sums of the white bits white[from … to), from the moments (one pass over the bits). */
function whitenessSums(
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
function paperLevels(m: Moments, s: WhitenessSums): LevelFit {
  return twoLevels(m, s.sw + m.sumO, s.swi + m.sumOI, s.sww + 2 * s.swo + m.sumOO);
}

/**
 * Residual sum of squares of the best a + b·whiteness + c·outer fit for the white bits
 * white[from … to): black a, white a + b, and what lies past the one-cell quiet zone at its own
 * level a + c (a painted base top a cell or two from the tag, which a blur of a cell reaches).
 */
function residual(m: Moments, white: Uint16Array, from: number, to: number, nBits: number): LevelFit {
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

/**
 * Views given an exact fit after the screen: the best few in play (every code within reach of
 * the winner, so the runner-up is among them) and the best few not in play.
 */
const IN_PLAY_SHORTLIST = 24;
const FOREIGN_SHORTLIST = 12;

/**
 * The views most like the picture, by a cheap screen: each data bit's weighted mean grey level
 * (centred), summed over each view's white bits. Returns view indices, best first.
 */
function screen(z: Float64Array, packed: PackedViews, keep: number): number[] {
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
function bitMeans(m: Moments, nBits: number): Float64Array {
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

/**
 * Reads one quad against a code book. Returns null when the quad is too small or degenerate to
 * compare. The caller decides what evidence is enough (see marker-finder.ts).
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
  const z = bitMeans(m, nBits);
  const { views: inPlay, foreign: notInPlay } = book.packed;
  // Exact fits for the shortlist in play; everything else keeps an infinite score (never the runner-up).
  const scores = new Float64Array(book.views.length).fill(Infinity);
  let best = -1;
  let bestFit: LevelFit = { sse: Infinity, contrast: 0 };
  let runnerSse = Infinity;
  let runnerUpId = -1;
  for (const h of screen(z, inPlay, IN_PLAY_SHORTLIST)) {
    const fit = residual(m, inPlay.white, inPlay.offsets[h]!, inPlay.offsets[h + 1]!, nBits);
    scores[h] = fit.sse;
    if (fit.sse < bestFit.sse) {
      if (best >= 0) {
        runnerSse = bestFit.sse;
        runnerUpId = book.views[best]!.id;
      }
      bestFit = fit;
      best = h;
    } else if (fit.sse < runnerSse) {
      runnerSse = fit.sse;
      runnerUpId = book.views[h]!.id;
    }
  }
  if (best < 0) return null;
  const rivalCodeId = runnerUpId;
  // Blank patterns compete with the codes in play.
  const blanks = Uint16Array.from({ length: nBits }, (_, k) => k);
  const blankSse = Math.min(residual(m, blanks, 0, 0, nBits).sse, residual(m, blanks, 0, nBits, nBits).sse);
  if (blankSse < runnerSse) {
    runnerSse = blankSse;
    runnerUpId = -1;
  }
  // The best codes not in play, and the one after it.
  let foreignBest = -1;
  let foreignSse = Infinity;
  let foreignSecond = Infinity;
  for (const h of screen(z, notInPlay, FOREIGN_SHORTLIST)) {
    const { sse } = residual(m, notInPlay.white, notInPlay.offsets[h]!, notInPlay.offsets[h + 1]!, nBits);
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
  const noise = bestOfAll / Math.max(1, m.n - 3);
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
    rivalCodeId,
    plausibility: (foreignSse - bestFit.sse) / twoVar,
    foreign: foreignView
      ? {
          id: foreignView.id,
          rotation: foreignView.rotation,
          evidence: (Math.min(bestFit.sse, blankSse, foreignSecond) - foreignSse) / twoVar,
        }
      : null,
    fit: sst > 0 ? 1 - bestFit.sse / sst : 0,
    paperFit:
      sst > 0
        ? 1 -
          paperLevels(
            m,
            whitenessSums(m, inPlay.white, inPlay.offsets[best]!, inPlay.offsets[best + 1]!, nBits),
          ).sse /
            sst
        : 0,
    contrast: bestFit.contrast,
    residualSigma: Math.sqrt(bestFit.sse / Math.max(1, m.n - 3)),
    pixels: m.n,
    scores,
  };
}

/**
 * Share of the pixels' variance one code view leaves unexplained at the given options (0 =
 * perfect). Used to learn the camera's blur from markers already read (blur-estimate.ts).
 */
export function viewMisfit(
  grey: Grey,
  corners: readonly [Pixel, Pixel, Pixel, Pixel],
  bitsPerSide: number,
  white: Uint16Array,
  options: TemplateDecoderOptions,
): number | null {
  const m = gatherMoments(grey, corners, bitsPerSide + 2, options);
  if (!m) return null;
  const sst = m.sumII - (m.sumI * m.sumI) / m.n;
  if (!(sst > 0)) return null;
  return residual(m, white, 0, white.length, bitsPerSide * bitsPerSide).sse / sst;
}
