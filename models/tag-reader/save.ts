import { mkdir, writeFile } from 'node:fs/promises';
import * as tf from '@tensorflow/tfjs';

/**
 * Writes a layers model as TensorFlow.js's own format (model.json plus one weights file), the
 * format LearnedTagReader.load() reads. tfjs-node's file:// saver is not available here.
 */
export async function saveModel(model: tf.LayersModel, dir: URL): Promise<{ weightBytes: number }> {
  await mkdir(dir, { recursive: true });
  let weightBytes = 0;
  await model.save(
    tf.io.withSaveHandler(async (artifacts) => {
      const data = artifacts.weightData;
      if (!data || !artifacts.weightSpecs) throw new Error('the model has no weights to save');
      const bytes = new Uint8Array(
        data instanceof ArrayBuffer ? data : tf.io.concatenateArrayBuffers(data as ArrayBuffer[]),
      );
      weightBytes = bytes.byteLength;
      const json = {
        format: artifacts.format,
        generatedBy: artifacts.generatedBy,
        convertedBy: null,
        modelTopology: artifacts.modelTopology,
        weightsManifest: [{ paths: ['weights.bin'], weights: artifacts.weightSpecs }],
      };
      await writeFile(new URL('weights.bin', dir), bytes);
      await writeFile(new URL('model.json', dir), JSON.stringify(json) + '\n');
      return { modelArtifactsInfo: { dateSaved: new Date(0), modelTopologyType: 'JSON' } };
    }),
  );
  return { weightBytes };
}
