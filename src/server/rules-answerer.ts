import { answerQuestion, type QuestionJob, type RefereeAnswer } from './referee-answer.ts';
import { answerThreatJob, type ThreatJob, type ThreatOutcome } from './threat-answers.ts';

/**
 * What the referee and threat routes ask of the rules: one question, or a threat view. A view's
 * `lane` names who asks (one unit's view, the whole table): the newest job of a lane supersedes
 * the older ones still being answered, which stop at their next pair and resolve `superseded`.
 */
export interface RulesAnswerer {
  threats(job: ThreatJob, lane: string): Promise<ThreatOutcome>;
  /** Rejects with the rules' own error (UnknownNameError, OptionError…) when it cannot answer. */
  question(job: QuestionJob): Promise<RefereeAnswer>;
  close(): Promise<void>;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The answers on the calling thread, giving its event loop back between a view's pairs, so views
 * of several lanes (and questions) are answered side by side, pair by pair. The rules worker runs
 * one of these (rules-worker.ts); tests and tools may use it directly.
 */
export class InlineRules implements RulesAnswerer {
  private readonly latest = new Map<string, number>();
  private next = 0;

  async threats(job: ThreatJob, lane: string): Promise<ThreatOutcome> {
    const me = ++this.next;
    this.latest.set(lane, me);
    try {
      return await answerThreatJob(job, () => this.latest.get(lane) !== me, nextTurn);
    } finally {
      // A lane per page: forgotten once its newest job is done, so lanes do not pile up.
      if (this.latest.get(lane) === me) this.latest.delete(lane);
    }
  }

  async question(job: QuestionJob): Promise<RefereeAnswer> {
    return answerQuestion(job);
  }

  async close(): Promise<void> {}
}
