import { readFile } from 'node:fs/promises';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import type { Quad } from './candidates.ts';
import type { Grey } from './tag-footprint.ts';
import { tagPatch, type TagPatchOptions } from './tag-patch.ts';
import type { LearnedReading, ReaderCalibration } from './learned-decision.ts';

export {
  decide,
  scoreViews,
  type LearnedDecision,
  type LearnedReading,
  type ReaderCalibration,
  type ViewScores,
} from './learned-decision.ts';

/**
 * The learned tag reader: a small network (models/tag-reader/, trained only on Vedette's own
 * renderer) that looks at a candidate's rectified patch (tag-patch.ts) and says, for each of the
 * 36 data cells, how likely it is white, and how likely the patch is a marker's outline at all.
 *
 * It knows nothing of ids: scoreViews() turns its answer into a log-likelihood for every view
 * (id × rotation) of a CodeBook, for the best code not in play, and for "not a marker", so one
 * model serves any scenario. decide() turns those into an id with a calibrated probability
 * (temperature and Platt scaling fitted on held-out renders; models/tag-reader/MODEL-CARD.md).
 * One model per cell layout: this one reads 6 × 6 data bits inside a one-cell border (ArUco MIP
 * 36h12, AprilTag 36h11).
 *
 * Runs on TensorFlow.js's WebAssembly backend (XNNPACK), which ships inside its npm package and
 * needs no network; `tfjs-node` cannot be installed offline.
 */

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

  /**
   * The network's raw outputs for a batch of patches (each `size × size`, from patch()): per patch
   * 36 bit logits then the marker logit, before calibration.
   */
  outputs(patches: readonly Float32Array[]): Float32Array {
    if (patches.length === 0) return new Float32Array(0);
    const side = this.spec.patch.size;
    const n = side * side;
    const batch = new Float32Array(patches.length * n);
    patches.forEach((p, i) => {
      if (p.length !== n)
        throw new Error(`patch ${i} has ${p.length} values, expected ${n} (${side} × ${side})`);
      batch.set(p, i * n);
    });
    return tf.tidy(() => {
      const out = this.model.predict(tf.tensor4d(batch, [patches.length, side, side, 1])) as tf.Tensor;
      return out.dataSync() as Float32Array;
    });
  }

  /** Runs the network on a batch of patches (from patch()); one calibrated reading each. */
  read(patches: readonly Float32Array[]): LearnedReading[] {
    const logits = this.outputs(patches);
    const bits = this.bitsPerSide * this.bitsPerSide;
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
