import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { BattleFileError, EXPORT_FORMAT, readMeta, SCHEMA_VERSION, STORE_FORMAT } from './schema.ts';

/**
 * Is a battle store file fit to open? Checked before anything writes to it (journal mode,
 * migrations, the first battle), so a damaged file is never overwritten, and the reason reaches
 * the player with the file's name and what to do, instead of an SQLite code and a hung server.
 */

const SQLITE_MAGIC = 'SQLite format 3\u0000';

export class StoreDamagedError extends Error {
  override name = 'StoreDamagedError';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(
      `The battle store ${file} is damaged: ${reason}.\n` +
        'Vedette has not changed it. To go on, either:\n' +
        `  - run \`vedette battles --repair --data ${dirname(file)}\`: it keeps every battle that can still be ` +
        'read and moves the damaged file aside, or\n' +
        `  - move it aside yourself (for example: mv ${file} ${file}.damaged) and start again with an empty store.`,
    );
  }
}

function firstBytes(file: string, n: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(n);
    const read = readSync(fd, head, 0, n, 0);
    return head.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Why a store file cannot be used, or null when it can (a missing or empty file is a new store). */
export function storeFileProblem(file: string): string | null {
  if (!existsSync(file)) return null;
  const stat = statSync(file);
  if (!stat.isFile()) return 'it is not a file';
  if (stat.size === 0) return null;
  if (firstBytes(file, 16).toString('latin1') !== SQLITE_MAGIC)
    return 'it is not an SQLite database any more (its first bytes are wrong)';
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    return `SQLite cannot open it (${err instanceof Error ? err.message : String(err)})`;
  }
  try {
    // quick_check reads every page (b-trees, free list, record formats) without the index
    // cross-checks of integrity_check: enough to find damage, fast enough for every start.
    const verdict = db.pragma('quick_check(5)', { simple: false }) as Array<Record<string, unknown>>;
    const problems = verdict.map((r) => String(Object.values(r)[0])).filter((v) => v !== 'ok');
    if (problems.length > 0) return `SQLite's check says: ${problems.join('; ')}`;
    const meta = readMeta(db);
    if (meta === null) {
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
        n: number;
      };
      return tables.n > 0 ? 'it is an SQLite database of another program (no Vedette format marker)' : null;
    }
    if (meta.format === EXPORT_FORMAT)
      return 'it is one exported battle, not a store (add it to a store with `vedette import`)';
    if (meta.format !== STORE_FORMAT) return `its format is "${meta.format}", not a Vedette battle store`;
    if (!Number.isInteger(meta.version)) return 'its schema version is not a number';
    return null;
  } catch (err) {
    return `SQLite cannot read it (${err instanceof Error ? err.message : String(err)})`;
  } finally {
    db.close();
  }
}

/**
 * Throws StoreDamagedError (naming the file and what to do) unless the store can be opened, and
 * BattleFileError when a newer Vedette wrote it. Reads only.
 */
export function checkStoreFile(file: string): void {
  const problem = storeFileProblem(file);
  if (problem) throw new StoreDamagedError(file, problem);
  if (!existsSync(file) || statSync(file).size === 0) return;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const meta = readMeta(db);
    if (meta && meta.version > SCHEMA_VERSION)
      throw new BattleFileError(
        `${file} was written by a newer Vedette (schema version ${meta.version}; this one reads up to ${SCHEMA_VERSION}): update Vedette`,
      );
  } finally {
    db.close();
  }
}
