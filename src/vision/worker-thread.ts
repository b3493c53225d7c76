/**
 * The vision worker: runs Detector → Locator → Tracker off the server's event loop.
 * Started by WorkerPipeline (worker-pipeline.ts) with its init data; answers one `result` (or
 * `error`) per `process` message and hands the frame's pixels back (transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { VisionPipeline } from './pipeline.ts';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol.ts';

const port = parentPort;
if (!port) throw new Error('worker-thread.ts must be started as a worker thread');

const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const init = workerData as WorkerInit;
let pipeline: VisionPipeline;
try {
  pipeline = await VisionPipeline.create(init.camera, init.scenario, init.detectorOptions);
  post({ type: 'ready' });
} catch (err) {
  post({ type: 'initError', message: err instanceof Error ? err.message : String(err) });
  throw err;
}

port.on('message', (message: ToWorker) => {
  const { id, frame } = message;
  const image = {
    width: frame.width,
    height: frame.height,
    channels: frame.channels,
    data: new Uint8Array(frame.pixels),
  };
  try {
    const result = pipeline.process({ image, capturedAt: frame.capturedAt, sequence: frame.sequence });
    post({ type: 'result', id, result, pixels: frame.pixels }, [frame.pixels]);
  } catch (err) {
    post(
      { type: 'error', id, message: err instanceof Error ? err.message : String(err), pixels: frame.pixels },
      [frame.pixels],
    );
  }
});
