import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';
import { registerWasmConvFilterGradient } from '../../../models/tag-reader/wasm-conv-grad.ts';

/**
 * The filter gradient the tag reader's training adds to TensorFlow.js's WebAssembly backend,
 * against the CPU backend's own Conv2DBackpropFilter on the same seeded tensors: 'same' and
 * 'valid' padding, strides 1 and 3 (the shapes network.ts uses), several channels in and out.
 */

const CASES = [
  { x: [2, 30, 30, 1], filter: [3, 3, 1, 4], strides: 1, pad: 'same' },
  { x: [2, 30, 30, 4], filter: [3, 3, 4, 5], strides: 3, pad: 'valid' },
  { x: [3, 10, 10, 5], filter: [3, 3, 5, 6], strides: 1, pad: 'same' },
  { x: [1, 11, 9, 2], filter: [3, 2, 2, 3], strides: 2, pad: 'valid' },
] as const;

function filterGradient(c: (typeof CASES)[number], seed: number): Float32Array {
  return tf.tidy(() => {
    const x = tf.randomNormal([...c.x], 0, 1, 'float32', seed) as tf.Tensor4D;
    const w = tf.randomNormal([...c.filter], 0, 1, 'float32', seed + 1) as tf.Tensor4D;
    // A loss that weights every output differently, so a misplaced term shows.
    const weights = tf.randomNormal(tf.conv2d(x, w, c.strides, c.pad).shape, 0, 1, 'float32', seed + 2);
    const grad = tf.grad((filter: tf.Tensor) =>
      tf
        .conv2d(x, filter as tf.Tensor4D, c.strides, c.pad)
        .mul(weights)
        .sum(),
    )(w);
    return grad.dataSync() as Float32Array;
  });
}

describe('Conv2DBackpropFilter on the WebAssembly backend', () => {
  it('matches the CPU backend', async () => {
    await tf.setBackend('cpu');
    const expected = CASES.map((c, i) => filterGradient(c, 10 * i + 1));
    expect(await tf.setBackend('wasm')).toBe(true);
    registerWasmConvFilterGradient();
    CASES.forEach((c, i) => {
      const got = filterGradient(c, 10 * i + 1);
      expect(got.length).toBe(expected[i]!.length);
      let worst = 0;
      for (let k = 0; k < got.length; k++)
        worst = Math.max(worst, Math.abs(got[k]! - expected[i]![k]!) / (1 + Math.abs(expected[i]![k]!)));
      expect(worst, JSON.stringify(c)).toBeLessThan(1e-4);
    });
  });
});
