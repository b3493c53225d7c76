import * as tf from '@tensorflow/tfjs';
import { DEFAULT_TAG_PATCH } from '../../src/vision/tag-patch.ts';
import { OUTPUTS } from './dataset.ts';

/**
 * The reader's network. The 30 × 30 patch holds the 8-cell marker and a one-cell quiet zone at
 * exactly 3 × 3 pixels per cell, so the second convolution (3 × 3, stride 3) gives one feature
 * vector per cell; a third convolution lets each cell see its neighbours (blur mixes them, and
 * corner error shifts them), and a dense layer over all cells re-finds the grid when the quad
 * is off by half a cell. Output: 36 bit logits (white) and one marker logit.
 *
 * 'mlp' (two dense layers on the raw patch) is the cheaper alternative it was compared with.
 */

export type Architecture = 'cnn' | 'mlp';

export function buildNetwork(architecture: Architecture, seed: number): tf.LayersModel {
  const size = DEFAULT_TAG_PATCH.size;
  let s = seed;
  const init = () => tf.initializers.heNormal({ seed: s++ });
  const zeros = () => tf.initializers.zeros();
  const m = tf.sequential();
  if (architecture === 'cnn') {
    m.add(
      tf.layers.conv2d({
        inputShape: [size, size, 1],
        filters: 8,
        kernelSize: 3,
        padding: 'same',
        activation: 'relu',
        kernelInitializer: init(),
        biasInitializer: zeros(),
      }),
    );
    m.add(
      tf.layers.conv2d({
        filters: 16,
        kernelSize: 3,
        strides: 3,
        padding: 'valid',
        activation: 'relu',
        kernelInitializer: init(),
        biasInitializer: zeros(),
      }),
    );
    m.add(
      tf.layers.conv2d({
        filters: 16,
        kernelSize: 3,
        padding: 'same',
        activation: 'relu',
        kernelInitializer: init(),
        biasInitializer: zeros(),
      }),
    );
    m.add(tf.layers.flatten());
    m.add(
      tf.layers.dense({ units: 48, activation: 'relu', kernelInitializer: init(), biasInitializer: zeros() }),
    );
  } else {
    m.add(tf.layers.flatten({ inputShape: [size, size, 1] }));
    m.add(
      tf.layers.dense({
        units: 160,
        activation: 'relu',
        kernelInitializer: init(),
        biasInitializer: zeros(),
      }),
    );
    m.add(
      tf.layers.dense({ units: 96, activation: 'relu', kernelInitializer: init(), biasInitializer: zeros() }),
    );
  }
  m.add(
    tf.layers.dense({
      units: OUTPUTS,
      kernelInitializer: tf.initializers.glorotUniform({ seed: s++ }),
      biasInitializer: zeros(),
    }),
  );
  return m;
}
