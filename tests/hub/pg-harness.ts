import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresBinDir, startLocalPostgres } from '../../src/hub/db/local-postgres.ts';

/**
 * A real PostgreSQL for the hub tests: a fresh cluster in a temporary folder on a free loopback
 * port (src/hub/db/local-postgres.ts: Debian's initdb and pg_ctl; as root, run by the `postgres`
 * user, since initdb refuses root — CI runs as root). Without PostgreSQL a suite skips loudly, and
 * with VEDETTE_REQUIRE_ALL=1 it fails.
 */

export const requireAll = process.env['VEDETTE_REQUIRE_ALL'] === '1';
export const havePostgres = postgresBinDir() !== null;

/** Whether a suite is to be skipped (only without PostgreSQL and without VEDETTE_REQUIRE_ALL, and loudly). */
export function skipWithoutPostgres(what: string): boolean {
  const skip = !havePostgres && !requireAll;
  if (skip)
    console.warn(
      `\n*** SKIPPING ${what}: PostgreSQL's initdb/pg_ctl are missing (apt-get install postgresql). ***\n`,
    );
  return skip;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface TestPostgres {
  readonly port: number;
  /** Makes a new empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** Starts a fresh PostgreSQL cluster (a second or two). Throws with the reason when it cannot. */
export async function startPostgres(): Promise<TestPostgres> {
  if (!havePostgres)
    throw new Error('PostgreSQL is missing (VEDETTE_REQUIRE_ALL=1): apt-get install postgresql');
  const dir = mkdtempSync(join(tmpdir(), 'vedette-pg-'));
  for (let attempt = 0; ; attempt++) {
    try {
      const db = await startLocalPostgres({ dir, port: await freePort(), unsafeFast: true });
      return {
        port: db.port,
        createDatabase: (name) => db.ensureDatabase(name),
        async stop() {
          try {
            db.stop('immediate');
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      };
    } catch (err) {
      // Another process may have taken the free port in between: try another.
      if (attempt >= 3 || /initdb/.test((err as Error).message)) {
        rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
}
