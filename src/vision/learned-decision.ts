import type { CodeBook } from './code-book.ts';

/**
 * The learned tag reader's answer turned into a decision over a scenario's codes: calibrated
 * log-likelihoods for every view in play, for codes not in play and for "not a marker", and the
 * resulting id with its probability. Pure arithmetic, no TensorFlow.js, so the marker finder can
 * import it without loading the network's runtime (learned-reader.ts does that, when asked for).
 */

/** What the network says about one patch. */
export interface LearnedReading {
  /** Probability that each data cell is white, row-major in the quad's frame (36 values). */
  readonly bitProbabilities: Float32Array;
  /** The same as logits (numerically safer for sums of logs). */
  readonly bitLogits: Float32Array;
  /** Probability that the patch is a marker's outline (calibrated). */
  readonly markerProbability: number;
  readonly markerLogit: number;
}

/** The calibration fitted on held-out renders (models/tag-reader/reader.json). */
export interface ReaderCalibration {
  /** Divides the bits' log-likelihoods (≥ 1 when the network is over-confident). */
  readonly bitTemperature: number;
  /** Platt scaling of the marker logit: σ(scale · z + bias). */
  readonly markerScale: number;
  readonly markerBias: number;
  /** Prior odds (log) that a marker is a code not in play rather than one in play. */
  readonly foreignLogOdds: number;
}

function logSigmoid(z: number): number {
  return z >= 0 ? -Math.log1p(Math.exp(-z)) : z - Math.log1p(Math.exp(z));
}

/** Log-likelihoods of one reading against a CodeBook (natural logs, calibrated). */
export interface ViewScores {
  /** Per view in play (book.views order): log P(marker, this view | patch) up to one shared constant. */
  readonly views: Float64Array;
  /** The best view not in play (index into book.foreign; -1 if none) and its score. */
  readonly foreignBest: number;
  readonly foreignBestScore: number;
  /** All views not in play together (log-sum-exp). */
  readonly foreignTotal: number;
  /** "Not a marker at all". */
  readonly notMarker: number;
}

/** Σ over bits of log P(bit as the view has it), from logits: Σ log σ(−z) plus, for each white bit, z. */
function viewLogLikelihood(white: Uint16Array, base: number, logits: Float32Array): number {
  let sum = base;
  for (let i = 0; i < white.length; i++) sum += logits[white[i]!]!;
  return sum;
}

function logSumExp(values: ArrayLike<number>): number {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) max = Math.max(max, values[i]!);
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += Math.exp(values[i]! - max);
  return max + Math.log(sum);
}

/**
 * Scores every view of a book: log σ(marker) + (bits' log-likelihood) / T, with a uniform prior
 * over the views in play and over those not in play (their total weighted by the foreign odds),
 * and log(1 − σ(marker)) for "not a marker". Exponentiated and normalised, these are the
 * calibrated posterior probabilities (decide()).
 */
export function scoreViews(
  reading: LearnedReading,
  book: CodeBook,
  calibration: ReaderCalibration,
): ViewScores {
  const nBits = book.bitsPerSide * book.bitsPerSide;
  if (reading.bitLogits.length !== nBits)
    throw new Error(`the reader reads ${reading.bitLogits.length} bits; this book's codes have ${nBits}`);
  const z = reading.bitLogits;
  // log σ(−z_k) summed: every bit black; a white bit k adds log σ(z_k) − log σ(−z_k) = z_k.
  let allBlack = 0;
  for (let k = 0; k < nBits; k++) allBlack += logSigmoid(-z[k]!);
  const t = calibration.bitTemperature;
  const logMarker = logSigmoid(reading.markerLogit);
  const inPlay = book.views.length;
  const views = new Float64Array(inPlay);
  const inPlayPrior = logMarker - Math.log(Math.max(1, inPlay));
  for (let h = 0; h < inPlay; h++)
    views[h] = inPlayPrior + viewLogLikelihood(book.views[h]!.white, allBlack, z) / t;
  const foreign = new Float64Array(book.foreign.length);
  const foreignPrior = logMarker + calibration.foreignLogOdds - Math.log(Math.max(1, book.foreign.length));
  let foreignBest = -1;
  for (let h = 0; h < book.foreign.length; h++) {
    foreign[h] = foreignPrior + viewLogLikelihood(book.foreign[h]!.white, allBlack, z) / t;
    if (foreignBest < 0 || foreign[h]! > foreign[foreignBest]!) foreignBest = h;
  }
  return {
    views,
    foreignBest,
    foreignBestScore: foreignBest >= 0 ? foreign[foreignBest]! : -Infinity,
    foreignTotal: logSumExp(foreign),
    notMarker: logSigmoid(-reading.markerLogit),
  };
}

/** The reader's verdict on one patch. */
export interface LearnedDecision {
  /** The most probable view in play (its id and rotation), whatever its probability. */
  readonly id: number;
  readonly rotation: number;
  /** Calibrated probability that the patch is that marker in that rotation. */
  readonly confidence: number;
  /** Probability of the runner-up view in play. */
  readonly runnerUp: number;
  /** Probability that it is a marker not in play, and that it is no marker at all. */
  readonly foreign: number;
  readonly notMarker: number;
  /** Whether confidence reaches the model's read threshold. */
  readonly read: boolean;
}

/** Normalises the scores into probabilities and names the best view in play. */
export function decide(scores: ViewScores, book: CodeBook, readThreshold: number): LearnedDecision {
  const total = logSumExp([logSumExp(scores.views), scores.foreignTotal, scores.notMarker]);
  let best = -1;
  let second = -Infinity;
  for (let h = 0; h < scores.views.length; h++) {
    if (best < 0 || scores.views[h]! > scores.views[best]!) {
      if (best >= 0) second = Math.max(second, scores.views[best]!);
      best = h;
    } else second = Math.max(second, scores.views[h]!);
  }
  const confidence = best >= 0 ? Math.exp(scores.views[best]! - total) : 0;
  const view = best >= 0 ? book.views[best]! : null;
  return {
    id: view?.id ?? -1,
    rotation: view?.rotation ?? -1,
    confidence,
    runnerUp: Math.exp(second - total),
    foreign: Math.exp(scores.foreignTotal - total),
    notMarker: Math.exp(scores.notMarker - total),
    read: view !== null && confidence >= readThreshold,
  };
}
