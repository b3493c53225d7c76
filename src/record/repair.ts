import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { rosterSchema } from './roster.ts';
import { migrate, STORE_FORMAT, TABLES } from './schema.ts';
import { storeFileProblem } from './store-check.ts';
import { STORE_FILE } from './store.ts';

/**
 * `vedette battles --repair`: a damaged store is moved aside (never deleted, never written), and
 * a new store is built from every row that can still be read from it.
 *
 * Written by hand because nothing we can depend on does it: SQLite's own recovery (`.recover`)
 * lives in the sqlite3 shell, not in the library better-sqlite3 bundles. What we can do with the
 * library is read each table by ranges of row ids: a range that runs into a damaged page fails,
 * and is split in two until only the unreadable ids are left out. Rows that read but make no
 * sense (a battle whose roster is not a roster, a move of a battle that is gone) are left out too.
 */

export interface RepairReport {
  readonly file: string;
  /** The store was fine: nothing was moved or written. */
  readonly healthy: boolean;
  /** Why it was damaged. */
  readonly problem: string | null;
  /** Where the damaged file now is (with its -wal/-shm beside it, if it had them). */
  readonly movedTo: string | null;
  /** Whether anything at all could be read from the damaged file. */
  readonly readable: boolean;
  /** Rows kept in the new store, per table. */
  readonly kept: Readonly<Record<string, number>>;
  /** Rows the damaged file claims to hold but were not kept, per table (null: could not count). */
  readonly lost: Readonly<Record<string, number | null>>;
}

const SIDE_FILES = ['-wal', '-shm', '-journal'];
const WINDOW = 1000;
/** Failed reads allowed per table before the rest of it is given up (a damaged b-tree interior). */
const FAILURE_BUDGET = 20_000;

function stamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}

/** Moves `file` and its side files to `to` (same folder, so a rename). */
function moveAside(file: string, to: string): void {
  renameSync(file, to);
  for (const suffix of SIDE_FILES) if (existsSync(file + suffix)) renameSync(file + suffix, to + suffix);
}

type Row = Record<string, unknown>;

/** Every readable row of `table` with ids in [lo, hi], handed to `keep` in id order. */
function readRange(
  db: Database.Database,
  table: string,
  lo: number,
  hi: number,
  keep: (r: Row) => void,
  budget: { failures: number },
): void {
  if (budget.failures >= FAILURE_BUDGET) return;
  let next = lo;
  try {
    const rows = db.prepare(`SELECT * FROM ${table} WHERE id BETWEEN ? AND ? ORDER BY id`).iterate(lo, hi);
    for (const row of rows as IterableIterator<Row>) {
      keep(row);
      next = Number(row['id']) + 1;
    }
  } catch {
    budget.failures++;
    if (next >= hi) return; // the last id itself is unreadable
    const mid = Math.floor((next + hi) / 2);
    readRange(db, table, next, mid, keep, budget);
    readRange(db, table, mid + 1, hi, keep, budget);
  }
}

function tryNumber(db: Database.Database, sql: string): number | null {
  try {
    const v = (db.prepare(sql).get() as { n: unknown } | undefined)?.n;
    return v === null || v === undefined ? null : Number(v);
  } catch {
    return null;
  }
}

function columnsOf(db: Database.Database, table: string): string[] {
  try {
    return (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
  } catch {
    return [];
  }
}

function sensibleBattle(row: Row): boolean {
  try {
    return rosterSchema.safeParse(JSON.parse(String(row['roster_json']))).success;
  } catch {
    return false;
  }
}

/** Copies what can be read from `damaged` into the new store `out` (already migrated). */
function salvage(damaged: Database.Database, out: Database.Database) {
  const kept: Record<string, number> = {};
  const lost: Record<string, number | null> = {};
  const battles = new Set<number>();
  for (const table of TABLES) {
    const wanted = columnsOf(out, table);
    const have = new Set(columnsOf(damaged, table));
    const cols = wanted.filter((c) => have.has(c));
    kept[table] = 0;
    if (!cols.includes('id')) {
      lost[table] = null;
      continue;
    }
    const insert = out.prepare(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    );
    const keep = (row: Row): void => {
      if (table === 'battles' ? !sensibleBattle(row) : !battles.has(Number(row['battle_id']))) return;
      try {
        insert.run(...cols.map((c) => row[c]));
        kept[table]!++;
        if (table === 'battles') battles.add(Number(row['id']));
      } catch {
        // Breaks the schema's own rules (NOT NULL, CHECK): left out.
      }
    };
    const top = tryNumber(damaged, `SELECT max(id) AS n FROM ${table}`) ?? 10_000_000;
    const budget = { failures: 0 };
    out.transaction(() => {
      for (let lo = 1; lo <= top && budget.failures < FAILURE_BUDGET; lo += WINDOW)
        readRange(damaged, table, lo, lo + WINDOW - 1, keep, budget);
    })();
    const count = tryNumber(damaged, `SELECT count(*) AS n FROM ${table}`);
    lost[table] = count === null ? null : Math.max(0, count - kept[table]);
  }
  return { kept, lost };
}

/** Repairs the store of a data folder (see above). Throws when there is no store to repair. */
export function repairStore(dataDir: string, now = new Date()): RepairReport {
  const file = join(dataDir, STORE_FILE);
  if (!existsSync(file)) throw new Error(`there is no battle store in ${dataDir} (${STORE_FILE}) to repair`);
  const problem = storeFileProblem(file);
  if (problem === null)
    return { file, healthy: true, problem: null, movedTo: null, readable: true, kept: {}, lost: {} };
  const movedTo = join(dataDir, `battles-damaged-${stamp(now)}.db`);
  moveAside(file, movedTo);
  const building = join(dataDir, `battles-repairing-${stamp(now)}.db`);
  const out = new Database(building);
  let result: { kept: Record<string, number>; lost: Record<string, number | null> };
  let readable = false;
  try {
    migrate(out, STORE_FORMAT);
    let damaged: Database.Database | null = null;
    try {
      damaged = new Database(movedTo, { readonly: true, fileMustExist: true });
      damaged.prepare('SELECT count(*) FROM sqlite_master').get();
      readable = true;
    } catch {
      damaged?.close();
      damaged = null;
    }
    if (damaged) {
      try {
        result = salvage(damaged, out);
      } finally {
        damaged.close();
      }
    } else {
      result = { kept: Object.fromEntries(TABLES.map((t) => [t, 0])), lost: {} };
    }
    out.close();
  } catch (err) {
    out.close();
    rmSync(building, { force: true });
    throw err;
  }
  renameSync(building, file);
  return { file, healthy: false, problem, movedTo, readable, kept: result.kept, lost: result.lost };
}
