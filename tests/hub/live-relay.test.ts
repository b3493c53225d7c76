import { createHash } from 'node:crypto';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type RunningHub } from '../../src/hub/server/hub-server.ts';
import { addTable } from '../../src/hub/store/tables.ts';
import { ORGANISER, until } from './hub-harness.ts';
import { tinyJpeg } from './fixtures.ts';
import { skipWithoutPostgres, startPostgres, type TestPostgres } from './pg-harness.ts';

/**
 * The live relay passes every message a table uploads to every viewer unchanged and in order —
 * on the hub process that holds the upload and, through PostgreSQL, on another — including
 * message types the hub has never heard of (a table's future threat overlays), so they reach
 * viewers the day a table sends them. A viewer arriving late gets the table's hello and latest
 * frame at once; a table's newer upload replaces its older one.
 */

const skip = skipWithoutPostgres('the hub live relay test');

interface Got {
  readonly binary: boolean;
  readonly digest: string;
}

function viewer(hub: RunningHub, table: string): { got: Got[]; ws: WebSocket; open: Promise<void> } {
  const got: Got[] = [];
  const ws = new WebSocket(`${hub.url.replace('http', 'ws')}/hub/live/${table}`);
  ws.on('message', (data, binary) =>
    got.push({
      binary,
      digest: createHash('sha1')
        .update(data as Buffer)
        .digest('hex'),
    }),
  );
  return { got, ws, open: new Promise((r) => ws.once('open', () => r())) };
}

describe.skipIf(skip)('hub live relay', () => {
  let postgres: TestPostgres;
  let hub1: RunningHub;
  let hub2: RunningHub;
  let token = '';

  beforeAll(async () => {
    postgres = await startPostgres();
    const databaseUrl = await postgres.createDatabase('relay');
    const tokens = { organiser: ORGANISER, spectator: null, public: true };
    hub1 = await startHub({ databaseUrl, port: 0, host: '127.0.0.1', tokens });
    hub2 = await startHub({ databaseUrl, port: 0, host: '127.0.0.1', tokens, migrate: false });
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    token = (await addTable(pool, { id: 'table-1' })).token;
    await pool.end();
  });

  afterAll(async () => {
    await hub1?.close();
    await hub2?.close();
    await postgres?.stop();
  });

  it(
    'fans out every message unchanged, in order, within and across processes',
    { timeout: 60_000 },
    async () => {
      const here = viewer(hub1, 'table-1');
      const there = viewer(hub2, 'table-1');
      await Promise.all([here.open, there.open]);
      await new Promise((r) => setTimeout(r, 300)); // hub 2 has said it watches table-1
      const upload = new WebSocket(`${hub1.url.replace('http', 'ws')}/hub/upload`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      await new Promise((r) => upload.once('open', r));
      const sent: Array<{ data: Buffer; binary: boolean }> = [];
      const send = (data: Buffer, binary: boolean) => {
        sent.push({ data, binary });
        upload.send(data, { binary });
      };
      send(Buffer.from(JSON.stringify({ type: 'hello', scenario: 'Test', source: 'synthetic' })), false);
      for (let i = 0; i < 12; i++) {
        send(await tinyJpeg(40 + i * 10), true);
        send(
          Buffer.from(JSON.stringify({ type: 'state', frame: i, timestamp: Date.now(), units: [] })),
          false,
        );
        // A message type no table sends yet: it must pass as it is.
        if (i % 4 === 1)
          send(
            Buffer.from(
              JSON.stringify({
                type: 'threats',
                zones: [
                  {
                    unit: 'lees',
                    reach: [
                      [0, 0],
                      [1, 1],
                    ],
                  },
                ],
                i,
              }),
            ),
            false,
          );
        await new Promise((r) => setTimeout(r, 60));
      }
      const expected = sent.map((m) => ({
        binary: m.binary,
        digest: createHash('sha1').update(m.data).digest('hex'),
      }));
      await until(
        'both viewers got every message',
        () => here.got.length >= sent.length && there.got.length >= sent.length,
        30_000,
        50,
        () => JSON.stringify({ here: here.got.length, there: there.got.length, sent: sent.length }),
      );
      expect(here.got).toEqual(expected);
      expect(there.got).toEqual(expected);

      // A viewer arriving now sees the table at once: its hello, then its latest frame and that frame's state.
      const late = viewer(hub1, 'table-1');
      await late.open;
      await until('the late viewer primed', () => late.got.length >= 3, 10_000, 20);
      const last = sent.length - 1 - [...sent].reverse().findIndex((m) => m.binary);
      expect(late.got.slice(0, 3)).toEqual([expected[0], expected[last], expected[last + 1]]);

      // A newer upload of the same table replaces the older one.
      const closed = new Promise<number>((r) => upload.once('close', (code) => r(code)));
      const again = new WebSocket(`${hub2.url.replace('http', 'ws')}/hub/upload`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      await new Promise((r) => again.once('open', r));
      again.send(Buffer.from('{"type":"hello","scenario":"Again","source":"x"}'), { binary: false });
      // hub 1 learns through the database that table-1 now uploads elsewhere only when its old socket goes: the table closes it.
      upload.close();
      expect(await closed).toBeGreaterThan(0);
      await until(
        'the new upload reaches the viewer on hub 1',
        () =>
          here.got.some(
            (g) =>
              g.digest ===
              createHash('sha1').update('{"type":"hello","scenario":"Again","source":"x"}').digest('hex'),
          ),
        20_000,
        50,
      );
      for (const ws of [here.ws, there.ws, late.ws, again]) ws.close();
    },
  );
});
