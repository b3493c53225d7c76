/**
 * The synthetic table's renderer in a worker thread (started by SyntheticSource), so drawing a
 * 1080p frame does not block the server. One `render` message, one `frame` reply, pixels
 * transferred; the server gives them back (`recycle`) once the frame is done with, and later
 * frames are drawn into them (no fresh 6 MB buffer a frame for the garbage collector).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { frameTable } from '../../synth/camera.ts';
import { LiveSyntheticTable } from '../../synth/live-table.ts';
import { applyExtras } from '../../synth/table-extras.ts';
import { PixelPool } from './pixel-pool.ts';
import type { FromSynthWorker, RenderRequest, SynthWorkerInit, ToSynthWorker } from './synthetic-source.ts';

const port = parentPort;
if (!port) throw new Error('synthetic-worker.ts must be started as a worker thread');
const post = (message: FromSynthWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const init = workerData as SynthWorkerInit;
let table: LiveSyntheticTable;
try {
  const camera = frameTable(init.scenario.table, { resolution: init.resolution });
  table = await LiveSyntheticTable.create(
    init.scenario,
    camera,
    // The demo camera runs at camera rate: sensor noise from a bank drawn once, ink by point samples.
    {
      noiseBank: true,
      pointSampledInk: true,
      ...(init.movingUnitId ? { movingUnitId: init.movingUnitId } : {}),
    },
  );
  post({ type: 'ready', profile: table.profile });
} catch (err) {
  post({ type: 'initError', message: err instanceof Error ? err.message : String(err) });
  throw err;
}

// Messages are handled one at a time: applying new extras is async and must finish before the frame.
let queue = Promise.resolve();
// Frames given back: one being drawn, one in the vision worker, one being encoded, one spare.
const pool = new PixelPool(4);
port.on('message', (message: ToSynthWorker) => {
  if (message.type === 'recycle') pool.give(new Uint8Array(message.pixels));
  else queue = queue.then(() => render(message));
});

async function render(message: RenderRequest): Promise<void> {
  try {
    const boardPose = await applyExtras(table, message.extras);
    const into = pool.take(table.camera.width * table.camera.height * 3);
    const { image } = message.moving
      ? table.frame(message.timeMs, boardPose, into)
      : table.frameWithPoses({}, message.noiseKey, boardPose, into);
    const pixels = image.data.buffer as ArrayBuffer;
    post({ type: 'frame', id: message.id, width: image.width, height: image.height, pixels }, [pixels]);
  } catch (err) {
    post({ type: 'error', id: message.id, message: err instanceof Error ? err.message : String(err) });
  }
}
