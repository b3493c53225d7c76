import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { benchScenario } from '../../bench/rules-scenario.ts';
import { getRuleset } from '../../src/rules/index.ts';
import { answerThreatJob, type ThreatJob } from '../../src/server/threat-answers.ts';
import { InlineThreatAnswerer, ThreatWorker } from '../../src/server/threat-worker-client.ts';
import { fileObservations } from '../../src/table/measured-units.ts';
import { parseScenario, type Scenario } from '../../src/table/scenario.ts';
import type { BasePose } from '../../src/table/table-state.ts';

/**
 * The threat worker answers exactly what the same job answers on the caller's thread, leaves the
 * caller's event loop idle while it works, lets the newest job supersede older ones, and turns a
 * job it cannot answer into a rejection without losing the jobs after it.
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

function job(scenario: Scenario, ruleset: string, ask: ThreatJob['ask']): ThreatJob {
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

const here = (j: ThreatJob) => answerThreatJob(j, () => false);

describe('threat worker', () => {
  const worker = new ThreatWorker('test-threats');
  afterAll(() => worker.close());

  for (const ruleset of ['black-powder', 'prestonpans', 'd3', 'oer-the-sea', 'montrose']) {
    it(`${ruleset}: the worker's views are the caller's own, to the last word`, async () => {
      for (const ask of [
        { unit: 'lees' },
        { unit: 'camerons' },
        { kind: 'shoot' as const },
        { kind: 'see' as const },
      ]) {
        const j = job(sample, ruleset, ask);
        const there = await worker.ask(j);
        expect(there, JSON.stringify(ask)).toStrictEqual(await here(j));
        expect('view' in there).toBe(true);
      }
    });
  }

  it('a unit not on the table is answered as such', async () => {
    expect(await worker.ask(job(sample, 'black-powder', { unit: 'nobody' }))).toStrictEqual({
      notOnTable: 'nobody is not on the table',
    });
  });

  it("leaves the caller's event loop idle while a long view is worked out", async () => {
    // A 60-unit table's whole-table sight: hundreds of ms of verdicts.
    const big = benchScenario(60, 11);
    const j = job(big, 'black-powder', { kind: 'see' });
    await worker.ask(job(sample, 'black-powder', { kind: 'see' })); // the worker started and compiled
    const before = performance.eventLoopUtilization();
    const started = performance.now();
    const there = await worker.ask(j);
    const took = performance.now() - started;
    const use = performance.eventLoopUtilization(before);
    const inline = await here(j);
    expect(there).toStrictEqual(inline);
    expect(took).toBeGreaterThan(100);
    console.log(
      `whole-table sight in the worker: ${took.toFixed(0)} ms, this thread's loop busy ${(use.utilization * 100).toFixed(1)} %`,
    );
    // This thread waited: a little work to post and receive, nothing like the view itself (answered
    // here, the same job keeps the loop busy all along: utilisation near 1).
    expect(
      use.utilization,
      `utilisation ${use.utilization.toFixed(3)} over ${took.toFixed(0)} ms`,
    ).toBeLessThan(0.5);
  });

  it('the newest job supersedes the ones before it; each is answered in turn', async () => {
    const jobs = ['lees', 'camerons', 'ra'].map((unit) => worker.ask(job(sample, 'black-powder', { unit })));
    const [a, b, c] = await Promise.all(jobs);
    expect(a).toStrictEqual({ superseded: true });
    expect(b).toStrictEqual({ superseded: true });
    expect(c && 'view' in c && 'unit' in c.view ? c.view.unit : c).toBe('ra');
  });

  it('a job it cannot answer is rejected with the reason; the next job is answered', async () => {
    const chess = { ...job(sample, 'black-powder', { unit: 'lees' }), ruleset: 'chess' };
    await expect(worker.ask(chess)).rejects.toThrow(/no ruleset "chess"/);
    const next = await worker.ask(job(sample, 'black-powder', { unit: 'lees' }));
    expect('view' in next).toBe(true);
  });

  it('jobs waiting when it closes are rejected, and it answers no more', async () => {
    const w = new ThreatWorker('test-threats-closing');
    const waiting = expect(w.ask(job(sample, 'black-powder', { unit: 'lees' }))).rejects.toThrow(/closed/);
    await w.close();
    await waiting;
    await expect(w.ask(job(sample, 'black-powder', { unit: 'lees' }))).rejects.toThrow(/closed/);
  });

  it("the inline answerer gives the same views on the caller's thread", async () => {
    const inline = new InlineThreatAnswerer();
    const j = job(sample, 'd3', { unit: 'lees' });
    expect(await inline.ask(j)).toStrictEqual(await here(j));
  });
});
