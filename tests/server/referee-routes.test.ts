import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refereeRoutes } from '../../src/server/referee-routes.ts';
import type { LiveFrame } from '../../src/server/live-loop.ts';
import type { RulesAnswerer } from '../../src/server/rules-answerer.ts';
import { RulesWorker } from '../../src/server/rules-worker-client.ts';
import { parseScenario } from '../../src/table/scenario.ts';
import { call, FakeContext, frameFromFile, serve } from './route-support.ts';

const file = JSON.parse(readFileSync('scenarios/black-powder-sample.json', 'utf8')) as Record<
  string,
  unknown
>;
const scenario = parseScenario(file);

describe('referee routes', () => {
  const ctx = new FakeContext(scenario, frameFromFile(scenario));
  let server: Awaited<ReturnType<typeof serve>>;
  // As the server answers: in the rules worker (counting the questions it is asked).
  const worker = new RulesWorker('test-referee');
  let questionsAsked = 0;
  const rules: RulesAnswerer = {
    threats: (job, lane) => worker.threats(job, lane),
    question: (job) => {
      questionsAsked += 1;
      return worker.question(job);
    },
    close: () => worker.close(),
  };
  beforeAll(async () => void (server = await serve(refereeRoutes(ctx, rules))));
  afterAll(async () => {
    await server.close();
    await rules.close();
  });
  const ask = (body: unknown) => call(`${server.url}/api/ask`, 'POST', body);

  it('lists every ruleset with its options', async () => {
    const r = await call(`${server.url}/api/rulesets`, 'GET');
    expect(r.status).toBe(200);
    const list = r.json['rulesets'] as Array<{ id: string; options: Array<{ name: string }> }>;
    expect(list.map((x) => x.id)).toEqual(expect.arrayContaining(['black-powder', 'prestonpans', 'd3']));
    expect(list.find((x) => x.id === 'black-powder')!.options.map((o) => o.name)).toContain('quarterReading');
    expect(r.json['scenarioRuleset']).toBe(scenario.ruleset);
  });

  it('answers "can A shoot B" with the verdict and the geometry to draw it', async () => {
    const r = await ask({
      ruleset: 'black-powder',
      question: 'shoot',
      a: 'lees',
      b: 'camerons',
    });
    expect(r.status).toBe(200);
    const v = r.json['verdict'] as {
      answer: string;
      value: number;
      limit: number;
      margin: number;
      between: unknown[];
    };
    expect(v.answer).toBe('yes');
    expect(v.limit).toBe(18);
    expect(v.value).toBeCloseTo(14.4, 1);
    expect(v.between).toHaveLength(2);
    const subject = r.json['subject'] as { frontQuarter: unknown[]; measuredFrom: unknown[] };
    expect(subject.frontQuarter.length).toBeGreaterThanOrEqual(3);
    expect(subject.measuredFrom).toHaveLength(4);
    expect(r.json['caution']).toBeNull();
  });

  it('names the wood that blocks sight', async () => {
    const r = await ask({
      ruleset: 'black-powder',
      question: 'see',
      a: 'lees',
      b: 'Camerons',
    });
    expect(r.status).toBe(200);
    expect((r.json['blockers'] as Array<{ label: string }>).map((b) => b.label)).toContain('Tranent Wood');
  });

  it('applies options and refuses bad ones, bad bodies, unknown units and rulesets', async () => {
    const ok = await ask({
      ruleset: 'black-powder',
      options: { quarterReading: 'diagonal' },
      question: 'shoot',
      a: 'lees',
      b: 'camerons',
    });
    expect((ok.json['verdict'] as { options: Record<string, unknown> }).options['quarterReading']).toBe(
      'diagonal',
    );
    const badOption = await ask({
      ruleset: 'black-powder',
      options: { nope: 1 },
      question: 'shoot',
      a: 'lees',
      b: 'camerons',
    });
    expect(badOption.status).toBe(400);
    expect(String(badOption.json['error'])).toMatch(/unknown option "nope"/);
    const badBody = await ask({
      question: 'dance',
      a: 'lees',
      extra: true,
    });
    expect(badBody.status).toBe(400);
    expect(badBody.json['issues']).toBeDefined();
    const unknown = await ask({
      question: 'shoot',
      a: 'lees',
      b: 'nobody',
    });
    expect(unknown.status).toBe(404);
    const noRuleset = await ask({
      ruleset: 'chess',
      question: 'shoot',
      a: 'lees',
      b: 'camerons',
    });
    expect(noRuleset.status).toBe(400);
    const noRule = await ask({
      ruleset: 'prestonpans',
      question: 'see',
      a: 'lees',
      b: 'camerons',
    });
    expect(noRule.status).toBe(400);
    expect(String(noRule.json['error'])).toMatch(/no rule/);
  });

  it('asks the last question again for the streamer overlay, and waits for a frame', async () => {
    const last = await call(`${server.url}/api/referee/last`, 'GET');
    expect((last.json['answer'] as { verdict: { question: string } }).verdict.question).toBe('shoot');
    const saved = ctx.frame;
    ctx.frame = undefined;
    const r = await ask({ question: 'shoot', a: 'lees', b: 'camerons' });
    expect(r.status).toBe(503);
    ctx.frame = saved;
  });

  it('works the last question out again only when the table changed', async () => {
    const asked = await ask({ question: 'shoot', a: 'lees', b: 'camerons' });
    expect(asked.status).toBe(200);
    const before = questionsAsked;
    // The streamer overlay, every second, on a still table: the answer is the one just given.
    for (let i = 0; i < 3; i++) {
      const again = await call(`${server.url}/api/referee/last`, 'GET');
      expect((again.json['answer'] as { verdict: unknown }).verdict).toEqual(asked.json['verdict']);
    }
    expect(questionsAsked).toBe(before);
    // One base moved a millimetre: asked again, and the answer follows it.
    const still = ctx.frame!;
    const result = still.snapshot.result;
    const moved = result.bases[0]!;
    const nudged: LiveFrame = {
      ...still,
      snapshot: {
        ...still.snapshot,
        result: { ...result, bases: result.bases.map((b) => (b === moved ? { ...b, y: b.y + 1 } : b)) },
      },
    };
    ctx.frame = nudged;
    try {
      const afterMove = await call(`${server.url}/api/referee/last`, 'GET');
      expect(questionsAsked).toBe(before + 1);
      expect((afterMove.json['answer'] as { verdict: { question: string } }).verdict.question).toBe('shoot');
      await call(`${server.url}/api/referee/last`, 'GET');
      expect(questionsAsked).toBe(before + 1);
    } finally {
      ctx.frame = still;
    }
    // Cleared: nothing to ask again.
    await call(`${server.url}/api/referee/last`, 'DELETE');
    expect((await call(`${server.url}/api/referee/last`, 'GET')).json['answer']).toBeNull();
    expect(questionsAsked).toBe(before + 1);
  });
});
