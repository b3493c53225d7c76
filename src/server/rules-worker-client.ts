import type { Worker } from 'node:worker_threads';
import { OptionError } from '../rules/engine/options.ts';
import { QuestionError } from '../rules/engine/question.ts';
import { UnknownRulesetError } from '../rules/engine/registry.ts';
import { UnknownNameError } from '../table/table-state.ts';
import { startTsWorker } from '../vision/worker-start.ts';
import type { QuestionJob, RefereeAnswer } from './referee-answer.ts';
import type { RulesAnswerer } from './rules-answerer.ts';
import type { ThreatJob, ThreatOutcome } from './threat-answers.ts';

/**
 * The referee's questions and the threat views answered off the server's event loop. Some
 * verdicts take long (a D3 charge a few inches short on a crowded table searches hundreds of
 * thousands of runs: 0.1–0.5 s); answered on the server's own thread, each held the live loop, so
 * the picture froze while a view was worked out, and the streamer overlay, which asks the last
 * question again every second, could keep it held up to half of every second. One worker thread
 * answers them instead (rules-worker.ts); the server posts the scenario and the tracked poses (a
 * few kB).
 *
 * The worker is started by `warm()` or the first job. If it dies, every job waiting on it is
 * rejected and the next job starts a new one. Errors the routes turn into statuses keep their class.
 */

export type ToRulesWorker =
  | { readonly id: number; readonly type: 'threats'; readonly lane: string; readonly job: ThreatJob }
  | { readonly id: number; readonly type: 'question'; readonly job: QuestionJob };

export type FromRulesWorker =
  | { readonly id: number; readonly result: ThreatOutcome | RefereeAnswer }
  | { readonly id: number; readonly error: { name: string; message: string; stack: string } };

const WORKER_URL = new URL('./rules-worker.ts', import.meta.url);

/** The rules errors a route answers with a status, rebuilt with their class. */
const KNOWN_ERRORS: Readonly<Record<string, new (message: string) => Error>> = {
  OptionError,
  QuestionError,
  UnknownNameError,
  UnknownRulesetError,
};

function revive(e: { name: string; message: string; stack: string }): Error {
  const Known = KNOWN_ERRORS[e.name];
  const err = Known ? new Known(e.message) : new Error(e.message);
  err.name = e.name;
  if (e.stack) err.stack = `${e.stack}\n    (in the rules worker)`;
  return err;
}

interface Waiter {
  readonly worker: Worker;
  readonly resolve: (r: ThreatOutcome | RefereeAnswer) => void;
  readonly reject: (e: Error) => void;
}

export class RulesWorker implements RulesAnswerer {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Waiter>();
  private closed = false;

  constructor(private readonly name = 'vedette-rules') {}

  threats(job: ThreatJob, lane: string): Promise<ThreatOutcome> {
    return this.post({ id: ++this.nextId, type: 'threats', lane, job }) as Promise<ThreatOutcome>;
  }

  question(job: QuestionJob): Promise<RefereeAnswer> {
    return this.post({ id: ++this.nextId, type: 'question', job }) as Promise<RefereeAnswer>;
  }

  /** Starts the thread now (it takes about a second to load the rules) so the first question is answered at once. */
  warm(): void {
    if (!this.closed && !this.worker) this.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('rules worker closed'));
    if (worker) await worker.terminate();
  }

  private post(message: ToRulesWorker): Promise<ThreatOutcome | RefereeAnswer> {
    if (this.closed) return Promise.reject(new Error('rules worker closed'));
    const worker = this.worker ?? this.start();
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { worker, resolve, reject });
      worker.ref(); // kept alive while it has work (an idle worker is unref'd below)
      try {
        worker.postMessage(message);
      } catch (err) {
        this.pending.delete(message.id);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  private start(): Worker {
    const worker = startTsWorker(WORKER_URL, null, this.name);
    // An idle worker does not keep the process alive (a command that answered can exit).
    worker.unref();
    worker.on('message', (reply: FromRulesWorker) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiter) return;
      if ('result' in reply) waiter.resolve(reply.result);
      else waiter.reject(revive(reply.error));
    });
    const died = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(err, worker);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`rules worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Rejects the jobs posted to `worker` (to any worker when not given). */
  private failAll(err: Error, worker?: Worker): void {
    for (const [id, waiter] of this.pending)
      if (!worker || waiter.worker === worker) {
        this.pending.delete(id);
        waiter.reject(err);
      }
  }
}
