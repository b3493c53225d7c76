import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refereeRoutes } from '../../src/server/referee-routes.ts';
import type { TableThreatResponse, ThreatCell, ThreatResponse } from '../../src/server/threat-routes.ts';
import { threatRoutes } from '../../src/server/threat-routes.ts';
import { InlineRules } from '../../src/server/rules-answerer.ts';
import { RulesWorker } from '../../src/server/rules-worker-client.ts';
import { parseScenario } from '../../src/table/scenario.ts';
import { call, FakeContext, frameFromFile, serve } from './route-support.ts';

/**
 * The threat routes answer what the referee's own route answers pair by pair: every cell of a
 * unit's row and column is compared with POST /api/ask for the same pair (its answer, or its
 * refusal), under every ruleset; the whole-table view says yes exactly when some pair is yes.
 */

const scenario = parseScenario(JSON.parse(readFileSync('scenarios/black-powder-sample.json', 'utf8')));

const word = (c: ThreatCell | undefined): string =>
  c === undefined ? 'none' : 'verdict' in c ? c.verdict.answer : 'refused';

describe('threat routes', () => {
  const ctx = new FakeContext(scenario, frameFromFile(scenario));
  let server: Awaited<ReturnType<typeof serve>>;
  // As the server answers: both routes in one rules worker.
  const rules = new RulesWorker('test-threats');
  beforeAll(async () => void (server = await serve(refereeRoutes(ctx, rules), threatRoutes(ctx, rules))));
  afterAll(async () => {
    await server.close();
    await rules.close();
  });

  /** The referee route's answer for one pair: its answer word, or refused (any 4xx). */
  const asked = async (ruleset: string, question: string, a: string, b: string): Promise<string> => {
    const r = await call(`${server.url}/api/ask`, 'POST', { ruleset, question, a, b });
    if (r.status === 200) return (r.json['verdict'] as { answer: string }).answer;
    expect(r.status, JSON.stringify(r.json)).toBeGreaterThanOrEqual(400);
    return 'refused';
  };

  for (const ruleset of ['black-powder', 'prestonpans', 'd3', 'oer-the-sea', 'montrose']) {
    it(`${ruleset}: Lee's row and column equal /api/ask pair by pair`, async () => {
      const r = await call(`${server.url}/api/threats`, 'POST', { unit: 'lees', ruleset });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      const view = r.json as unknown as ThreatResponse;
      expect(view.ruleset).toBe(ruleset);
      const enemies = scenario.units.filter((u) => u.side !== 'government' && u.type !== 'commander');
      expect(view.pairs.map((p) => p.enemy)).toStrictEqual(enemies.map((e) => e.id));
      for (const p of view.pairs) {
        for (const kind of view.kinds)
          expect(word(p.from[kind]), `${kind} lees ${p.enemy}`).toBe(
            await asked(ruleset, kind, 'lees', p.enemy),
          );
        if (view.kinds.includes('shoot'))
          expect(word(p.shotBy), `shoot ${p.enemy} lees`).toBe(
            await asked(ruleset, 'shoot', p.enemy, 'lees'),
          );
      }
      if (ruleset === 'montrose') expect(view.kinds).toStrictEqual([]);
      else expect(view.kinds).toContain('shoot');
    });
  }

  it('whole table: a unit is a yes exactly when /api/ask says yes for some enemy', async () => {
    const r = await call(`${server.url}/api/threats/table`, 'POST', {
      kind: 'shoot',
      ruleset: 'black-powder',
    });
    expect(r.status).toBe(200);
    const table = r.json as unknown as TableThreatResponse;
    expect(table.answered).toBe(true);
    for (const u of table.units.filter((x) => ['lees', 'ra', 'camerons'].includes(x.unit))) {
      const side = scenario.units.find((x) => x.id === u.unit)!.side;
      const answers: string[] = [];
      for (const e of scenario.units.filter((x) => x.side !== side && x.type !== 'commander'))
        answers.push(await asked('black-powder', 'shoot', u.unit, e.id));
      const expected = answers.includes('yes') ? 'yes' : answers.includes('borderline') ? 'borderline' : 'no';
      expect(u.answer, u.unit).toBe(expected);
    }
    expect(table.units.some((u) => u.answer === 'yes')).toBe(true);
  });

  it('refuses what it cannot answer', async () => {
    expect((await call(`${server.url}/api/threats`, 'POST', { unit: 'nobody' })).status).toBe(404);
    expect((await call(`${server.url}/api/threats`, 'POST', { unit: 'lees', ruleset: 'chess' })).status).toBe(
      400,
    );
    expect((await call(`${server.url}/api/threats`, 'POST', { unit: 'lees', extra: 1 })).status).toBe(400);
    expect((await call(`${server.url}/api/threats/table`, 'POST', { kind: 'order' })).status).toBe(400);
  });

  it('answers 400 for an option the ruleset does not have, and goes on answering', async () => {
    const bad = await call(`${server.url}/api/threats`, 'POST', {
      unit: 'lees',
      ruleset: 'black-powder',
      options: { noSuchOption: true },
    });
    expect(bad.status, JSON.stringify(bad.json)).toBe(400);
    expect(String(bad.json['error'])).toMatch(/noSuchOption/);
    const good = await call(`${server.url}/api/threats`, 'POST', { unit: 'lees', ruleset: 'black-powder' });
    expect(good.status).toBe(200);
  });
});

describe('threat routes: superseded requests', () => {
  it('a newer request supersedes one still being answered (409), the newer one is answered', async () => {
    // Answered on this thread, the event loop given back between pairs, so the second request is
    // read while the first is being answered (the worker's own superseding, where a job can end
    // before the next request is read, is tested in rules-worker-client.test.ts).
    const ctx = new FakeContext(scenario, frameFromFile(scenario));
    const inline = new InlineRules();
    const server = await serve(threatRoutes(ctx, inline));
    try {
      const first = call(`${server.url}/api/threats`, 'POST', { unit: 'lees', ruleset: 'black-powder' });
      const second = call(`${server.url}/api/threats`, 'POST', { unit: 'camerons', ruleset: 'black-powder' });
      const [a, b] = await Promise.all([first, second]);
      expect(a.status).toBe(409);
      expect(b.status).toBe(200);
      expect((b.json as unknown as ThreatResponse).unit).toBe('camerons');
      // Two players' pages (two clients) never cancel each other; one page's newer request does.
      const ask = (client: string, unit: string) =>
        call(`${server.url}/api/threats`, 'POST', { client, unit, ruleset: 'black-powder' });
      const [p1, p2] = await Promise.all([ask('page-1', 'lees'), ask('page-2', 'camerons')]);
      expect([p1.status, p2.status]).toStrictEqual([200, 200]);
      const [old, fresh] = await Promise.all([ask('page-1', 'lees'), ask('page-1', 'camerons')]);
      expect([old.status, fresh.status]).toStrictEqual([409, 200]);
    } finally {
      await server.close();
    }
  });
});
