/**
 * The helper thread of SplitCandidatePass (split-pass.ts): waits on the shared control word,
 * runs the candidate pass on the rows it is given, writes the quads back and signals done.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CandidatePass } from './candidate-pass.ts';
import { loadOpenCV } from './opencv.ts';
import { HELPER_MICROS, SplitState, tuningOf, writeQuads, type SplitWorkerData } from './split-pass.ts';

const port = parentPort;
if (!port) throw new Error('split-pass-worker.ts must be started as a worker thread');
const data = workerData as SplitWorkerData;
const control = new Int32Array(data.control);
const pixels = new Uint8Array(data.pixels);
const quads = new Float32Array(data.quads);

try {
  const cv = await loadOpenCV();
  const pass = await CandidatePass.create(data.options);
  port.postMessage({ type: 'ready' });
  for (;;) {
    Atomics.wait(control, 0, SplitState.Idle);
    const state = Atomics.load(control, 0);
    if (state === SplitState.Stop) break;
    if (state !== SplitState.Job) {
      Atomics.wait(control, 0, state);
      continue;
    }
    const started = performance.now();
    pass.tune(tuningOf(control));
    const width = control[1]!;
    const rows = control[2]!;
    let ok = false;
    const gray = new cv.Mat(rows, width, cv.CV_8UC1);
    try {
      (gray.data as Uint8Array).set(pixels.subarray(0, width * rows));
      ok = writeQuads(pass.run(gray), control, quads);
    } catch {
      ok = false;
    } finally {
      gray.delete();
    }
    control[HELPER_MICROS] = Math.round((performance.now() - started) * 1000);
    Atomics.store(control, 0, ok ? SplitState.Done : SplitState.Failed);
    Atomics.notify(control, 0);
    // Wait until the result is taken (back to idle) before looking for the next job.
    Atomics.wait(control, 0, ok ? SplitState.Done : SplitState.Failed);
  }
  pass.dispose();
} catch (err) {
  port.postMessage({ type: 'initError', message: err instanceof Error ? err.message : String(err) });
}
