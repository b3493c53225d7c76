import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL of one's own for trying the hub (`vedette hub local-db`) and for the tests and the
 * benchmark: Debian's `postgresql` binaries (initdb, pg_ctl), a cluster in a folder, listening on
 * loopback only with trust authentication for the `vedette` user. initdb refuses to run as root,
 * so as root the cluster is made and run by the `postgres` user the Debian package creates.
 * Not for a real event: there, use a PostgreSQL server (docs/hub.md).
 */

export interface LocalPostgresOptions {
  /** Folder of the cluster (made when missing). */
  readonly dir: string;
  readonly port: number;
  /** Faster, not crash-safe (tests and benchmarks only). */
  readonly unsafeFast?: boolean;
}

export interface LocalPostgres {
  readonly port: number;
  readonly dir: string;
  url(database: string): string;
  /** Makes the database when it does not exist; returns its URL. */
  ensureDatabase(name: string): Promise<string>;
  stop(mode?: 'fast' | 'immediate'): void;
}

export const LOCAL_USER = 'vedette';

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

interface Runner {
  readonly uid: number | null;
  run(cmd: string, args: readonly string[]): void;
}

function runner(): Runner {
  if (process.getuid?.() !== 0)
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

function stderrOf(err: unknown): string {
  return (err as { stderr?: Buffer }).stderr?.toString().trim() || String(err);
}

/** Makes the cluster if needed and starts it; throws with the reason when it cannot. */
export async function startLocalPostgres(options: LocalPostgresOptions): Promise<LocalPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL's initdb and pg_ctl are missing: apt-get install postgresql");
  const as = runner();
  const dir = resolve(options.dir);
  mkdirSync(dir, { recursive: true });
  if (as.uid !== null) chownSync(dir, as.uid, -1);
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  if (!existsSync(join(data, 'PG_VERSION'))) {
    try {
      as.run(join(bin, 'initdb'), [
        '-D',
        data,
        '-U',
        LOCAL_USER,
        '-A',
        'trust',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
      ]);
    } catch (err) {
      throw new Error(`initdb failed: ${stderrOf(err)}`, { cause: err });
    }
  }
  const settings = [
    `-p ${options.port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=200',
    ...(options.unsafeFast ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'] : []),
  ].join(' ');
  try {
    as.run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-o', settings, '-w', '-t', '60', 'start']);
  } catch (err) {
    const text = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-8).join('\n') : '';
    throw new Error(`pg_ctl start failed: ${stderrOf(err)}\n${text}`, { cause: err });
  }
  const url = (database: string) => `postgres://${LOCAL_USER}@127.0.0.1:${options.port}/${database}`;
  return {
    port: options.port,
    dir,
    url,
    async ensureDatabase(name) {
      if (!/^[a-z][a-z0-9_]{0,40}$/.test(name))
        throw new Error(`database names here are plain: not "${name}"`);
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop(mode = 'fast') {
      as.run(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']);
    },
  };
}

/** Stops the cluster in a folder made by `startLocalPostgres`. */
export function stopLocalPostgres(dir: string): void {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL's pg_ctl is missing");
  runner().run(join(bin, 'pg_ctl'), ['-D', join(resolve(dir), 'data'), '-m', 'fast', '-w', 'stop']);
}
