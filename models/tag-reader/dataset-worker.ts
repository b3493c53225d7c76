import { parentPort, workerData } from 'node:worker_threads';
import { packSamples, type GenerateRequest } from './dataset.ts';
import { cropSamples, type Sample } from './samples.ts';

/** One data worker: renders its range of crops and sends the packed samples back. */
const request = workerData as GenerateRequest;
const samples: Sample[] = [];
for (let i = 0; i < request.crops; i++) {
  samples.push(...(await cropSamples(request.firstSeed + i)));
  if ((i + 1) % 50 === 0) parentPort?.postMessage({ progress: 50 });
}
parentPort?.postMessage({ progress: request.crops % 50 });
const dataset = packSamples(samples);
parentPort?.postMessage({ dataset }, [
  dataset.patches.buffer as ArrayBuffer,
  dataset.targets.buffer as ArrayBuffer,
  dataset.masks.buffer as ArrayBuffer,
]);
