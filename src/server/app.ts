import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import express, { type Request, type Response } from 'express';
import { LiveRecording, recordingDefaults } from '../record/live-recording.ts';
import { checkStoreFile } from '../record/store-check.ts';
import { STORE_FILE } from '../record/store.ts';
import { parseScenarioText } from '../table/scenario.ts';
import { battleRoutes } from './battle-routes.ts';
import { calibrationRoutes } from './calibration-routes.ts';
import { EventLoopLag } from './event-loop-lag.ts';
import { accessPolicy, httpGuards } from './guards.ts';
import { LiveSocket } from './live-socket.ts';
import { printRoutes } from './print-routes.ts';
import { threatRoutes } from './threat-routes.ts';
import { refereeRoutes } from './referee-routes.ts';
import { RulesWorker } from './rules-worker-client.ts';
import { RecentMarkers } from './recent-markers.ts';
import type { RouteContext } from './route-context.ts';
import { scenarioRoutes } from './scenario-routes.ts';
import type { AccessTokens } from './security.ts';
import {
  DEFAULT_LIMITS,
  type RunningServer,
  type ServerLimits,
  type ServerOptions,
  type ServerStatus,
} from './server-options.ts';
import { tableRoutes } from './table-routes.ts';
import { WatchedTable } from './watched-table.ts';

/*
 * The live server's assembly: start-up checks, the express app with its route groups in order,
 * the HTTP(S) server with the /live socket, listening and closing. The parts live beside it:
 * watched-table.ts (scenario + camera + loop, changed one at a time), live-socket.ts (/live),
 * table-routes.ts and the other *-routes.ts (REST), server-options.ts (the types callers use).
 */

export {
  DEFAULT_LIMITS,
  type RunningServer,
  type ServerLimits,
  type ServerOptions,
  type ServerStatus,
} from './server-options.ts';

/** Listens, or rejects with the reason (EADDRINUSE…) instead of leaving the error unhandled. */
function listen(http: Server, port: number, host: string): Promise<void> {
  return new Promise((resolveListen, reject) => {
    const failed = (err: Error) => reject(err);
    http.once('error', failed);
    http.listen(port, host, () => {
      http.off('error', failed);
      resolveListen();
    });
  });
}

/** Starts the HTTP + WebSocket server with its live vision loop. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  // Everything that can be refused is checked before a camera or a worker thread is started, so a
  // refusal leaves nothing running (a worker thread would keep the process alive).
  const policy = accessPolicy({
    host: options.host,
    ...(options.tokens ? { tokens: options.tokens } : {}),
    secure: options.tls !== undefined,
    writesPerSecond: limits.writesPerSecond,
  });
  const tokens: AccessTokens = policy.tokens;
  const recordOptions = options.record === undefined ? recordingDefaults() : options.record;
  if (recordOptions) checkStoreFile(join(recordOptions.dataDir, STORE_FILE));
  const startedAt = Date.now();
  const scenario = parseScenarioText(readFileSync(options.scenarioPath, 'utf8'), options.scenarioPath);
  const table = await WatchedTable.open(scenario, options.source, options.loop);
  const loop = table.loop;
  const calibrationDir = options.calibrationDir ?? 'calibration';

  // Battle recording and replay (issue #7): records the loop's frames and the rulings given; /api/battles.
  let recording: LiveRecording;
  try {
    recording = LiveRecording.attach(
      loop,
      { scenario: () => table.scenario, camera: () => table.camera },
      recordOptions,
    );
  } catch (err) {
    await loop.close();
    throw err;
  }
  table.hooks.edited = (before, next) => recording.scenarioEdited(before, next);
  const lag = new EventLoopLag();

  const app = express();
  app.disable('x-powered-by');
  // Before anything reads a body: headers, who is asking, may they, from our own page, not too fast.
  app.use(httpGuards(policy));
  app.use(express.json({ limit: limits.jsonBodyBytes }));
  // Battle routes come first: they observe the rulings given by the routes after them.
  app.use(battleRoutes(recording));
  app.use(tableRoutes(table, { startupSource: options.source, status }));
  // Referee, scenario editing, calibration and printables: REST routes in their own files (issue #6).
  const unknownMarkers = new RecentMarkers();
  loop.on('frame', (f) => unknownMarkers.note(f.snapshot.result.located.unknownIds, Date.now()));
  const routeContext: RouteContext = {
    scenario: () => table.scenario,
    camera: () => table.camera,
    latest: () => loop.latest,
    recentUnknownIds: () => unknownMarkers.seenSince(Date.now()),
    turnStartPoses: () => recording.turnStartPoses(),
    replaceScenario: (next) => table.replaceScenario(next),
  };
  // The referee's questions and the threat views are answered off the event loop (one worker thread).
  const rules = new RulesWorker();
  app.use(refereeRoutes(routeContext, rules));
  app.use(threatRoutes(routeContext, rules));
  app.use(
    scenarioRoutes(routeContext, {
      dir: options.scenariosDir ?? 'scenarios',
      loadedFrom: options.scenarioPath,
    }),
  );
  app.use(calibrationRoutes(routeContext, { dir: calibrationDir }));
  app.use(printRoutes(routeContext, { calibrationDir }));
  const webRoot = resolve(options.webRoot ?? 'web/dist');
  if (existsSync(webRoot)) app.use(express.static(webRoot));
  else
    app.get(
      '/',
      (_req, res) => void res.status(503).send('The web app is not built: run `npm run build:web`.'),
    );
  app.use((err: Error, _req: Request, res: Response, _next: () => void) => {
    // Malformed JSON bodies and the like: answer with the reason, keep serving.
    const status = (err as { status?: number }).status ?? 500;
    res.status(status).json({ error: err.message });
  });

  const http: Server = options.tls
    ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, app)
    : createServer(app);
  const socket = new LiveSocket(http, table, {
    policy,
    limits,
    calibrationDir,
    maxBufferedBytes: options.maxBufferedBytes ?? 8 * 1024 * 1024,
  });

  function status(): ServerStatus {
    const roles = socket.roles();
    const camera = table.camera;
    return {
      scenario: table.scenario.name,
      source: loop.sourceStatus(),
      camera: {
        name: camera.name,
        kind: camera.source,
        width: camera.imageWidth,
        height: camera.imageHeight,
      },
      frames: loop.stats(),
      clients: {
        players: roles.filter((r) => r === 'player').length,
        spectators: roles.filter((r) => r === 'spectator').length,
      },
      eventLoopLagMs: lag.ms,
      uptimeS: Math.round((Date.now() - startedAt) / 1000),
    };
  }

  try {
    await listen(http, options.port, options.host);
  } catch (err) {
    // Port taken, address not here…: release the camera, the worker and the store before saying so.
    lag.stop();
    await loop.close();
    await recording.close();
    await rules.close();
    throw err;
  }
  loop.start();
  // The rules worker loads once the camera pipeline has had its start (both compile on start-up).
  const warmRules = setTimeout(() => rules.warm(), 3000);
  warmRules.unref();
  const address = http.address() as AddressInfo;
  const url = `${options.tls ? 'https' : 'http'}://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${address.port}`;

  return {
    url,
    tokens,
    loop,
    scenario: () => table.scenario,
    status,
    async close() {
      lag.stop();
      clearTimeout(warmRules);
      await table.settled();
      await loop.close();
      await recording.close();
      await rules.close();
      await socket.close();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
