import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { WebSocketServer } from 'ws';
import { createPool, migrateDatabase } from '../db/database.ts';
import { LiveService, type LiveServiceOptions } from '../live/live-service.ts';
import { PgBus, type BusOptions, type BusStats } from '../live/pg-bus.ts';
import { TABLE_ID } from '../store/tables.ts';
import { HubAccess, type HubTokens } from './access.ts';
import { hubRoutes } from './routes.ts';
import { localHubSecurity, type GuessLimits, type HubSecurity } from './security.ts';

/**
 * `vedette hub`: one hub process. Its store is PostgreSQL (schema brought up to date at start);
 * any number of processes may share one database behind a load balancer: each serves the board,
 * the archive and every table's live view, whichever process the table's upload reached.
 *
 *   /hub/upload       WebSocket, a table's live stream (table token)
 *   /hub/live/<id>    WebSocket, a table's live view (any reader)
 *   /hub/…            the board (hub/index.html), a table's view (hub/table.html), the archive
 *   /replay.html      the replay page, reading the hub's /api/battles
 */

export interface HubOptions {
  readonly databaseUrl: string;
  readonly port: number;
  readonly host: string;
  readonly tokens: HubTokens;
  /** Built web app (default web/dist). */
  readonly webRoot?: string;
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Database connections of this process (default 10). */
  readonly maxConnections?: number;
  /** Run the migrations at start (default true). */
  readonly migrate?: boolean;
  /** The security rules (default: the hub's own, see security.ts). */
  readonly security?: HubSecurity;
  readonly guesses?: GuessLimits;
  readonly live?: Partial<LiveServiceOptions>;
  readonly bus?: Partial<BusOptions>;
  /** Largest message a table may upload (one JPEG frame), bytes. */
  readonly maxUploadMessageBytes?: number;
  /** Live-view connections this process accepts. */
  readonly maxViewers?: number;
}

export interface RunningHub {
  readonly url: string;
  readonly instance: string;
  status(): HubStatus;
  close(): Promise<void>;
}

export interface HubStatus {
  readonly instance: string;
  readonly uptimeS: number;
  readonly live: ReturnType<LiveService['stats']>;
  readonly bus: BusStats;
  readonly pool: { readonly total: number; readonly idle: number; readonly waiting: number };
}

export async function startHub(options: HubOptions): Promise<RunningHub> {
  if (options.tokens.organiser.length < 16)
    throw new Error('the organiser token must be at least 16 characters (leave it out to get a random one)');
  if (options.migrate !== false) await migrateDatabase(options.databaseUrl);
  const startedAt = Date.now();
  const loopbackOnly = ['127.0.0.1', '::1', 'localhost'].includes(options.host);
  const security =
    options.security ??
    localHubSecurity({ loopbackOnly, ...(options.guesses ? { guesses: options.guesses } : {}) });
  const pool = createPool({
    url: options.databaseUrl,
    ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
  });
  const access = new HubAccess(pool, options.tokens, security);
  let live: LiveService | null = null;
  let invalidateBoard = () => undefined as void;
  const bus = new PgBus(
    options.databaseUrl,
    {
      messages: (table, messages) => live?.fromBus(table, messages),
      boardChanged: () => invalidateBoard(),
      watchersJoined: (tables) => live?.watchersJoined(tables),
    },
    options.bus,
  );
  live = new LiveService(pool, bus, options.live);
  await bus.start();

  const status = (): HubStatus => ({
    instance: bus.instance,
    uptimeS: Math.round((Date.now() - startedAt) / 1000),
    live: live.stats(),
    bus: bus.stats,
    pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
  });

  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => security.headers(req, res, next));
  app.get('/hub/api/health', (_req, res) => void res.json({ ok: true, instance: bus.instance }));
  app.use(access.middleware(options.tls !== undefined));
  const routes = hubRoutes({
    pool,
    access,
    boardChanged: (table) => void bus.boardChanged(table),
    status,
  });
  invalidateBoard = routes.invalidateBoard;
  app.use(routes.router);
  app.get('/', (_req, res) => res.redirect(302, '/hub/'));
  const webRoot = resolve(options.webRoot ?? 'web/dist');
  if (existsSync(webRoot)) app.use(express.static(webRoot));
  else
    app.get(
      '/hub/',
      (_req, res) => void res.status(503).send('The web app is not built: run `npm run build:web`.'),
    );
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
    const code = (err as { status?: number }).status ?? 500;
    res.status(code).json({ error: code === 500 ? 'the hub could not answer' : err.message });
  });

  const http: Server = options.tls
    ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, app)
    : createServer(app);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxUploadMessageBytes ?? 4 * 1024 * 1024,
  });
  const maxViewers = options.maxViewers ?? 5000;
  let viewers = 0;
  http.on('upgrade', (req: IncomingMessage, socket, head) => {
    const refuse = (code: number, reason: string) =>
      socket.end(`HTTP/1.1 ${code} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const viewer = /^\/hub\/live\/([^/]+)$/.exec(path);
    if (path !== '/hub/upload' && !viewer) return refuse(404, 'Not Found');
    if (!security.originAllowed(req)) return refuse(403, 'Forbidden');
    void access.resolve(req).then(
      (answer) => {
        if ('refuse' in answer)
          return refuse(
            answer.refuse,
            answer.refuse === 429
              ? 'Too Many Requests'
              : answer.refuse === 401
                ? 'Unauthorized'
                : 'Forbidden',
          );
        if (path === '/hub/upload') {
          if (answer.role !== 'table' || !answer.table) return refuse(403, 'Forbidden');
          const table = answer.table;
          return wss.handleUpgrade(req, socket, head, (ws) => live.attachUpload(table, ws));
        }
        const table = decodeURIComponent(viewer![1]!);
        if (!TABLE_ID.test(table)) return refuse(404, 'Not Found');
        if (viewers >= maxViewers) return refuse(503, 'Service Unavailable');
        wss.handleUpgrade(req, socket, head, (ws) => {
          viewers++;
          ws.once('close', () => viewers--);
          // Viewers only watch: anything they send is ignored.
          void live.attachViewer(table, ws).catch(() => ws.close(1011, 'hub error'));
        });
      },
      () => refuse(500, 'Internal Server Error'),
    );
  });

  await new Promise<void>((r) => http.listen(options.port, options.host, r));
  const address = http.address() as AddressInfo;
  const shown = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  const url = `${options.tls ? 'https' : 'http'}://${shown}:${address.port}`;
  return {
    url,
    instance: bus.instance,
    status,
    async close() {
      await live.close();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
      await bus.close();
      await pool.end();
    },
  };
}
