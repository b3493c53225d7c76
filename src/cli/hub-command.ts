import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { createPool, databaseUrl, migrateDatabase } from '../hub/db/database.ts';
import { startLocalPostgres, stopLocalPostgres } from '../hub/db/local-postgres.ts';
import { startHub } from '../hub/server/hub-server.ts';
import { addTable, listTables, newTableToken, renewTableToken } from '../hub/store/tables.ts';

/**
 * `vedette hub`: the club or tournament hub (issue #17; docs/hub.md). Its store is PostgreSQL;
 * start as many processes as you like on one database.
 *
 *   vedette hub [--database url] [--port 8090] …   serve the board, live views, archive
 *   vedette hub migrate                            bring the database's schema up to date
 *   vedette hub add-table <id> [--name] [--players "A, B"]   add a table; prints its token
 *   vedette hub new-token <id>                     a new token for a table (the old one stops)
 *   vedette hub tables                             list the tables
 *   vedette hub local-db [--stop]                  a PostgreSQL of your own to try the hub with
 */

interface HubCliOptions {
  database?: string;
  port: string;
  host: string;
  organiserToken?: string;
  spectatorToken?: string;
  public?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  maxConnections: string;
}

function databaseOf(cmd: Command): string {
  return databaseUrl(cmd.optsWithGlobals<{ database?: string }>().database);
}

async function withPool<T>(
  cmd: Command,
  fn: (pool: ReturnType<typeof createPool>) => Promise<T>,
): Promise<T> {
  const url = databaseOf(cmd);
  await migrateDatabase(url);
  const pool = createPool({ url, maxConnections: 2 });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

function players(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

export function registerHubCommand(program: Command): void {
  const hub = program
    .command('hub')
    .description('the club or tournament hub: many tables, one archive, spectators (PostgreSQL; docs/hub.md)')
    .option('--database <url>', 'PostgreSQL: postgres://user:password@host:5432/vedette (or $DATABASE_URL)')
    .option('--port <n>', 'HTTP port', '8090')
    .option('--host <address>', 'address to listen on (0.0.0.0: every address)', '127.0.0.1')
    .option(
      '--organiser-token <token>',
      'organiser token (or $VEDETTE_HUB_ORGANISER_TOKEN; default: a random one). Give every hub process the same',
    )
    .option(
      '--spectator-token <token>',
      'token of the spectator link (or $VEDETTE_HUB_SPECTATOR_TOKEN; default: a random one)',
    )
    .option('--public', 'anyone may watch without a token (spectators are still read-only)')
    .option('--tls-cert <file>', 'serve HTTPS with this PEM certificate')
    .option('--tls-key <file>', 'private key (PEM) of --tls-cert')
    .option('--max-connections <n>', 'database connections of this process', '10')
    .action(async (opts: HubCliOptions, cmd: Command) => {
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`--port must be a port number, not "${opts.port}"`);
      if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined))
        throw new Error('--tls-cert and --tls-key go together');
      const givenOrganiser = opts.organiserToken ?? process.env['VEDETTE_HUB_ORGANISER_TOKEN'];
      const organiser = givenOrganiser ?? newTableToken();
      const givenSpectator = opts.spectatorToken ?? process.env['VEDETTE_HUB_SPECTATOR_TOKEN'];
      const spectator = opts.public ? (givenSpectator ?? null) : (givenSpectator ?? newTableToken());
      const running = await startHub({
        databaseUrl: databaseOf(cmd),
        port,
        host: opts.host,
        tokens: { organiser, spectator, public: opts.public === true },
        maxConnections: Number(opts.maxConnections),
        ...(opts.tlsCert && opts.tlsKey
          ? { tls: { cert: readFileSync(opts.tlsCert), key: readFileSync(opts.tlsKey) } }
          : {}),
      });
      console.log(`Vedette hub ${running.instance} — board at ${running.url}/hub/`);
      console.log(
        `Organiser link (add tables, everything):\n  ${running.url}/hub/?token=${encodeURIComponent(organiser)}`,
      );
      if (spectator)
        console.log(
          `Spectator link (watch only):\n  ${running.url}/hub/?token=${encodeURIComponent(spectator)}`,
        );
      else console.log('Spectators need no token (--public).');
      if (!givenOrganiser || (!opts.public && !givenSpectator))
        console.log(
          'These tokens were made for this process: with several hub processes, give each the same --organiser-token and --spectator-token.',
        );
      const shutdown = () => void running.close().then(() => process.exit(0));
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    });

  hub
    .command('migrate')
    .description("bring the hub database's schema up to date (the hub also does it when it starts)")
    .action(async (_opts: unknown, cmd: Command) => {
      const ran = await migrateDatabase(databaseOf(cmd));
      console.log(ran.length ? `Ran ${ran.join(', ')}` : 'The schema is up to date.');
    });

  hub
    .command('add-table')
    .description(
      'add a table and print its token (give it to the table: vedette serve --hub … --hub-token …)',
    )
    .argument('<id>', 'short id: lower-case letters, digits and "-", e.g. table-1')
    .option('--name <name>', 'name shown on the board')
    .option('--players <names>', 'who plays there, comma-separated')
    .action(async (id: string, opts: { name?: string; players?: string }, cmd: Command) => {
      const made = await withPool(cmd, (pool) =>
        addTable(pool, {
          id,
          ...(opts.name ? { name: opts.name } : {}),
          ...(opts.players ? { players: players(opts.players) ?? [] } : {}),
        }),
      );
      console.log(`Table ${made.table.id} added. Its token (shown once):\n  ${made.token}`);
    });

  hub
    .command('new-token')
    .description('give a table a new token (the old one stops working)')
    .argument('<id>', 'the table')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const token = await withPool(cmd, (pool) => renewTableToken(pool, id));
      console.log(`New token of ${id} (shown once):\n  ${token}`);
    });

  hub
    .command('tables')
    .description('list the tables')
    .action(async (_opts: unknown, cmd: Command) => {
      const tables = await withPool(cmd, (pool) => listTables(pool));
      if (tables.length === 0) console.log('No tables yet: vedette hub add-table table-1');
      for (const t of tables)
        console.log(`${t.id}  ${t.name}${t.players.length ? `  (${t.players.join(', ')})` : ''}`);
    });

  hub
    .command('local-db')
    .description(
      "start a PostgreSQL of your own to try the hub (Debian's postgresql package; loopback only) and print its --database",
    )
    .option('--dir <dir>', 'folder of the database', '.vedette/postgres')
    .option('--pg-port <n>', 'its port', '5433')
    .option('--stop', 'stop it')
    .action(async (opts: { dir: string; pgPort: string; stop?: boolean }) => {
      if (opts.stop) {
        stopLocalPostgres(opts.dir);
        return void console.log(`PostgreSQL in ${opts.dir} stopped.`);
      }
      const port = Number(opts.pgPort);
      if (!Number.isInteger(port) || port <= 0 || port > 65535)
        throw new Error(`--pg-port must be a port number, not "${opts.pgPort}"`);
      const db = await startLocalPostgres({ dir: opts.dir, port });
      const url = await db.ensureDatabase('vedette');
      console.log(
        `PostgreSQL is running in ${opts.dir} on port ${port} (this machine only). Start the hub with:`,
      );
      console.log(`  vedette hub --database ${url}`);
      console.log(
        `Stop it with: vedette hub local-db --stop${opts.dir === '.vedette/postgres' ? '' : ` --dir ${opts.dir}`}`,
      );
    });
}
