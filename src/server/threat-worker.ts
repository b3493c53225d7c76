import { parentPort, workerData } from 'node:worker_threads';
import { answerThreatJob, type ThreatJob } from './threat-answers.ts';
import type { ThreatReply } from './threat-worker-client.ts';

/**
 * The threat worker's thread: answers one threat job at a time, in the order posted. The newest
 * job's id is read from memory shared with the server (`workerData`, one Int32): a job that is no
 * longer the newest stops at its next pair and answers `superseded`.
 */

const latest = new Int32Array(workerData as SharedArrayBuffer);
const port = parentPort;
if (!port) throw new Error('threat-worker.ts runs in a worker thread');

port.on('message', (message: { readonly id: number; readonly job: ThreatJob }) => {
  const { id, job } = message;
  answerThreatJob(job, () => Atomics.load(latest, 0) !== id).then(
    (outcome) => port.postMessage({ id, outcome } satisfies ThreatReply),
    (err: unknown) =>
      port.postMessage({
        id,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      } satisfies ThreatReply),
  );
});
