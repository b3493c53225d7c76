import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { battleContentHash, CONTENT_HASH_KEY } from '../../record/content-hash.ts';
import { BattleFileError, EXPORT_FORMAT, migrate, SCHEMA_VERSION } from '../../record/schema.ts';
import { EVENT_KINDS } from '../protocol/ingest.ts';
import { EVENT_COLUMNS, isIntegerColumn } from './event-columns.ts';
import { HubBattleNotFoundError } from './archive.ts';

/**
 * A hub battle out as the same `.vedette-battle` file a table exports (src/record/transfer.ts):
 * an SQLite database with the record's schema and format marker, holding one battle whose rows
 * carry the table's own ids. `vedette import` and the replay of any table read it.
 */

const CHUNK = 500;

export async function exportHubBattle(
  pool: pg.Pool,
  battleId: number,
  outFile: string,
): Promise<{ bytes: number }> {
  const b = (await pool.query('SELECT * FROM battles WHERE id = $1', [battleId])).rows[0] as
    Record<string, unknown> | undefined;
  if (!b) throw new HubBattleNotFoundError(`no battle #${battleId}`);
  if (existsSync(outFile))
    throw new BattleFileError(`${outFile} already exists: choose another name or remove it`);
  const out = new Database(outFile);
  try {
    migrate(out, EXPORT_FORMAT);
    const localId = Number(b['local_id']);
    out
      .prepare(
        `INSERT INTO battles (id, uid, name, scenario, ruleset, roster_json, camera_json, started_at, ended_at, imported_from)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      )
      .run(
        localId,
        b['uid'],
        b['name'],
        b['scenario'],
        b['ruleset'],
        b['roster_json'],
        b['camera_json'],
        Number(b['started_at']),
        b['ended_at'] === null ? null : Number(b['ended_at']),
      );
    for (const kind of EVENT_KINDS) {
      const cols = EVENT_COLUMNS[kind];
      const insert = out.prepare(
        `INSERT INTO ${kind} (id, battle_id, ${cols.join(', ')}) VALUES (?, ?, ${cols.map(() => '?').join(', ')})`,
      );
      const many = out.transaction((rows: Array<Record<string, unknown>>) => {
        for (const r of rows)
          insert.run(
            Number(r['seq']),
            localId,
            ...cols.map((c, i) => {
              const v = r[c];
              return v === null || v === undefined ? null : isIntegerColumn(kind, i) ? Number(v) : v;
            }),
          );
      });
      let after = 0;
      for (;;) {
        const rows = (
          await pool.query(
            `SELECT seq, ${cols.join(', ')} FROM ${kind} WHERE battle_id = $1 AND seq > $2 ORDER BY seq LIMIT ${CHUNK}`,
            [battleId, after],
          )
        ).rows as Array<Record<string, unknown>>;
        if (rows.length === 0) break;
        many(rows);
        after = Number(rows[rows.length - 1]!['seq']);
      }
    }
    // The same content hash a table's export carries, so `vedette import` can verify the file.
    const hash = battleContentHash(out, EXPORT_FORMAT, SCHEMA_VERSION);
    out.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(CONTENT_HASH_KEY, hash);
  } finally {
    out.close();
  }
  return { bytes: statSync(outFile).size };
}
