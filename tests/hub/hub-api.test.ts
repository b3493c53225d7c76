import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/hub/db/database.ts';
import { HubClient } from '../../src/hub/publish/hub-client.ts';
import { Outbox } from '../../src/hub/publish/outbox.ts';
import { RecordReader } from '../../src/hub/publish/record-reader.ts';
import type { IngestBatch } from '../../src/hub/protocol/ingest.ts';
import { startHub, type RunningHub } from '../../src/hub/server/hub-server.ts';
import { addTable } from '../../src/hub/store/tables.ts';
import { BattleStore } from '../../src/record/store.ts';
import { importBattleFile, validateBattleFile } from '../../src/record/transfer.ts';
import { ORGANISER } from './hub-harness.ts';
import { recordBattle } from './fixtures.ts';
import { skipWithoutPostgres, startPostgres, type TestPostgres } from './pg-harness.ts';

/**
 * The hub's API on a real PostgreSQL: ingestion stores each event once whatever is resent, a table
 * writes only its own battles, the archive finds and exports battles as `.vedette-battle` files
 * that import, and the roles, tokens, guess throttle, headers and origin checks hold.
 */

const skip = skipWithoutPostgres('the hub API tests');
const SPECTATOR = 'spectator-token-for-the-hub-tests';

describe.skipIf(skip)('hub API', () => {
  let postgres: TestPostgres;
  let databaseUrl = '';
  let pool: pg.Pool;
  let hub: RunningHub;
  let tokenA = '';
  let tokenB = '';
  const dirs: string[] = [];
  const tmp = (p: string) => {
    const d = mkdtempSync(join(tmpdir(), p));
    dirs.push(d);
    return d;
  };

  beforeAll(async () => {
    postgres = await startPostgres();
    databaseUrl = await postgres.createDatabase('hubapi');
    hub = await startHub({
      databaseUrl,
      port: 0,
      host: '127.0.0.1',
      tokens: { organiser: ORGANISER, spectator: SPECTATOR, public: false },
      guesses: { burst: 5, refillMs: 60_000 },
    });
    pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    tokenA = (await addTable(pool, { id: 'table-a', name: 'Table A', players: ['Alice Smith', 'Bob Jones'] }))
      .token;
    tokenB = (await addTable(pool, { id: 'table-b', players: ['Carol'] })).token;
  });

  afterAll(async () => {
    await hub?.close();
    await pool?.end();
    await postgres?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const call = async (path: string, init: RequestInit & { token?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
    const res = await fetch(`${hub.url}${path}`, { ...init, headers, redirect: 'manual' });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: res.status, json: json as Record<string, unknown>, headers: res.headers };
  };

  it('migrations are node-pg-migrate\u2019s, and running them again changes nothing', async () => {
    expect(await migrateDatabase(databaseUrl)).toEqual([]);
    const ran = await pool.query('SELECT name FROM pgmigrations');
    expect(ran.rows.map((r: { name: string }) => r.name)).toEqual(['1764000000000_hub-schema']);
  });

  it('replicates a recorded battle exactly once, even when every answer is lost once', async () => {
    const data = tmp('vedette-hub-api-');
    const started = Date.now() - 120_000;
    await recordBattle(data, { startedAt: started, durationMs: 60_000 });
    writeFileSync(join(data, 'hub-link.json'), JSON.stringify({ [new URL(hub.url).origin]: { since: 0 } }));
    // A client whose every first answer is lost after the hub stored the batch.
    class LossyClient extends HubClient {
      lost = 0;
      private readonly seen = new Set<string>();
      override async ingest(batch: IngestBatch) {
        const answer = await super.ingest(batch);
        const key = JSON.stringify([batch.moves?.[0]?.seq, batch.rulings?.[0]?.seq, batch.battle.digest]);
        if (!this.seen.has(key)) {
          this.seen.add(key);
          this.lost++;
          throw new Error('answer lost on the way back');
        }
        return answer;
      }
    }
    const client = new LossyClient(hub.url, tokenA);
    const outbox = new Outbox({
      dataDir: data,
      client,
      pollMs: 50,
      retryMinMs: 10,
      retryMaxMs: 50,
      maxRows: 40,
    });
    outbox.start();
    const store = BattleStore.inDataDir(data, { readonly: true });
    const local = store.listBattles()[0]!;
    const hubCount = async (kind: string) =>
      Number(
        (
          await pool.query(
            `SELECT count(*) AS n FROM ${kind} e JOIN battles b ON b.id = e.battle_id WHERE b.uid = $1 AND b.table_id = 'table-a'`,
            [local.uid],
          )
        ).rows[0].n,
      );
    const deadline = Date.now() + 60_000;
    while (
      Date.now() < deadline &&
      (outbox.status().state !== 'up to date' || (await hubCount('moves')) < local.moves)
    )
      await new Promise((r) => setTimeout(r, 50));
    await outbox.stop();
    const status = outbox.status();
    expect(client.lost).toBeGreaterThan(2);
    // After a lost answer the outbox asks the hub what it holds, so it goes on from there…
    expect(status.failures).toBe(client.lost);
    expect(await hubCount('moves')).toBe(local.moves);
    expect(await hubCount('rulings')).toBe(local.rulings);
    expect(await hubCount('keyframes')).toBe(store.keyframes(local.id).length);
    expect(await hubCount('snapshots')).toBe(store.snapshots(local.id).length);
    expect(await hubCount('annotations')).toBe(store.annotations(local.id).length);
    expect(await hubCount('marks')).toBe(store.marks(local.id).length);
    expect(store.snapshots(local.id).length).toBeGreaterThan(0);
    // …and a batch that does arrive twice (an answer given up on while the hub was still storing) is stored once.
    const reader = new RecordReader(join(data, 'battles.db'));
    const [battle] = reader.battles(0);
    const again = {
      battle: battle!.meta,
      moves: reader.rows('moves', battle!.id, 0, 30),
      rulings: reader.rows('rulings', battle!.id, 0, 5),
    } as IngestBatch;
    reader.close();
    const resent = await new HubClient(hub.url, tokenA).ingest(again);
    expect(resent.inserted.moves + resent.inserted.rulings).toBe(0);
    expect(resent.duplicates.moves).toBe(30);
    expect(resent.duplicates.rulings).toBe(5);
    expect(await hubCount('moves')).toBe(local.moves);

    // The archive finds it by player, ruleset, scenario and date, and not by others.
    const find = async (q: string) =>
      (
        (await call(`/hub/api/archive?${q}`, { token: SPECTATOR })).json['battles'] as Array<{ uid: string }>
      ).map((b) => b.uid);
    const day = new Date(started).toISOString().slice(0, 10);
    expect(await find('player=alice')).toEqual([local.uid]);
    expect(await find('player=nobody')).toEqual([]);
    expect(await find(`ruleset=${local.ruleset}&scenario=prestonpans&from=${day}&to=${day}`)).toEqual([
      local.uid,
    ]);
    expect(await find('ruleset=montrose')).toEqual([]);
    expect(await find('from=2001-01-01&to=2001-01-02')).toEqual([]);

    // The replay page's API answers with the hub's battle number and the same moves.
    const hubId = Number((await pool.query('SELECT id FROM battles WHERE uid = $1', [local.uid])).rows[0].id);
    const replay = await call(`/api/battles/${hubId}/replay`, { token: SPECTATOR });
    expect(replay.status).toBe(200);
    expect((replay.json['moves'] as unknown[]).length).toBe(local.moves);
    const snap = (replay.json['snapshots'] as Array<{ id: number }>)[0]!;
    const pic = await fetch(`${hub.url}/api/battles/${hubId}/snapshots/${snap.id}`, {
      headers: { Authorization: `Bearer ${SPECTATOR}` },
    });
    expect(pic.headers.get('content-type')).toBe('image/jpeg');

    // Exported as a .vedette-battle file: it validates and imports elsewhere with every event.
    const res = await fetch(`${hub.url}/api/battles/${hubId}/export?format=battle`, {
      headers: { Authorization: `Bearer ${SPECTATOR}` },
    });
    expect(res.status).toBe(200);
    const file = join(tmp('vedette-hub-export-'), 'out.vedette-battle');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    validateBattleFile(file).db.close();
    const elsewhere = BattleStore.inDataDir(tmp('vedette-hub-import-'));
    const imported = importBattleFile(elsewhere, file);
    expect(imported.uid).toBe(local.uid);
    expect(elsewhere.moves(imported.id).map(({ id: _id, ...m }) => m)).toEqual(
      store.moves(local.id).map(({ id: _id, ...m }) => m),
    );
    expect(elsewhere.rulings(imported.id).map((r) => r.verdict)).toEqual(
      store.rulings(local.id).map((r) => r.verdict),
    );
    expect(elsewhere.snapshots(imported.id).length).toBe(store.snapshots(local.id).length);
    elsewhere.close();
    store.close();
  });

  it('a table writes only its own battles', async () => {
    const reader = (await pool.query(`SELECT uid FROM battles WHERE table_id = 'table-a'`)).rows[0] as {
      uid: string;
    };
    const before = Number((await pool.query('SELECT count(*) AS n FROM moves')).rows[0].n);
    // Table B sends a battle with table A's battle uid: it becomes table B's own battle, A's is untouched.
    const data = tmp('vedette-hub-b-');
    await recordBattle(data, { startedAt: Date.now() - 30_000, durationMs: 10_000 });
    const r = new RecordReader(join(data, 'battles.db'));
    const [mine] = r.battles(0);
    const moves = r.rows('moves', mine!.id, 0, 5);
    r.close();
    const batch = { battle: { ...mine!.meta, uid: reader.uid }, moves };
    const asB = await call('/hub/api/ingest', {
      method: 'POST',
      token: tokenB,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(batch),
    });
    expect(asB.status).toBe(200);
    const owners = (
      await pool.query('SELECT table_id FROM battles WHERE uid = $1 ORDER BY table_id', [reader.uid])
    ).rows.map((x: { table_id: string }) => x.table_id);
    expect(owners).toEqual(['table-a', 'table-b']);
    expect(Number((await pool.query('SELECT count(*) AS n FROM moves')).rows[0].n)).toBe(
      before + moves.length,
    );
    // A table's state lists only its own battles.
    const state = await new HubClient(hub.url, tokenB).state();
    expect(state.table).toBe('table-b');
    expect(state.battles.map((b) => b.highWater.moves)).toEqual([moves.length]);
    // Spectators and the organiser do not ingest (it takes a table's token); bad batches are refused with the reason.
    for (const token of [SPECTATOR, ORGANISER]) {
      const refused = await call('/hub/api/ingest', {
        method: 'POST',
        token,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(batch),
      });
      expect(refused.status).toBe(403);
    }
    const bad = await call('/hub/api/ingest', {
      method: 'POST',
      token: tokenB,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...batch, moves: [{ ...moves[0], x: 'far' }] }),
    });
    expect(bad.status).toBe(400);
    expect(String(bad.json['error'])).toMatch(/moves\.0\.x/);
  });

  it('roles: spectators read, the organiser manages tables, nobody gets in without a token', async () => {
    expect((await call('/hub/api/board')).status).toBe(401);
    const board = await call('/hub/api/board', { token: SPECTATOR });
    expect(board.status).toBe(200);
    const tables = board.json['tables'] as Array<{ id: string; players: string[]; battle: unknown }>;
    expect(tables.map((t) => t.id)).toEqual(['table-a', 'table-b']);
    expect(tables[0]!.players).toEqual(['Alice Smith', 'Bob Jones']);
    expect((await call('/hub/api/tables', { method: 'POST', token: SPECTATOR })).status).toBe(403);
    expect((await call('/hub/api/tables', { token: tokenA })).status).toBe(403);
    const made = await call('/hub/api/tables', {
      method: 'POST',
      token: ORGANISER,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 'table-c', name: 'Table C' }),
    });
    expect(made.status).toBe(201);
    const tokenC = String(made.json['token']);
    expect((await new HubClient(hub.url, tokenC).state()).table).toBe('table-c');
    expect(
      (
        await call('/hub/api/tables', {
          method: 'POST',
          token: ORGANISER,
          headers: { 'Content-Type': 'application/json' },
          body: '{"id":"Bad Id"}',
        })
      ).status,
    ).toBe(400);
    // A link with ?token= leaves the token in a strict cookie and not in the address.
    const link = await call(`/hub/archive.html?token=${SPECTATOR}`, { headers: { Accept: 'text/html' } });
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe('/hub/archive.html');
    expect(link.headers.get('set-cookie')).toMatch(/vedette_hub=.*HttpOnly.*SameSite=Strict/i);
  });

  it('security: headers, foreign origins refused, a spectator cannot upload', async () => {
    const page = await call('/hub/api/board', { token: SPECTATOR });
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const foreign = await call('/hub/api/tables', {
      method: 'POST',
      token: ORGANISER,
      headers: { Origin: 'http://elsewhere.example', 'Content-Type': 'application/json' },
      body: '{"id":"table-x"}',
    });
    expect(foreign.status).toBe(403);
    const upgrade = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${hub.url.replace('http', 'ws')}${path}`, { headers });
        ws.on('open', () => (ws.close(), resolve(101)));
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('error', () => resolve(-1));
      });
    expect(
      await upgrade('/hub/live/table-a', {
        Authorization: `Bearer ${SPECTATOR}`,
        Origin: 'http://elsewhere.example',
      }),
    ).toBe(403);
    expect(await upgrade('/hub/live/table-a', { Authorization: `Bearer ${SPECTATOR}` })).toBe(101);
    expect(await upgrade('/hub/upload', { Authorization: `Bearer ${SPECTATOR}` })).toBe(403);
    expect(await upgrade('/hub/upload', { Authorization: `Bearer ${tokenA}` })).toBe(101);
  });

  it('throttles token guesses per address, before checking the token', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await call('/hub/api/board', { token: `guess-${i}-xxxxxxxxxxxx` })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    // Even the right token waits now: the guesser cannot tell a hit.
    expect((await call('/hub/api/board', { token: SPECTATOR })).status).toBe(429);
  });
});
