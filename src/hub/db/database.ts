import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import pg from 'pg';

/**
 * The hub's PostgreSQL: one connection pool per hub process (node-postgres `Pool`), and the
 * schema migrations, run by node-pg-migrate from `src/hub/migrations/` (SQL files, applied in
 * order, recorded in `pgmigrations`, under PostgreSQL's advisory lock so two hub processes
 * starting together do not both migrate).
 */

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));
export const MIGRATIONS_TABLE = 'pgmigrations';

export interface DatabaseOptions {
  /** postgres://user:password@host:port/database */
  readonly url: string;
  /** Connections this process may hold at once (default 10). */
  readonly maxConnections?: number;
}

/** The database URL from --database or DATABASE_URL, or a clear error. */
export function databaseUrl(given?: string): string {
  const url = given ?? process.env['DATABASE_URL'];
  if (!url)
    throw new Error(
      'the hub needs a PostgreSQL database: --database postgres://user:password@host:5432/vedette (or DATABASE_URL); see docs/hub.md',
    );
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`--database must be a postgres:// URL, not "${url}"`);
  return url;
}

export function createPool(options: DatabaseOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: 'vedette-hub',
  });
  // An idle client losing its server (PostgreSQL restarting) must not crash the process.
  pool.on('error', (err) => console.error(`hub database: ${err.message}`));
  return pool;
}

/** Brings the schema up to date; returns the names of the migrations it ran. */
export async function migrateDatabase(
  url: string,
  log: (line: string) => void = () => undefined,
): Promise<string[]> {
  const ran = await runner({
    databaseUrl: url,
    dir: MIGRATIONS_DIR,
    migrationsTable: MIGRATIONS_TABLE,
    direction: 'up',
    checkOrder: true,
    // Two hub processes starting together: the second waits for the first's migration.
    advisoryLockMode: 'wait',
    logger: { debug: () => undefined, info: log, warn: log, error: log },
  });
  return ran.map((m) => m.name);
}
