import type { Pixel } from '../camera/projection.ts';
import type { CodeBook } from './code-book.ts';
import type { Grey } from './tag-footprint.ts';
import { paperLevels, residual, whitenessSums, type LevelFit } from './template-levels.ts';
import { gatherMoments } from './template-moments.ts';
import { bitMeans, screen } from './template-screen.ts';

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
 * Views given an exact fit after the screen: the best few in play (every code within reach of
 * the winner, so the runner-up is among them) and the best few not in play.
 */
const IN_PLAY_SHORTLIST = 24;
const FOREIGN_SHORTLIST = 12;

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
