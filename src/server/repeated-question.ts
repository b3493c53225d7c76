import type { BasePose } from '../table/table-state.ts';
import type { QuestionJob, RefereeAnswer } from './referee-answer.ts';
import type { RulesAnswerer } from './rules-answerer.ts';

/** Whether two pose maps hold the very same numbers for the very same markers (Object.is). */
export function samePoses(
  a: ReadonlyMap<number, BasePose> | undefined,
  b: ReadonlyMap<number, BasePose> | undefined,
): boolean {
  if (a === b) return true;
  if (!a || !b || a.size !== b.size) return false;
  for (const [id, p] of a) {
    const q = b.get(id);
    if (
      !q ||
      !Object.is(p.x, q.x) ||
      !Object.is(p.y, q.y) ||
      !Object.is(p.headingDeg, q.headingDeg) ||
      !Object.is(p.sigmaMm, q.sigmaMm) ||
      !Object.is(p.sigmaHeadingDeg, q.sigmaHeadingDeg)
    )
      return false;
  }
  return true;
}

const sameJob = (a: QuestionJob, b: QuestionJob): boolean =>
  a.request === b.request &&
  a.scenario === b.scenario &&
  samePoses(a.poses, b.poses) &&
  samePoses(a.turnStartPoses, b.turnStartPoses);

/**
 * The referee's last question, remembered with the table it was answered for. The streamer
 * overlay asks it again every second; a still table's tracked poses are the very same numbers
 * from frame to frame, so the answer is too, and the rules worker need not work it out again (a
 * D3 charge a few inches short on a crowded table costs it 0.1–0.5 s). Any change of the poses,
 * the table at the start of the turn, the scenario or the question (a new request object) asks
 * again; an answer that failed is not kept. Callers asking at once share one answer.
 */
export class RepeatedQuestion implements Pick<RulesAnswerer, 'question'> {
  private last: { readonly job: QuestionJob; readonly answer: Promise<RefereeAnswer> } | null = null;

  constructor(private readonly rules: Pick<RulesAnswerer, 'question'>) {}

  question(job: QuestionJob): Promise<RefereeAnswer> {
    const last = this.last;
    if (last && sameJob(last.job, job)) return last.answer;
    const answer = this.rules.question(job);
    const entry = { job, answer };
    this.last = entry;
    answer.catch(() => {
      if (this.last === entry) this.last = null;
    });
    return answer;
  }

  forget(): void {
    this.last = null;
  }
}
