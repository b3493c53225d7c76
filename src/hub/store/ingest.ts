import type pg from 'pg';
import {
  EVENT_KINDS,
  zeroCounts,
  type EventKind,
  type IngestResult,
  type IngestState,
  type KindCounts,
  type ParsedIngestBatch,
} from '../protocol/ingest.ts';
import { EVENT_COLUMNS, EVENT_COLUMN_TYPES } from './event-columns.ts';

/**
 * Ingestion: one table's batch for one battle, in one transaction. The battle row is made or
 * updated (a table only ever reaches battles under its own id: `tableId` comes from its token,
 * never from the body); each event is inserted with ON CONFLICT DO NOTHING on (battle, seq), so a
 * batch sent twice — after a lost answer, a cut network, a hub restart — is stored once.
 */

type Cell = string | number | boolean | null | Buffer;

function rowsOf(batch: ParsedIngestBatch, kind: EventKind): Array<{ seq: number; cells: Cell[] }> {
  switch (kind) {
    case 'moves':
      return batch.moves.map((m) => ({
        seq: m.seq,
        cells: [
          m.t,
          m.markerId,
          m.unitId,
          m.x,
          m.y,
          m.headingDeg,
          m.sigmaMm,
          m.sigmaHeadingDeg,
          m.fromX,
          m.fromY,
          m.fromHeadingDeg,
          m.movingSince,
        ],
      }));
    case 'keyframes':
      return batch.keyframes.map((k) => ({ seq: k.seq, cells: [k.t, k.posesJson] }));
    case 'marks':
      return batch.marks.map((m) => ({
        seq: m.seq,
        cells: [m.t, m.kind, m.turn, m.phase, m.side, m.source, m.label],
      }));
    case 'rulings':
      return batch.rulings.map((r) => ({
        seq: r.seq,
        cells: [r.t, r.ruleset, r.question, r.asked, r.answer, r.inputsJson, r.verdictJson],
      }));
    case 'annotations':
      return batch.annotations.map((a) => ({ seq: a.seq, cells: [a.t, a.text, a.x, a.y, a.author] }));
    case 'snapshots':
      return batch.snapshots.map((s) => ({
        seq: s.seq,
        cells: [s.t, s.width, s.height, s.poseJson, Buffer.from(s.jpeg, 'base64')],
      }));
  }
}

export class IngestError extends Error {
  override name = 'IngestError';
}

/** The latest time a batch mentions (for the board's "last event"). */
function lastTime(batch: ParsedIngestBatch): number {
  let t = Math.max(batch.battle.startedAt, batch.battle.endedAt ?? 0);
  for (const kind of EVENT_KINDS) for (const row of batch[kind]) t = Math.max(t, row.t);
  return t;
}

export async function ingestBatch(
  pool: pg.Pool,
  tableId: string,
  batch: ParsedIngestBatch,
): Promise<IngestResult> {
  for (const kind of EVENT_KINDS) {
    const seqs = batch[kind].map((r) => r.seq);
    if (new Set(seqs).size !== seqs.length) throw new IngestError(`${kind}: the same seq twice in one batch`);
  }
  for (const s of batch.snapshots) {
    const jpeg = Buffer.from(s.jpeg, 'base64');
    if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8)
      throw new IngestError(`snapshots: picture ${s.seq} is not a JPEG`);
  }
  const b = batch.battle;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // A new battle takes the table's current players; later batches keep what the organiser set.
    const battle = await client.query<{ id: string }>(
      `INSERT INTO battles (table_id, uid, local_id, name, scenario, ruleset, roster_json, camera_json,
         started_at, ended_at, meta_digest, last_event_at, players)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
         (SELECT players FROM hub_tables WHERE id = $1))
       ON CONFLICT (table_id, uid) DO UPDATE SET
         name = EXCLUDED.name, camera_json = EXCLUDED.camera_json, ended_at = EXCLUDED.ended_at,
         meta_digest = EXCLUDED.meta_digest,
         last_event_at = greatest(battles.last_event_at, EXCLUDED.last_event_at)
       RETURNING id`,
      [
        tableId,
        b.uid,
        b.localId,
        b.name,
        b.scenario,
        b.ruleset,
        b.rosterJson,
        b.cameraJson,
        b.startedAt,
        b.endedAt,
        b.digest,
        lastTime(batch),
      ],
    );
    const battleId = Number(battle.rows[0]!.id);
    const inserted = zeroCounts();
    const duplicates = zeroCounts();
    for (const kind of EVENT_KINDS) {
      const rows = rowsOf(batch, kind);
      if (rows.length === 0) continue;
      const cols = EVENT_COLUMNS[kind];
      const types = EVENT_COLUMN_TYPES[kind];
      // One array parameter per column, unnested into rows: one statement per kind and batch.
      const params: unknown[] = [battleId, rows.map((r) => r.seq)];
      cols.forEach((_c, i) => params.push(rows.map((r) => r.cells[i] ?? null)));
      const unnest = ['$2::int4[]', ...types.map((t, i) => `$${i + 3}::${t}[]`)].join(', ');
      const res = await client.query(
        `INSERT INTO ${kind} (battle_id, seq, ${cols.join(', ')})
         SELECT $1::int8, * FROM unnest(${unnest})
         ON CONFLICT (battle_id, seq) DO NOTHING`,
        params,
      );
      inserted[kind] = res.rowCount ?? 0;
      duplicates[kind] = rows.length - inserted[kind];
    }
    await client.query('COMMIT');
    return { battleId, inserted, duplicates };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** What the hub holds of one table's battles: each battle's meta digest and highest seq per kind. */
export async function ingestState(pool: pg.Pool, tableId: string): Promise<IngestState> {
  const parts = EVENT_KINDS.map(
    (k) => `coalesce((SELECT max(seq) FROM ${k} WHERE battle_id = b.id), 0) AS ${k}`,
  ).join(', ');
  const res = await pool.query<Record<string, unknown>>(
    `SELECT b.uid, b.meta_digest, ${parts} FROM battles b WHERE b.table_id = $1`,
    [tableId],
  );
  return {
    table: tableId,
    battles: res.rows.map((r) => {
      const highWater: KindCounts = zeroCounts();
      for (const k of EVENT_KINDS) highWater[k] = Number(r[k]);
      return { uid: String(r['uid']), digest: String(r['meta_digest']), highWater };
    }),
  };
}
