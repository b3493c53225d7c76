import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../src/server/app.ts';

const demo = JSON.parse(readFileSync('scenarios/prestonpans-demo.json', 'utf8')) as {
  units: Array<{ bases: Array<Record<string, unknown>> }>;
};

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    scenarioPath: 'scenarios/prestonpans-demo.json',
    source: { kind: 'synthetic', moving: false },
  });
  // Wait for the first processed frame.
  for (let i = 0; i < 300 && !server.loop.latest; i++) await new Promise((r) => setTimeout(r, 100));
});

afterAll(async () => {
  await server?.close();
});

async function post(path: string, body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('server', () => {
  it('answers distances over REST', async () => {
    // The first frames settle the table pose (measurements are marked invalid until it is confirmed).
    let res = await fetch(`${server.url}/api/distance?a=lees&b=murrays`);
    let body = (await res.json()) as { distanceIn: number; valid: boolean };
    for (let i = 0; i < 300 && !body.valid; i++) {
      await new Promise((r) => setTimeout(r, 100));
      res = await fetch(`${server.url}/api/distance?a=lees&b=murrays`);
      body = (await res.json()) as { distanceIn: number; valid: boolean };
    }
    expect(res.status).toBe(200);
    expect(body.valid).toBe(true);
    expect(body.distanceIn).toBeGreaterThan(0);
  });

  it('refuses an unknown unit with 404', async () => {
    const res = await fetch(`${server.url}/api/distance?a=lees&b=nobody`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toMatch(/nobody/);
  });

  it('refuses bad scenarios naming the field, and keeps running', async () => {
    const duplicate = structuredClone(demo);
    duplicate.units[1]!.bases[0]!.marker = { id: 10, size: 32 };
    const unknown = structuredClone(demo);
    unknown.units[0]!.bases[0]!.glue = 'pva';
    const negative = structuredClone(demo);
    negative.units[0]!.bases[2]!.depth = -1;
    const cases: Array<[string, RegExp]> = [
      [JSON.stringify(duplicate), /units\.1\.bases\.0\.marker\.id: marker id 10 is used twice/],
      [JSON.stringify(unknown), /units\.0\.bases\.0: unknown field\(s\): glue/],
      [JSON.stringify(negative), /units\.0\.bases\.2\.depth: base depth must be > 0/],
      ['{"name": "broken', /JSON/i],
    ];
    for (const [body, message] of cases) {
      const res = await post('/api/scenario', body);
      expect(res.status).toBe(400);
      expect(String(res.json.error)).toMatch(message);
    }
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(server.scenario().name).toMatch(/Prestonpans/);
  });

  it('streams frames and state, validates messages, and keeps going after bad ones', async () => {
    const ws = new WebSocket(server.url.replace('http', 'ws') + '/live');
    const received: Array<{ binary: boolean; json?: { type: string; [k: string]: unknown } }> = [];
    ws.on('message', (data, isBinary) => {
      received.push(isBinary ? { binary: true } : { binary: false, json: JSON.parse(data.toString()) });
    });
    await new Promise((r) => ws.once('open', r));
    ws.send('not json');
    ws.send(JSON.stringify({ type: 'measure', a: 'lees' }));
    ws.send(JSON.stringify({ type: 'measure', a: 'lees', b: 'ghosts' }));
    ws.send(JSON.stringify({ type: 'measure', a: 'lees', b: 'camerons' }));
    const deadline = Date.now() + 60_000;
    const done = () =>
      received.some((m) => m.binary) && received.some((m) => m.json?.type === 'state' && m.json.measurement);
    while (Date.now() < deadline && !done()) {
      await new Promise((r) => setTimeout(r, 100));
    }
    ws.close();
    const errors = received.filter((m) => m.json?.type === 'error').map((m) => String(m.json!.message));
    expect(errors).toEqual([
      'message is not valid JSON',
      expect.stringMatching(/bad message/),
      'unknown unit: ghosts',
    ]);
    expect(received.some((m) => m.binary)).toBe(true);
    const state = received.find((m) => m.json?.type === 'state' && m.json.measurement)!.json!;
    expect((state.measurement as { a: string; b: string }).b).toBe('camerons');
  });
});
