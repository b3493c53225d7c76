import * as tf from '@tensorflow/tfjs';
import { rotateClockwise } from '../../src/vision/code-book.ts';
import { DEFAULT_TAG_PATCH } from '../../src/vision/tag-patch.ts';
import { OUTPUTS, PATCH_PIXELS, type Dataset } from './dataset.ts';
import { DATA_BITS } from './samples.ts';
import { Rng } from './rng.ts';

/**
 * Mini-batch training with a seeded shuffle and seeded augmentation (TensorFlow.js's own fit()
 * shuffles with Math.random, which no seed reaches). Each patch is turned a random number of
 * quarter turns with its bits (a quad's corner order is arbitrary, so every turn is a real view).
 * Loss: sigmoid cross-entropy, bits only where the patch is a marker and the cell is visible.
 */

export interface TrainOptions {
  readonly epochs: number;
  readonly batchSize: number;
  readonly learningRate: number;
  readonly seed: number;
  /** Weight of each bit's loss relative to the marker output's. */
  readonly bitWeight: number;
  readonly log?: (line: string) => void;
}

const SIDE = DEFAULT_TAG_PATCH.size;
const BITS_SIDE = Math.round(Math.sqrt(DATA_BITS));

function turnPatch(src: Float32Array, dst: Float32Array, turns: number): void {
  let a = src;
  for (let t = 0; t < turns; t++) {
    const b = new Float32Array(PATCH_PIXELS);
    for (let r = 0; r < SIDE; r++)
      for (let c = 0; c < SIDE; c++) b[c * SIDE + (SIDE - 1 - r)] = a[r * SIDE + c]!;
    a = b;
  }
  dst.set(a);
}

function turnBits(src: Float32Array, turns: number): Float32Array {
  let bits: Uint8Array = Uint8Array.from(src.subarray(0, DATA_BITS), (v) => Math.round(v * 255));
  for (let t = 0; t < turns; t++) bits = rotateClockwise(bits, BITS_SIDE);
  const out = new Float32Array(OUTPUTS);
  for (let k = 0; k < DATA_BITS; k++) out[k] = bits[k]! / 255;
  out[DATA_BITS] = src[DATA_BITS]!;
  return out;
}

/** Loss weights per output: bits, then the marker. */
function outputWeights(bitWeight: number): tf.Tensor1D {
  const w = new Float32Array(OUTPUTS).fill(bitWeight);
  w[DATA_BITS] = 1;
  return tf.tensor1d(w);
}

function maskedLoss(logits: tf.Tensor, targets: tf.Tensor, masks: tf.Tensor, weights: tf.Tensor): tf.Scalar {
  // Stable sigmoid cross-entropy: max(z, 0) − z·y + log(1 + e^−|z|).
  const ce = tf
    .relu(logits)
    .sub(logits.mul(targets))
    .add(tf.log1p(tf.exp(tf.neg(tf.abs(logits)))));
  return ce.mul(masks).mul(weights).sum().div(logits.shape[0]!) as tf.Scalar;
}

export async function trainNetwork(model: tf.LayersModel, data: Dataset, o: TrainOptions): Promise<void> {
  const rng = new Rng(o.seed);
  const optimizer = tf.train.adam(o.learningRate);
  const weights = outputWeights(o.bitWeight);
  const order = Array.from({ length: data.count }, (_, i) => i);
  const batches = Math.ceil(data.count / o.batchSize);
  const totalSteps = o.epochs * batches;
  let step = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    let lossSum = 0;
    const t0 = performance.now();
    for (let b = 0; b < batches; b++) {
      const idx = order.slice(b * o.batchSize, (b + 1) * o.batchSize);
      const x = new Float32Array(idx.length * PATCH_PIXELS);
      const y = new Float32Array(idx.length * OUTPUTS);
      const m = new Float32Array(idx.length * OUTPUTS);
      idx.forEach((src, k) => {
        const turns = rng.int(4);
        turnPatch(
          data.patches.subarray(src * PATCH_PIXELS, (src + 1) * PATCH_PIXELS),
          x.subarray(k * PATCH_PIXELS),
          turns,
        );
        y.set(turnBits(data.targets.subarray(src * OUTPUTS, (src + 1) * OUTPUTS), turns), k * OUTPUTS);
        m.set(turnBits(data.masks.subarray(src * OUTPUTS, (src + 1) * OUTPUTS), turns), k * OUTPUTS);
      });
      // Cosine decay to a tenth of the starting rate.
      const progress = step / Math.max(1, totalSteps - 1);
      (optimizer as unknown as { learningRate: number }).learningRate =
        o.learningRate * (0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * progress)));
      const loss = tf.tidy(() => {
        const xs = tf.tensor4d(x, [idx.length, SIDE, SIDE, 1]);
        const ys = tf.tensor2d(y, [idx.length, OUTPUTS]);
        const ms = tf.tensor2d(m, [idx.length, OUTPUTS]);
        return optimizer.minimize(
          () => maskedLoss(model.apply(xs, { training: true }) as tf.Tensor, ys, ms, weights),
          true,
        ) as tf.Scalar;
      });
      lossSum += (await loss.data())[0]!;
      loss.dispose();
      step++;
    }
    o.log?.(
      `epoch ${epoch + 1}/${o.epochs}: loss ${(lossSum / batches).toFixed(4)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
    );
  }
  weights.dispose();
  optimizer.dispose();
}

/** The network's raw outputs (logits) for every sample, in batches. */
export function predictLogits(model: tf.LayersModel, data: Dataset, batchSize = 256): Float32Array {
  const out = new Float32Array(data.count * OUTPUTS);
  for (let s = 0; s < data.count; s += batchSize) {
    const n = Math.min(batchSize, data.count - s);
    const logits = tf.tidy(() => {
      const xs = tf.tensor4d(data.patches.subarray(s * PATCH_PIXELS, (s + n) * PATCH_PIXELS), [
        n,
        SIDE,
        SIDE,
        1,
      ]);
      return (model.predict(xs) as tf.Tensor).dataSync() as Float32Array;
    });
    out.set(logits, s * OUTPUTS);
  }
  return out;
}
