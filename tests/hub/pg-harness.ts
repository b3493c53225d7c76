import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A real PostgreSQL for the hub tests: Debian's `postgresql` binaries (initdb, pg_ctl), a cluster
 * in a temporary folder, listening on a free loopback port, trust authentication, fsync off (the
 * tests never need a crash-safe write). initdb refuses to run as root, so when the tests run as
 * root (CI on a fresh Debian machine does) the cluster is made and run by the `postgres` user the
 * Debian package creates, through runuser. Without PostgreSQL a suite skips loudly, and with
 * VEDETTE_REQUIRE_ALL=1 it fails.
 */

export const requireAll = process.env['VEDETTE_REQUIRE_ALL'] === '1';

/** The folder holding initdb and pg_ctl: PATH first, then Debian's /usr/lib/postgresql/<version>/bin. */
export function postgresBinDir(): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

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
  /** A URL for a database of that name (see `createDatabase`). */
  url(database: string): string;
  /** Makes a new empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

interface RunAs {
  readonly uid: number | null;
  run(cmd: string, args: readonly string[]): void;
}

function runAs(): RunAs {
  const root = process.getuid?.() === 0;
  if (!root)
    return {
      uid: null,
      run: (cmd, args) => void execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }),
    };
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0)
    throw new Error(
      'running as root, and initdb refuses root: the `postgres` user (made by Debian\u2019s postgresql package) is missing',
    );
  return {
    uid: Number(id.stdout.trim()),
    run: (cmd, args) =>
      void execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
  };
}

/** Starts a fresh PostgreSQL cluster (a few seconds). Throws with the reason when it cannot. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is missing (VEDETTE_REQUIRE_ALL=1): apt-get install postgresql');
  const as = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'vedette-pg-'));
  if (as.uid !== null) chownSync(dir, as.uid, -1);
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const user = 'vedette';
  try {
    as.run(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      user,
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${(err as { stderr?: Buffer }).stderr?.toString() ?? String(err)}`, {
      cause: err,
    });
  }
  let port = 0;
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    try {
      as.run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
      break;
    } catch (err) {
      if (attempt >= 3) {
        const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`pg_ctl start failed: ${String(err)}\n${text}`, { cause: err });
      }
    }
  }
  const url = (database: string) => `postgres://${user}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async stop() {
      try {
        as.run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
