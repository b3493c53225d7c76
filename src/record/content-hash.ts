import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { TABLES } from './schema.ts';

/**
 * The content hash of an exported battle: SHA-256 over the file's format, schema version and every
 * row of every battle table, in id order, each value with its SQLite type (an integer 3 and a real
 * 3.0 differ; a real is hashed as its 8 IEEE-754 bytes, so one flipped bit anywhere changes it).
 * It lives in the file's `meta` table (`content_sha256`), written at export and checked at import.
 */

export const CONTENT_HASH_KEY = 'content_sha256';

function hashValue(hash: ReturnType<typeof createHash>, value: unknown): void {
  if (value === null || value === undefined) return void hash.update('n');
  if (typeof value === 'bigint') return void hash.update(`i${value.toString()};`);
  if (typeof value === 'number') {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    hash.update('r');
    return void hash.update(bytes);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    hash.update(`t${bytes.length};`);
    return void hash.update(bytes);
  }
  if (Buffer.isBuffer(value)) {
    hash.update(`b${value.length};`);
    return void hash.update(value);
  }
  throw new Error(`cannot hash a ${typeof value}`);
}

/** The hex SHA-256 of a battle file's content (see above); `format` and `version` from its meta. */
export function battleContentHash(db: Database.Database, format: string, version: number): string {
  const hash = createHash('sha256');
  hash.update(`vedette battle content\n${format}\n${version}\n`);
  for (const table of TABLES) {
    const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map(
      (c) => c.name,
    );
    hash.update(`table ${table} (${columns.join(',')})\n`);
    // Integers as BigInt (exact past 2^53, and told apart from reals); raw rows in column order.
    const rows = db
      .prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY id`)
      .raw(true)
      .safeIntegers(true)
      .iterate() as IterableIterator<unknown[]>;
    for (const row of rows) {
      hash.update('(');
      for (const value of row) hashValue(hash, value);
      hash.update(')');
    }
  }
  return hash.digest('hex');
}
