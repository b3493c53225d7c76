import type Database from 'better-sqlite3';

/**
 * The battle database's schema, versioned. A store file and an exported battle file share it;
 * the `meta` table says which kind of file it is and which schema version wrote it. Migrations
 * run in order inside one transaction each; a file written by a newer Vedette is refused, never
 * "upgraded" backwards.
 */

/** `meta.format` of the data folder's store. */
export const STORE_FORMAT = 'vedette-battle-store';
/** `meta.format` of an exported single-battle file. */
export const EXPORT_FORMAT = 'vedette-battle';
export const SCHEMA_VERSION = 1;

const MIGRATIONS: ReadonlyArray<{ readonly version: number; readonly sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE battles (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        scenario TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        roster_json TEXT NOT NULL,
        camera_json TEXT,
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        imported_from TEXT
      );
      CREATE TABLE marks (
        id INTEGER PRIMARY KEY,
        battle_id INTEGER NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
        t INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('turn', 'phase')),
        turn INTEGER,
        phase TEXT,
        side TEXT,
        source TEXT NOT NULL CHECK (source IN ('player', 'inferred')),
        label TEXT NOT NULL
      );
      CREATE INDEX marks_by_time ON marks(battle_id, t);
      CREATE TABLE moves (
        id INTEGER PRIMARY KEY,
        battle_id INTEGER NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
        t INTEGER NOT NULL,
        marker_id INTEGER NOT NULL,
        unit_id TEXT NOT NULL,
        x REAL NOT NULL,
        y REAL NOT NULL,
        heading_deg REAL NOT NULL,
        sigma_mm REAL NOT NULL,
        sigma_heading_deg REAL NOT NULL,
        from_x REAL,
        from_y REAL,
        from_heading_deg REAL,
        moving_since INTEGER NOT NULL
      );
      CREATE INDEX moves_by_time ON moves(battle_id, t);
      CREATE TABLE keyframes (
        id INTEGER PRIMARY KEY,
        battle_id INTEGER NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
        t INTEGER NOT NULL,
        poses_json TEXT NOT NULL
      );
      CREATE INDEX keyframes_by_time ON keyframes(battle_id, t);
      CREATE TABLE rulings (
        id INTEGER PRIMARY KEY,
        battle_id INTEGER NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
        t INTEGER NOT NULL,
        ruleset TEXT NOT NULL,
        question TEXT NOT NULL,
        asked TEXT NOT NULL,
        answer TEXT NOT NULL,
        inputs_json TEXT NOT NULL,
        verdict_json TEXT NOT NULL
      );
      CREATE INDEX rulings_by_time ON rulings(battle_id, t);
      CREATE TABLE annotations (
        id INTEGER PRIMARY KEY,
        battle_id INTEGER NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
        t INTEGER NOT NULL,
        text TEXT NOT NULL,
        x REAL,
        y REAL,
        author TEXT
      );
      CREATE INDEX annotations_by_time ON annotations(battle_id, t);
      CREATE TABLE snapshots (
        id INTEGER PRIMARY KEY,
        battle_id INTEGER NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
        t INTEGER NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        pose_json TEXT,
        jpeg BLOB NOT NULL
      );
      CREATE INDEX snapshots_by_time ON snapshots(battle_id, t);
    `,
  },
];

export const TABLES = [
  'battles',
  'marks',
  'moves',
  'keyframes',
  'rulings',
  'annotations',
  'snapshots',
] as const;

export class BattleFileError extends Error {
  override name = 'BattleFileError';
}

/** Reads `meta` (format, schema_version) or null when the file has no meta table. */
export function readMeta(db: Database.Database): { format: string; version: number } | null {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (!hasMeta) return null;
  const rows = db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>;
  const get = (k: string) => rows.find((r) => r.key === k)?.value;
  return { format: get('format') ?? '', version: Number(get('schema_version') ?? NaN) };
}

/**
 * Brings a database to the current schema: a new file gets every migration and its format
 * marker; a file of the same format at an older version gets the missing ones; anything else
 * (another format, a newer version) is refused with the reason.
 */
export function migrate(db: Database.Database, format: string): void {
  const meta = readMeta(db);
  if (meta === null) {
    const others = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
      n: number;
    };
    if (others.n > 0)
      throw new BattleFileError(
        'this SQLite file is not a Vedette battle file (it has other tables and no format marker)',
      );
    db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)').run(
      'format',
      format,
      'schema_version',
      '0',
    );
  } else if (meta.format !== format) {
    throw new BattleFileError(`this file is a "${meta.format || 'unknown'}" file, not a "${format}" file`);
  }
  const current = readMeta(db)!.version;
  if (!Number.isInteger(current)) throw new BattleFileError('the file\u2019s schema version is not a number');
  if (current > SCHEMA_VERSION)
    throw new BattleFileError(
      `written by a newer Vedette (schema version ${current}; this one reads up to ${SCHEMA_VERSION})`,
    );
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(m.version));
    })();
  }
}
