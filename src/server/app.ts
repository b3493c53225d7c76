import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import express, { type Request, type Response } from 'express';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { loadCameraProfile } from '../camera/profile.ts';
import { parseScenario, parseScenarioText, ScenarioError, type Scenario } from '../table/scenario.ts';
import { sameForVision } from '../table/scenario-change.ts';
import { UnknownNameError } from '../table/table-state.ts';
import { BrowserCameraSource } from '../vision/sources/browser-camera.ts';
import { createSource, type SourceSpec } from '../vision/sources/create-source.ts';
import { WorkerPipeline } from '../vision/worker-pipeline.ts';
import {
  LiveLoop,
  type LiveFrame,
  type LiveLoopOptions,
  type LiveStats,
  type SourceStatus,
} from './live-loop.ts';
import { measurementView, stateMessage } from './live-state.ts';
import {
  clientMessageSchema,
  type ClientMessage,
  type HelloMessage,
  type ServerMessage,
} from './protocol.ts';
import {
  clientAddress,
  PathError,
  resolveInside,
  roleOf,
  TokenBucket,
  type AccessTokens,
  type Role,
} from './security.ts';
import { accessPolicy, guardUpgrade, httpGuards } from './guards.ts';
import {
  ConnectionAdmission,
  DEFAULT_CONNECTION_LIMITS,
  type ConnectionLimits,
} from './connection-limits.ts';
import { calibrationRoutes } from './calibration-routes.ts';
import { refereeRoutes } from './referee-routes.ts';
import type { RouteContext } from './route-context.ts';
import { scenarioRoutes } from './scenario-routes.ts';
import { LiveRecording, recordingDefaults, type RecordOptions } from '../record/live-recording.ts';
import { checkStoreFile } from '../record/store-check.ts';
import { STORE_FILE } from '../record/store.ts';
import { battleRoutes } from './battle-routes.ts';
import { printRoutes } from './print-routes.ts';

export interface ServerOptions {
  readonly port: number;
  readonly host: string;
  readonly scenarioPath: string;
  readonly source: SourceSpec;
  /** Built web app to serve at `/` (default web/dist). */
  readonly webRoot?: string;
  /** Longest a frame may wait in a browser's socket buffer before frames to it are dropped. */
  readonly maxBufferedBytes?: number;
  /** Folder the scenario editor may read and write (default scenarios/). */
  readonly scenariosDir?: string;
  /** Folder calibration profiles are saved to (default calibration/). */
  readonly calibrationDir?: string;
  /**
   * Access tokens. On loopback without a player token everyone is a player; any other address
   * needs one (the server refuses to start without). A spectator token gives a read-only link.
   */
  readonly tokens?: Partial<AccessTokens>;
  /** Sizes and rates accepted from clients (see DEFAULT_LIMITS). */
  readonly limits?: Partial<ServerLimits>;
  /** Live loop tuning (frame pacing, retry back-off). */
  readonly loop?: Partial<LiveLoopOptions>;
  /**
   * Serve HTTPS with this certificate (PEM). Browsers only allow the camera (getUserMedia) on
   * https:// pages or on localhost, so a phone used as a camera over the LAN needs it.
   */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Battle recording (issue #7): a data folder, or false; default is the CLI's choice (off in tests). */
  readonly record?: RecordOptions | false;
}

/** What the server accepts from outside, per message and per second. */
export interface ServerLimits extends ConnectionLimits {
  /** Largest JSON body of a REST request. */
  readonly jsonBodyBytes: number;
  /** Largest text message on the WebSocket. */
  readonly wsTextBytes: number;
  /** Largest binary message (one JPEG camera frame from a browser). */
  readonly wsFrameBytes: number;
  /** Text messages per second per connection (token bucket, with a burst of twice as many). */
  readonly wsMessagesPerSecond: number;
  /** Camera frames per second from a browser (more are dropped). */
  readonly wsFramesPerSecond: number;
  /** Requests that change something (POST, PUT, DELETE…) per second per client address, burst 3×. */
  readonly writesPerSecond: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  jsonBodyBytes: 1024 * 1024,
  wsTextBytes: 4096,
  wsFrameBytes: 2 * 1024 * 1024,
  wsMessagesPerSecond: 20,
  wsFramesPerSecond: 15,
  writesPerSecond: 20,
  ...DEFAULT_CONNECTION_LIMITS,
};

export interface ServerStatus {
  readonly scenario: string;
  readonly source: SourceStatus;
  readonly camera: {
    readonly name: string;
    readonly kind: string;
    readonly width: number;
    readonly height: number;
  };
  readonly frames: LiveStats;
  readonly clients: { readonly players: number; readonly spectators: number };
  /** Longest the event loop was blocked in the last status interval, ms. */
  readonly eventLoopLagMs: number;
  readonly uptimeS: number;
}

export interface RunningServer {
  readonly url: string;
  /** The tokens in force (player null: none needed). */
  readonly tokens: AccessTokens;
  /** The loop watching the table now (replaced when the scenario or the camera changes). */
  readonly loop: LiveLoop;
  scenario(): Scenario;
  status(): ServerStatus;
  close(): Promise<void>;
}

const STATUS_TEXT: Record<401 | 403 | 429 | 503, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

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
  let scenario = parseScenarioText(readFileSync(options.scenarioPath, 'utf8'), options.scenarioPath);
  let sourceSpec: SourceSpec = options.source;
  const live = await createSource(sourceSpec, scenario);
  let pipeline: WorkerPipeline;
  try {
    pipeline = await WorkerPipeline.create(live.camera, scenario);
  } catch (err) {
    await live.source.close();
    throw err;
  }
  let camera = live.camera;
  let sourceName = live.source.name;
  let currentSource = live.source;
  const loop = new LiveLoop(scenario, live.source, pipeline, options.loop);
  const maxBuffered = options.maxBufferedBytes ?? 8 * 1024 * 1024;
  const calibrationDir = options.calibrationDir ?? 'calibration';

  // Event-loop lag: how late a 100 ms timer fires (the server's responsiveness, in /api/status).
  let lagMs = 0;
  let lagMax = 0;
  let lagExpected = Date.now() + 100;
  const lagTimer = setInterval(() => {
    const now = Date.now();
    lagMax = Math.max(lagMax, now - lagExpected);
    lagExpected = now + 100;
  }, 100);
  const lagReport = setInterval(() => {
    lagMs = lagMax;
    lagMax = 0;
  }, 2000);
  lagTimer.unref();
  lagReport.unref();

  const app = express();
  app.disable('x-powered-by');
  // Before anything reads a body: headers, who is asking, may they, from our own page, not too fast.
  app.use(httpGuards(policy));
  app.use(express.json({ limit: limits.jsonBodyBytes }));
  // Battle recording and replay (issue #7): records the loop's frames and the rulings given; /api/battles.
  let recording: LiveRecording;
  try {
    recording = LiveRecording.attach(loop, { scenario: () => scenario, camera: () => camera }, recordOptions);
  } catch (err) {
    await loop.close();
    throw err;
  }
  app.use(battleRoutes(recording));
  app.get('/api/health', (_req, res) => {
    res.json({
      ok: true,
      scenario: scenario.name,
      source: sourceName,
      frame: loop.latest?.snapshot.result.sequence ?? null,
    });
  });
  app.get('/api/status', (_req, res) => void res.json(status()));
  app.get('/api/whoami', (_req, res) => void res.json({ role: roleOf(res) }));
  // Switch the camera back to the one the server was started with, or to the synthetic table.
  // (Only these two: a client may not point the server at arbitrary files or addresses.)
  app.post('/api/source', async (req: Request, res: Response) => {
    const body = req.body as { source?: unknown } | undefined;
    const choice = body?.source;
    if (choice !== 'startup' && choice !== 'synthetic') {
      return void res.status(400).json({ error: 'source must be "startup" or "synthetic"' });
    }
    const spec: SourceSpec = choice === 'startup' ? options.source : { kind: 'synthetic', moving: true };
    await switchSource(spec);
    res.json({ ok: true, source: sourceName });
  });
  // How far from A to B now. GET only reads; POST (players) also keeps the answer with the battle
  // as a ruling (battle-routes.ts observes it): reading never writes.
  const distance = (a: unknown, b: unknown, res: Response): void => {
    if (typeof a !== 'string' || typeof b !== 'string' || !a || !b)
      return void res.status(400).json({ error: 'give two units: /api/distance?a=<unit>&b=<unit>' });
    if (!loop.latest) return void res.status(503).json({ error: 'no frame processed yet' });
    try {
      res.json(measurementView(loop.latest.snapshot, a, b));
    } catch (err) {
      if (err instanceof UnknownNameError) return void res.status(404).json({ error: err.message });
      throw err;
    }
  };
  app.get('/api/distance', (req: Request, res: Response) => distance(req.query.a, req.query.b, res));
  app.post('/api/distance', (req: Request, res: Response) => {
    const body = (req.body ?? {}) as { a?: unknown; b?: unknown };
    distance(body.a, body.b, res);
  });
  // Loading a scenario replaces the table being watched; a bad one is refused and nothing changes.
  app.post('/api/scenario', async (req: Request, res: Response) => {
    let next: Scenario;
    try {
      next = parseScenario(req.body, 'uploaded scenario');
    } catch (err) {
      if (err instanceof ScenarioError)
        return void res.status(400).json({ error: err.message, issues: err.issues });
      throw err;
    }
    await replaceScenario(next);
    res.json({ ok: true, scenario: scenario.name });
  });
  async function replaceScenario(next: Scenario): Promise<void> {
    // Terrain and names: the camera and the vision worker stay (well under a second); anything
    // the vision pipeline reads rebuilds them (seconds).
    if (sameForVision(scenario, next)) {
      const run = changing.then(() => {
        const before = scenario;
        loop.setScenario(next);
        scenario = next;
        recording.scenarioEdited(before, next);
        broadcast(hello());
      });
      changing = run.catch(() => undefined);
      return run;
    }
    await replaceLive(next, sourceSpec);
  }

  // Scenario and camera changes go one at a time.
  let changing: Promise<void> = Promise.resolve();
  function replaceLive(
    nextScenario: Scenario,
    spec: SourceSpec,
    after?: (source: typeof currentSource) => void,
  ): Promise<void> {
    const run = changing.then(async () => {
      const nextLive = await createSource(spec, nextScenario);
      let nextPipeline: WorkerPipeline;
      try {
        nextPipeline = await WorkerPipeline.create(nextLive.camera, nextScenario);
      } catch (err) {
        await nextLive.source.close();
        throw err;
      }
      await loop.replace(nextScenario, nextLive.source, nextPipeline);
      scenario = nextScenario;
      sourceSpec = spec;
      camera = nextLive.camera;
      sourceName = nextLive.source.name;
      currentSource = nextLive.source;
      tellRefusals(currentSource);
      after?.(nextLive.source);
      broadcast(hello());
    });
    changing = run.catch(() => undefined);
    return run;
  }
  function switchSource(spec: SourceSpec, after?: (source: typeof currentSource) => void): Promise<void> {
    return replaceLive(scenario, spec, after);
  }
  // Referee, scenario editing and calibration: REST routes in their own files (issue #6).
  const routeContext: RouteContext = {
    scenario: () => scenario,
    camera: () => camera,
    latest: () => loop.latest,
    replaceScenario,
  };
  app.use(refereeRoutes(routeContext));
  app.use(
    scenarioRoutes(routeContext, {
      dir: options.scenariosDir ?? 'scenarios',
      loadedFrom: options.scenarioPath,
    }),
  );
  app.use(calibrationRoutes(routeContext, { dir: options.calibrationDir ?? 'calibration' }));
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
  // Upgrades are checked (host, origin, token) before the handshake: see http.on('upgrade') below.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: Math.max(limits.wsFrameBytes, limits.wsTextBytes),
  });

  /** One browser on the live socket. */
  interface Client {
    readonly id: string;
    readonly role: Role;
    readonly address: string;
    selection: { a: string; b: string } | null;
    readonly messages: TokenBucket;
    readonly frames: TokenBucket;
    /** Messages dropped by the rate limit since the last one let through. */
    flood: number;
    lastLimitNotice: number;
    lastCameraRequest: number;
    /** This connection sends a browser camera: it is not sent the picture back. */
    sendsCamera: boolean;
  }
  const clients = new Map<WebSocket, Client>();
  const admission = new ConnectionAdmission(limits);
  let nextClientId = 1;

  const send = (ws: WebSocket, message: ServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const broadcast = (message: ServerMessage) => {
    for (const ws of clients.keys()) send(ws, message);
  };
  /** The camera's state in a few words for the page's title line (the reason is in `sourceStatus`). */
  function shortState(s: SourceStatus): string {
    if (s.state === 'retrying') return `camera lost, retrying (attempt ${s.attempt})`;
    if (s.state === 'failed') return `camera failed: ${s.error ?? ''}`;
    if (s.state === 'stalled') return `camera stalled: ${s.error ?? 'no frames'}`;
    return s.state === 'connecting' ? 'waiting for the camera' : s.state;
  }
  function hello(role?: Role): HelloMessage {
    const s = loop.sourceStatus();
    return {
      type: 'hello',
      scenario: scenario.name,
      source: s.state === 'live' ? sourceName : `${sourceName} — ${shortState(s)}`,
      sourceStatus: s,
      ...(role ? { role } : {}),
    };
  }

  http.on('upgrade', (req: IncomingMessage, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const refuse = (code: number, reason: string) => {
      socket.end(`HTTP/1.1 ${code} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (path !== '/live') return refuse(404, 'Not Found');
    const access = guardUpgrade(policy, req);
    if ('status' in access) return refuse(access.status, STATUS_TEXT[access.status]);
    const address = clientAddress(req);
    const full = admission.admit(access.role, address);
    if (full) return refuse(full.status, STATUS_TEXT[full.status]);
    // The place is taken now; a handshake that never completes gives it back.
    let connected = false;
    socket.once('close', () => {
      if (!connected) admission.release(access.role, address);
    });
    wss.handleUpgrade(req, socket, head, (ws) => {
      connected = true;
      onConnection(ws, access.role, address);
    });
  });

  function onConnection(ws: WebSocket, role: Role, address: string): void {
    const client: Client = {
      id: `c${nextClientId++}`,
      role,
      address,
      selection: null,
      messages: new TokenBucket(limits.wsMessagesPerSecond, limits.wsMessagesPerSecond * 2),
      frames: new TokenBucket(limits.wsFramesPerSecond, limits.wsFramesPerSecond),
      flood: 0,
      lastLimitNotice: 0,
      lastCameraRequest: 0,
      sendsCamera: false,
    };
    clients.set(ws, client);
    send(ws, hello(role));
    ws.on('message', (data, isBinary) => {
      try {
        onMessage(ws, client, data, isBinary);
      } catch (err) {
        send(ws, {
          type: 'error',
          message: `message refused: ${err instanceof Error ? err.message : String(err)}`,
        });
      }
    });
    const gone = () => {
      if (clients.delete(ws)) admission.release(client.role, client.address);
      if (currentSource instanceof BrowserCameraSource) currentSource.detach(client.id);
    };
    ws.on('close', gone);
    ws.on('error', gone);
  }

  /** Says "slow down" at most once a second; a connection that keeps flooding is closed. */
  function limited(ws: WebSocket, client: Client, what: string): void {
    client.flood++;
    if (client.flood > 500) return void ws.close(1008, 'rate limit');
    const now = Date.now();
    if (now - client.lastLimitNotice > 1000) {
      client.lastLimitNotice = now;
      send(ws, { type: 'error', message: `too many ${what}: some were dropped` });
    }
  }

  function onMessage(ws: WebSocket, client: Client, data: RawData, isBinary: boolean): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (isBinary) {
      if (!client.frames.take()) return limited(ws, client, 'camera frames');
      client.flood = 0;
      if (client.role !== 'player')
        return send(ws, { type: 'error', message: 'a spectator cannot send a camera' });
      const camera = currentSource instanceof BrowserCameraSource ? currentSource : null;
      if (!camera || camera.connection !== client.id) {
        return send(ws, {
          type: 'error',
          message: 'binary messages are camera frames: send a "camera" message first',
        });
      }
      const refused = camera.push(client.id, bytes);
      if (refused) send(ws, { type: 'error', message: refused });
      return;
    }
    if (!client.messages.take()) return limited(ws, client, 'messages');
    client.flood = 0;
    if (bytes.length > limits.wsTextBytes) {
      return send(ws, {
        type: 'error',
        message: `message too large (${bytes.length} bytes, at most ${limits.wsTextBytes})`,
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      return send(ws, { type: 'error', message: 'message is not valid JSON' });
    }
    const result = clientMessageSchema.safeParse(parsed);
    if (!result.success)
      return send(ws, { type: 'error', message: `bad message: ${result.error.issues[0]?.message}` });
    const msg: ClientMessage = result.data;
    switch (msg.type) {
      case 'clearMeasure':
        client.selection = null;
        return;
      case 'measure': {
        const known = scenario.units.map((u) => u.id);
        const missing = [msg.a, msg.b].filter((id) => !known.includes(id));
        if (missing.length > 0)
          return send(ws, { type: 'error', message: `unknown unit: ${missing.join(', ')}` });
        // A selection only changes what this page is sent: nothing is recorded (reading never writes).
        client.selection = { a: msg.a, b: msg.b };
        if (loop.latest) sendFrameState(ws, loop.latest);
        return;
      }
      case 'camera':
        return startBrowserCamera(ws, client, msg);
    }
  }

  /** A player's browser offers its camera: the table is watched through it from now on. */
  function startBrowserCamera(
    ws: WebSocket,
    client: Client,
    msg: Extract<ClientMessage, { type: 'camera' }>,
  ): void {
    if (client.role !== 'player')
      return send(ws, { type: 'error', message: 'a spectator cannot change the camera' });
    let cameraPath: string | undefined;
    if (msg.profile !== undefined) {
      try {
        cameraPath = resolveInside(calibrationDir, msg.profile, '.json');
        const profile = loadCameraProfile(cameraPath);
        if (profile.imageWidth !== msg.width || profile.imageHeight !== msg.height) {
          return send(ws, {
            type: 'error',
            message: `camera profile ${msg.profile} is for ${profile.imageWidth}×${profile.imageHeight}, the camera sends ${msg.width}×${msg.height}`,
          });
        }
      } catch (err) {
        const why = err instanceof PathError ? err.message : `cannot use camera profile ${msg.profile}`;
        return send(ws, { type: 'error', message: why });
      }
    }
    // Each change starts a new vision worker: one request per connection every 2 s is plenty.
    const now = Date.now();
    if (now - client.lastCameraRequest < 2000)
      return send(ws, { type: 'error', message: 'camera changes are limited to one every 2 s' });
    client.lastCameraRequest = now;
    const current = currentSource instanceof BrowserCameraSource ? currentSource : null;
    const sameCamera =
      current &&
      sourceSpec.kind === 'browser' &&
      current.width === msg.width &&
      current.height === msg.height &&
      sourceSpec.cameraPath === cameraPath &&
      (sourceSpec.hfovDeg ?? 60) === (msg.hfovDeg ?? 60);
    client.sendsCamera = true;
    if (sameCamera) {
      current.attach(client.id);
      return send(ws, { ...hello(client.role), cameraAccepted: true }); // the sender's go-ahead
    }
    const spec: SourceSpec = {
      kind: 'browser',
      size: { width: msg.width, height: msg.height },
      ...(cameraPath ? { cameraPath } : {}),
      ...(msg.hfovDeg ? { hfovDeg: msg.hfovDeg } : {}),
    };
    switchSource(spec, (source) => {
      if (source instanceof BrowserCameraSource && clients.has(ws)) {
        source.attach(client.id);
        send(ws, { ...hello(client.role), cameraAccepted: true }); // the sender's go-ahead
      }
    }).catch((err: unknown) =>
      send(ws, {
        type: 'error',
        message: `cannot use this camera: ${err instanceof Error ? err.message : String(err)}`,
      }),
    );
  }

  function sendFrameState(ws: WebSocket, frame: LiveFrame): void {
    const client = clients.get(ws);
    const sel = client?.selection ?? null;
    let measurement = null;
    if (sel && client) {
      try {
        measurement = measurementView(frame.snapshot, sel.a, sel.b);
      } catch {
        client.selection = null;
      }
    }
    send(ws, stateMessage(scenario, camera, frame.snapshot, measurement));
  }

  function status(): ServerStatus {
    const roles = [...clients.values()].map((c) => c.role);
    return {
      scenario: scenario.name,
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
      eventLoopLagMs: lagMs,
      uptimeS: Math.round((Date.now() - startedAt) / 1000),
    };
  }

  /** A browser camera's sender hears why its frames are refused (wrong size, undecodable), once a second at most. */
  function tellRefusals(source: typeof currentSource): void {
    if (!(source instanceof BrowserCameraSource)) return;
    source.onRefused = (connection, reason) => {
      for (const [sock, c] of clients) {
        if (c.id !== connection) continue;
        const t = Date.now();
        if (t - c.lastLimitNotice > 1000) {
          c.lastLimitNotice = t;
          send(sock, { type: 'error', message: reason });
        }
      }
    };
  }
  tellRefusals(currentSource);

  loop.on('sourceStatus', () => broadcast(hello()));
  loop.on('frame', (frame) => {
    for (const [ws, client] of clients) {
      if (ws.readyState !== ws.OPEN || client.sendsCamera) continue;
      // A slow browser misses frames rather than queueing them without bound.
      if (ws.bufferedAmount > maxBuffered) continue;
      ws.send(frame.jpeg, { binary: true });
      sendFrameState(ws, frame);
    }
  });
  loop.on('sourceError', (err) => {
    console.error(`camera source: ${err.message}`);
    // Pages hear the first failure of a streak; later attempts update `hello` (sourceStatus) only.
    if (loop.sourceStatus().state === 'live' || loop.sourceStatus().attempt === 0) {
      broadcast({ type: 'error', message: `camera source: ${err.message}` });
    }
  });

  try {
    await listen(http, options.port, options.host);
  } catch (err) {
    // Port taken, address not here…: release the camera, the worker and the store before saying so.
    await loop.close();
    await recording.close();
    throw err;
  }
  loop.start();
  const address = http.address() as AddressInfo;
  const url = `${options.tls ? 'https' : 'http'}://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${address.port}`;

  return {
    url,
    tokens,
    loop,
    scenario: () => scenario,
    status,
    async close() {
      clearInterval(lagTimer);
      clearInterval(lagReport);
      await changing;
      await loop.close();
      await recording.close();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
