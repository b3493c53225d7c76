import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BattleSummary, ReplayData, SeekResult } from '../../src/record/types.ts';
import { startServer, type RunningServer } from '../../src/server/app.ts';

/** The live server records the battle it watches, and answers the battle routes. */

const dataDir = mkdtempSync(join(tmpdir(), 'vedette-live-rec-'));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    scenarioPath: 'scenarios/prestonpans-demo.json',
    source: { kind: 'synthetic', moving: false },
    record: { dataDir },
  });
  for (let i = 0; i < 600 && !server.loop.latest; i++) await new Promise((r) => setTimeout(r, 100));
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const json = async <T>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> => {
  const res = await fetch(server.url + path, init);
  return { status: res.status, body: (await res.json()) as T };
};
const post = (path: string, body: unknown) =>
  json<Record<string, unknown>>(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('recording in the live server', () => {
  it('records rulings, marks and notes with the battle being watched', { timeout: 120_000 }, async () => {
    const list = await json<{ recording: number; battles: BattleSummary[] }>('/api/battles');
    expect(list.body.recording).toBe(1);
    // Reading never writes: a GET is answered, not recorded; a player's POST keeps the ruling.
    expect((await fetch(`${server.url}/api/distance?a=lees&b=camerons`)).status).toBe(200);
    expect((await post('/api/distance', { a: 'lees', b: 'camerons' })).status).toBe(200);
    // A referee's ruling (answered in the rules worker) keeps the poses it was worked out from.
    const ruling = await post('/api/ask', { question: 'shoot', a: 'lees', b: 'camerons' });
    expect(ruling.status, JSON.stringify(ruling.body)).toBe(200);
    expect((await post('/api/battles/current/marks', { kind: 'turn', side: 'hanoverian' })).status).toBe(201);
    expect((await post('/api/battles/current/marks', { kind: 'sideways' })).status).toBe(400);
    expect(
      (await post('/api/battles/current/annotations', { text: 'Cope looks worried', x: 100, y: 200 })).status,
    ).toBe(201);
    // Frames keep coming: wait for the bases to settle (5 frames) and be recorded.
    let replay: ReplayData | null = null;
    for (let i = 0; i < 600; i++) {
      replay = (await json<ReplayData>('/api/battles/1/replay')).body;
      if (replay.moves.length >= 27) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(replay!.rulings).toHaveLength(2);
    expect(replay!.rulings[0]!.verdict).toMatchObject({
      ruleset: 'measure',
      question: 'distance',
      unit: 'in',
    });
    expect(replay!.rulings[0]!.inputs.poses.length).toBeGreaterThan(20);
    const shot = replay!.rulings[1]!;
    expect(shot.verdict).toStrictEqual((ruling.body as { verdict: unknown }).verdict);
    expect(shot.inputs.question).toBe('shoot lees camerons');
    expect(shot.inputs.poses).toHaveLength(27);
    expect(replay!.marks.map((m) => m.label)).toEqual(['Turn 1 · Hanoverian (Cope)']);
    expect(replay!.annotations[0]!.text).toBe('Cope looks worried');
    expect(replay!.moves.length).toBe(27); // a still table: each base settles once, and never again
    const state = await json<SeekResult>(`/api/battles/1/state?t=${Date.now()}`);
    expect(state.body.poses.length).toBe(27);
    expect((await json('/api/battles/9/replay')).status).toBe(404);
    expect((await json('/api/battles/1/state?t=soon')).status).toBe(400);

    // Export the battle and offer it back: refused, it is already here.
    const file = Buffer.from(
      await (await fetch(`${server.url}/api/battles/1/export?format=battle`)).arrayBuffer(),
    );
    expect(file.subarray(0, 15).toString()).toBe('SQLite format 3');
    const again = await json<{ error: string }>('/api/battles/import', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: file,
    });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatch(/already here as #1/);
    const junk = await json<{ error: string }>('/api/battles/import', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(4096, 7),
    });
    expect(junk.body.error).toMatch(/not an SQLite database/);

    // A new battle ends the first.
    const next = await post('/api/battles', { name: 'second game' });
    expect(next.status).toBe(201);
    const after = await json<{ recording: number; battles: BattleSummary[] }>('/api/battles');
    expect(after.body.recording).toBe(2);
    expect(after.body.battles[0]!.endedAt).not.toBeNull();
  });
});
