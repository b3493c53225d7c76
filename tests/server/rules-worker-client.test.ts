import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/rules-scenario.ts';
import { OptionError } from '../../src/rules/engine/options.ts';
import { UnknownRulesetError } from '../../src/rules/engine/registry.ts';
import { getRuleset } from '../../src/rules/index.ts';
import { answerQuestion, type QuestionJob } from '../../src/server/referee-answer.ts';
import type { AskRequest } from '../../src/server/referee-routes.ts';
import { InlineRules } from '../../src/server/rules-answerer.ts';
import { RulesWorker } from '../../src/server/rules-worker-client.ts';
import { answerThreatJob, type ThreatJob } from '../../src/server/threat-answers.ts';
import { fileObservations } from '../../src/table/measured-units.ts';
import { parseScenario, type Scenario } from '../../src/table/scenario.ts';
import { UnknownNameError, type BasePose } from '../../src/table/table-state.ts';

/**
 * The rules worker answers exactly what the same jobs answer on the caller's thread (threat views
 * and referee questions), leaves the caller's event loop idle while it works, lets the newest job
 * of a lane supersede the older ones, answers lanes side by side, and hands back the rules' own
 * errors with their class (the routes turn them into statuses).
 */

const sample = parseScenario(JSON.parse(readFileSync('scenarios/black-powder-sample.json', 'utf8')));

/** Every base at its file pose, as the live loop would have tracked it (with a small sigma). */
function posesOf(scenario: Scenario): Map<number, BasePose> {
  return new Map(
    fileObservations(scenario).map((o) => [
      o.markerId,
      { x: o.x, y: o.y, headingDeg: o.headingDeg, sigmaMm: 0.3, sigmaHeadingDeg: 0.2 },
    ]),
  );
}

function view(scenario: Scenario, ruleset: string, ask: ThreatJob['ask']): ThreatJob {
  return {
    scenario,
    poses: posesOf(scenario),
    frame: 12,
    ruleset,
    options: {},
    policy: getRuleset(ruleset).defaultPolicy,
    ask,
  };
}

const question = (request: AskRequest): QuestionJob => ({
  scenario: sample,
  poses: posesOf(sample),
  request,
});

const here = (j: ThreatJob) => answerThreatJob(j, () => false);
const RULESETS = ['black-powder', 'prestonpans', 'd3', 'oer-the-sea', 'montrose'];

describe('rules worker', () => {
  const worker = new RulesWorker('test-rules');
  afterAll(() => worker.close());

  for (const ruleset of RULESETS) {
    it(`${ruleset}: the worker's threat views and answers are the caller's own, to the last word`, async () => {
      const asks = [
        { unit: 'lees' },
        { unit: 'camerons' },
        { kind: 'shoot' as const },
        { kind: 'see' as const },
      ];
      for (const ask of asks) {
        const j = view(sample, ruleset, ask);
        const there = await worker.threats(j, 'unit' in ask ? 'unit' : 'table');
        expect(there, JSON.stringify(ask)).toStrictEqual(await here(j));
        expect('view' in there).toBe(true);
      }
      for (const kind of ['distance', 'shoot', 'charge', 'see'] as const) {
        const j = question({ ruleset, question: kind, a: 'lees', b: 'camerons' });
        const mine = (() => {
          try {
            return { answer: answerQuestion(j) };
          } catch (err) {
            return { error: `${(err as Error).name}: ${(err as Error).message}` };
          }
        })();
        const theirs = await worker.question(j).then(
          (answer) => ({ answer }),
          (err: Error) => ({ error: `${err.name}: ${err.message}` }),
        );
        expect(theirs, kind).toStrictEqual(mine);
      }
    });
  }

  it('hands back the rules errors with their class, and goes on answering', async () => {
    const fails = (request: AskRequest) => worker.question(question(request)).catch((e: unknown) => e);
    expect(await fails({ question: 'shoot', a: 'nobody', b: 'lees' })).toBeInstanceOf(UnknownNameError);
    expect(
      await fails({ question: 'shoot', a: 'lees', b: 'camerons', options: { noSuchOption: 1 } }),
    ).toBeInstanceOf(OptionError);
    expect(await fails({ ruleset: 'chess', question: 'shoot', a: 'lees', b: 'camerons' })).toBeInstanceOf(
      UnknownRulesetError,
    );
    const chess = { ...view(sample, 'black-powder', { unit: 'lees' }), ruleset: 'chess' };
    await expect(worker.threats(chess, 'unit')).rejects.toThrow(/no ruleset "chess"/);
    const next = await worker.question(question({ question: 'shoot', a: 'lees', b: 'camerons' }));
    expect(next.verdict.question).toBe('shoot');
  });

  it('a unit not on the table is answered as such', async () => {
    expect(await worker.threats(view(sample, 'black-powder', { unit: 'nobody' }), 'unit')).toStrictEqual({
      notOnTable: 'nobody is not on the table',
    });
  });

  it("leaves the caller's event loop idle while a long view is worked out", async () => {
    // A 60-unit table's whole-table sight: hundreds of ms of verdicts.
    const j = view(benchScenario(60, 11), 'black-powder', { kind: 'see' });
    await worker.threats(view(sample, 'black-powder', { kind: 'see' }), 'table'); // started and compiled
    const before = performance.eventLoopUtilization();
    const started = performance.now();
    const there = await worker.threats(j, 'table');
    const took = performance.now() - started;
    const use = performance.eventLoopUtilization(before);
    expect(there).toStrictEqual(await here(j));
    expect(took).toBeGreaterThan(100);
    console.log(
      `whole-table sight in the worker: ${took.toFixed(0)} ms, this thread's loop busy ${(use.utilization * 100).toFixed(1)} %`,
    );
    // This thread waited: a little work to post and receive, nothing like the view itself (answered
    // here, the same job keeps the loop busy all along: utilisation near 1).
    expect(use.utilization).toBeLessThan(0.5);
  });

  it('the newest job of a lane supersedes the older ones; other lanes are answered', async () => {
    const units = ['lees', 'camerons', 'ra'].map((unit) =>
      worker.threats(view(sample, 'black-powder', { unit }), 'unit'),
    );
    const table = worker.threats(view(sample, 'black-powder', { kind: 'shoot' }), 'table');
    const [a, b, c] = await Promise.all(units);
    expect(a).toStrictEqual({ superseded: true });
    expect(b).toStrictEqual({ superseded: true });
    expect(c && 'view' in c && 'unit' in c.view ? c.view.unit : c).toBe('ra');
    expect('view' in (await table)).toBe(true);
  });

  it('answers lanes side by side: a short view does not wait for a long one', async () => {
    const done: string[] = [];
    const long = worker
      .threats(view(benchScenario(60, 12), 'black-powder', { kind: 'see' }), 'table')
      .then(() => done.push('whole table'));
    const short = worker
      .threats(view(sample, 'black-powder', { unit: 'lees' }), 'unit')
      .then(() => done.push('one unit'));
    const ask = worker
      .question(question({ question: 'see', a: 'lees', b: 'camerons' }))
      .then(() => done.push('question'));
    await Promise.all([long, short, ask]);
    expect(done.at(-1)).toBe('whole table');
  });

  it('a worker that dies rejects the jobs it had; the next job starts a new one', async () => {
    const w = new RulesWorker('test-rules-dying');
    try {
      await w.question(question({ question: 'see', a: 'lees', b: 'camerons' }));
      // The thread stops as a crash would stop it (its handle is private: reached here on purpose).
      const thread = (w as unknown as { worker: { terminate(): Promise<number> } }).worker;
      const waiting = expect(
        w.threats(view(benchScenario(60, 13), 'black-powder', { kind: 'see' }), 'table'),
      ).rejects.toThrow(/exited/);
      await thread.terminate();
      await waiting;
      const next = await w.question(question({ question: 'see', a: 'lees', b: 'camerons' }));
      expect(next.verdict.question).toBe('see');
    } finally {
      await w.close();
    }
  });

  it('jobs waiting when it closes are rejected, and it answers no more', async () => {
    const w = new RulesWorker('test-rules-closing');
    const waiting = expect(w.threats(view(sample, 'black-powder', { unit: 'lees' }), 'unit')).rejects.toThrow(
      /closed/,
    );
    await w.close();
    await waiting;
    await expect(w.question(question({ question: 'see', a: 'lees', b: 'camerons' }))).rejects.toThrow(
      /closed/,
    );
  });

  it("answered inline, the same views on the caller's thread", async () => {
    const j = view(sample, 'd3', { unit: 'lees' });
    expect(await new InlineRules().threats(j, 'unit')).toStrictEqual(await here(j));
  });
});
