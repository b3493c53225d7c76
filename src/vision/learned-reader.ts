import { readFile } from 'node:fs/promises';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import type { CodeBook } from './code-book.ts';
import type { Quad } from './candidates.ts';
import type { Grey } from './tag-footprint.ts';
import { tagPatch, type TagPatchOptions } from './tag-patch.ts';

/**
 * The learned tag reader: a small network (models/tag-reader/, trained only on Vedette's own
 * renderer) that looks at a candidate's rectified patch (tag-patch.ts) and says, for each of the
 * 36 data cells, how likely it is white, and how likely the patch is a marker's outline at all.
 *
 * It knows nothing of ids: scoreViews() turns its answer into a log-likelihood for every view
 * (id × rotation) of a CodeBook, for the best code not in play, and for "not a marker", so one
 * model serves any scenario. decide() turns those into an id with a calibrated probability
 * (temperature and Platt scaling fitted on held-out renders; models/tag-reader/MODEL_CARD.md).
 * One model per cell layout: this one reads 6 × 6 data bits inside a one-cell border (ArUco MIP
 * 36h12, AprilTag 36h11).
 *
 * Runs on TensorFlow.js's WebAssembly backend (XNNPACK), which ships inside its npm package and
 * needs no network; `tfjs-node` cannot be installed offline.
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

/** Everything about the shipped model that is not its weights. */
export interface ReaderSpec {
  readonly format: 'vedette-tag-reader';
  readonly version: number;
  readonly dictionaries: readonly string[];
  readonly bitsPerSide: number;
  readonly patch: TagPatchOptions;
  readonly calibration: ReaderCalibration;
  /** Smallest calibrated probability at which decide() reads an id (chosen on held-out renders). */
  readonly readThreshold: number;
}

export const DEFAULT_MODEL_DIR = new URL('../../models/tag-reader/', import.meta.url);

let backendReady: Promise<void> | undefined;

/** TensorFlow.js on the WebAssembly backend, once per thread. */
export function initTensorflow(backend: 'wasm' | 'cpu' = 'wasm'): Promise<void> {
  backendReady ??= (async () => {
    if (!(await tf.setBackend(backend))) throw new Error(`TensorFlow.js backend "${backend}" did not start`);
    await tf.ready();
  })();
  return backendReady;
}

async function readJson<T>(url: URL): Promise<T> {
  let text: string;
  try {
    text = await readFile(url, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${url.pathname}: ${(e as Error).message}`, { cause: e });
  }
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new Error(`${url.pathname} is not JSON: ${(e as Error).message}`, { cause: e });
  }
}

function checkSpec(spec: ReaderSpec, where: string): ReaderSpec {
  const c = spec.calibration;
  if (
    spec.format !== 'vedette-tag-reader' ||
    !Number.isInteger(spec.bitsPerSide) ||
    !spec.patch ||
    !(c && c.bitTemperature > 0 && Number.isFinite(c.markerScale + c.markerBias + c.foreignLogOdds)) ||
    !(spec.readThreshold > 0 && spec.readThreshold < 1)
  )
    throw new Error(`${where} is not a Vedette tag reader description`);
  return spec;
}

function logSigmoid(z: number): number {
  return z >= 0 ? -Math.log1p(Math.exp(-z)) : z - Math.log1p(Math.exp(z));
}

export class LearnedTagReader {
  private constructor(
    private readonly model: tf.LayersModel,
    readonly spec: ReaderSpec,
  ) {}

  /** Loads the shipped model (or one in `dir`: model.json, its weights, reader.json). */
  static async load(dir: URL = DEFAULT_MODEL_DIR): Promise<LearnedTagReader> {
    await initTensorflow();
    const spec = checkSpec(await readJson<ReaderSpec>(new URL('reader.json', dir)), 'reader.json');
    const modelJson = await readJson<tf.io.ModelJSON>(new URL('model.json', dir));
    const artifacts = await tf.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
      const specs: tf.io.WeightsManifestEntry[] = [];
      const buffers: ArrayBuffer[] = [];
      for (const group of manifest) {
        for (const path of group.paths) {
          const bytes = await readFile(new URL(path, dir));
          buffers.push(
            bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
          );
        }
        specs.push(...group.weights);
      }
      return [specs, tf.io.concatenateArrayBuffers(buffers)];
    });
    const model = await tf.loadLayersModel(tf.io.fromMemory(artifacts));
    return new LearnedTagReader(model, spec);
  }

  get bitsPerSide(): number {
    return this.spec.bitsPerSide;
  }

  /** The patch of a quad as this model wants it (null where no patch can be taken). */
  patch(grey: Grey, quad: Quad): Float32Array | null {
    return tagPatch(grey, quad, this.spec.bitsPerSide + 2, this.spec.patch);
  }

  /** Runs the network on a batch of patches (each `size × size`, from patch()); one reading each. */
  read(patches: readonly Float32Array[]): LearnedReading[] {
    if (patches.length === 0) return [];
    const side = this.spec.patch.size;
    const n = side * side;
    const batch = new Float32Array(patches.length * n);
    patches.forEach((p, i) => {
      if (p.length !== n)
        throw new Error(`patch ${i} has ${p.length} values, expected ${n} (${side} × ${side})`);
      batch.set(p, i * n);
    });
    const bits = this.bitsPerSide * this.bitsPerSide;
    const logits = tf.tidy(() => {
      const out = this.model.predict(tf.tensor4d(batch, [patches.length, side, side, 1])) as tf.Tensor;
      return out.dataSync() as Float32Array;
    });
    const { markerScale, markerBias } = this.spec.calibration;
    return patches.map((_, i) => {
      const row = logits.subarray(i * (bits + 1), (i + 1) * (bits + 1));
      const bitLogits = Float32Array.from(row.subarray(0, bits));
      const markerLogit = markerScale * row[bits]! + markerBias;
      return {
        bitLogits,
        bitProbabilities: bitLogits.map((z) => 1 / (1 + Math.exp(-z))),
        markerLogit,
        markerProbability: 1 / (1 + Math.exp(-markerLogit)),
      };
    });
  }

  dispose(): void {
    this.model.dispose();
  }
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
