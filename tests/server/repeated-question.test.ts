import { describe, expect, it } from 'vitest';
import type { QuestionJob, RefereeAnswer } from '../../src/server/referee-answer.ts';
import type { AskRequest } from '../../src/server/referee-routes.ts';
import { RepeatedQuestion, samePoses } from '../../src/server/repeated-question.ts';
import type { Scenario } from '../../src/table/scenario.ts';
import type { BasePose } from '../../src/table/table-state.ts';

const pose = (x: number): BasePose => ({ x, y: 10, headingDeg: 0, sigmaMm: 0.1, sigmaHeadingDeg: 0.2 });
const poses = (...xs: number[]) => new Map(xs.map((x, i) => [i, pose(x)]));

/** Counts the questions it is asked; answers each with a token naming the call, or fails on demand. */
function countingRules() {
  const calls: QuestionJob[] = [];
  let failNext = false;
  return {
    calls,
    failNext: () => void (failNext = true),
    question(job: QuestionJob): Promise<RefereeAnswer> {
      calls.push(job);
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('unknown unit'));
      }
      return Promise.resolve({ unitIds: [String(calls.length)] } as unknown as RefereeAnswer);
    },
  };
}

describe('RepeatedQuestion', () => {
  const scenario = {} as Scenario;
  const request = { question: 'shoot', a: 'a', b: 'b' } as AskRequest;
  const job = (p: Map<number, BasePose>, extra: Partial<QuestionJob> = {}): QuestionJob => ({
    scenario,
    request,
    poses: p,
    ...extra,
  });

  it('answers a still table once, and again after any change', async () => {
    const rules = countingRules();
    const repeated = new RepeatedQuestion(rules);
    const first = await repeated.question(job(poses(1, 2)));
    // Equal numbers in a new map (the next frame's poses): the same answer.
    expect(await repeated.question(job(poses(1, 2)))).toBe(first);
    expect(rules.calls).toHaveLength(1);
    await repeated.question(job(poses(1, 2.0000001)));
    expect(rules.calls).toHaveLength(2);
    await repeated.question(job(poses(1, 2.0000001), { turnStartPoses: poses(0) }));
    expect(rules.calls).toHaveLength(3);
    await repeated.question(job(poses(1, 2.0000001), { request: { ...request } }));
    expect(rules.calls).toHaveLength(4);
    await repeated.question(job(poses(1, 2.0000001), { scenario: {} as Scenario }));
    expect(rules.calls).toHaveLength(5);
    repeated.forget();
    await repeated.question(job(poses(1, 2.0000001), { scenario: {} as Scenario }));
    expect(rules.calls).toHaveLength(6);
  });

  it('shares one answer between callers asking at once, and keeps no failure', async () => {
    const rules = countingRules();
    const repeated = new RepeatedQuestion(rules);
    const [a, b] = await Promise.all([repeated.question(job(poses(1))), repeated.question(job(poses(1)))]);
    expect(a).toBe(b);
    expect(rules.calls).toHaveLength(1);
    rules.failNext();
    await expect(repeated.question(job(poses(3)))).rejects.toThrow('unknown unit');
    await repeated.question(job(poses(3)));
    expect(rules.calls).toHaveLength(3);
  });

  it('compares poses number for number', () => {
    expect(samePoses(poses(1, 2), poses(1, 2))).toBe(true);
    expect(samePoses(undefined, undefined)).toBe(true);
    expect(samePoses(poses(1), undefined)).toBe(false);
    expect(samePoses(poses(1), poses(1, 2))).toBe(false);
    expect(samePoses(new Map([[5, pose(1)]]), new Map([[6, pose(1)]]))).toBe(false);
    expect(samePoses(poses(0), poses(-0))).toBe(false);
    expect(samePoses(new Map([[0, { ...pose(1), sigmaHeadingDeg: 0.3 }]]), poses(1))).toBe(false);
  });
});
