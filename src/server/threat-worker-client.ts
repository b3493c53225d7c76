import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../vision/worker-start.ts';
import { answerThreatJob, type ThreatJob, type ThreatOutcome } from './threat-answers.ts';

/**
 * Threat views answered off the server's event loop. A view asks one verdict per pair, and some
 * verdicts take a long time (a D3 charge a few inches short on a crowded table searches hundreds
 * of thousands of runs: 0.1–0.5 s); answered on the server's own thread, each held the live loop,
 * so the picture froze while a player's threat view was worked out. A worker thread answers them
 * instead; the server only checks the request and posts the table (scenario and poses, a few kB).
 *
 * One job is answered at a time, in order; `ask` makes its job the newest and every older job
 * still queued or being answered stops at its next pair and resolves `superseded` (the newest
 * job's id is shared memory the worker reads between pairs). The worker is started on the first
 * job; if it dies, every job waiting on it is rejected and the next job starts a new one.
 */

export type ThreatReply =
  { readonly id: number; readonly outcome: ThreatOutcome } | { readonly id: number; readonly error: string };

/** What the threat routes need: answer a job (the newest supersedes those before it). */
export interface ThreatAnswerer {
  ask(job: ThreatJob): Promise<ThreatOutcome>;
  close(): Promise<void>;
}

const WORKER_URL = new URL('./threat-worker.ts', import.meta.url);

interface Waiter {
  readonly resolve: (o: ThreatOutcome) => void;
  readonly reject: (e: Error) => void;
}

export class ThreatWorker implements ThreatAnswerer {
  private worker: Worker | null = null;
  private readonly latest = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 0;
  private readonly pending = new Map<number, Waiter>();
  private closed = false;

  constructor(private readonly name = 'vedette-threats') {}

  ask(job: ThreatJob): Promise<ThreatOutcome> {
    if (this.closed) return Promise.reject(new Error('threat worker closed'));
    const id = ++this.nextId;
    Atomics.store(this.latest, 0, id);
    const worker = this.worker ?? this.start();
    return new Promise<ThreatOutcome>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, job });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('threat worker closed'));
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    const worker = startTsWorker(WORKER_URL, this.latest.buffer, this.name);
    // An idle worker does not keep the process alive (a command that answered and returns exits).
    worker.unref();
    worker.on('message', (reply: ThreatReply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (!waiter) return;
      if ('outcome' in reply) waiter.resolve(reply.outcome);
      else waiter.reject(new Error(`threat worker: ${reply.error}`));
    });
    const died = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(err);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`threat worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }
}

/**
 * The same answers on the caller's own thread, the event loop given back between pairs
 * (setImmediate); a newer job supersedes older ones. For tools and tests that want no thread.
 */
export class InlineThreatAnswerer implements ThreatAnswerer {
  private latest = 0;
  ask(job: ThreatJob): Promise<ThreatOutcome> {
    const me = ++this.latest;
    return answerThreatJob(
      job,
      () => me !== this.latest,
      () => new Promise((resolve) => setImmediate(resolve)),
    );
  }
  async close(): Promise<void> {}
}
