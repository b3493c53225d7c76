import { parentPort } from 'node:worker_threads';
import { InlineRules } from './rules-answerer.ts';
import type { RefereeAnswer } from './referee-answer.ts';
import type { FromRulesWorker, ToRulesWorker } from './rules-worker-client.ts';
import type { ThreatOutcome } from './threat-answers.ts';

/**
 * The rules worker's thread: answers what the server posts (rules-worker-client.ts) with an
 * `InlineRules`, so views are answered side by side, pair by pair, the newest of a lane
 * superseding the older (messages arrive in the order posted and are read between pairs).
 */

const port = parentPort;
if (!port) throw new Error('rules-worker.ts runs in a worker thread');
const rules = new InlineRules();

port.on('message', (message: ToRulesWorker) => {
  const { id } = message;
  const answer: Promise<ThreatOutcome | RefereeAnswer> =
    message.type === 'threats' ? rules.threats(message.job, message.lane) : rules.question(message.job);
  answer.then(
    (result) => port.postMessage({ id, result } satisfies FromRulesWorker),
    (err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      port.postMessage({
        id,
        error: { name: e.name, message: e.message, stack: e.stack ?? '' },
      } satisfies FromRulesWorker);
    },
  );
});
