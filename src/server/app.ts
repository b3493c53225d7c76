import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import express, { type Request, type Response } from 'express';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseScenario, parseScenarioText, ScenarioError, type Scenario } from '../table/scenario.ts';
import { UnknownUnitError } from '../table/measured-units.ts';
import { VisionPipeline } from '../vision/pipeline.ts';
import { createSource, type SourceSpec } from '../vision/sources/create-source.ts';
import { LiveLoop, type LiveFrame } from './live-loop.ts';
import { measurementView, stateMessage } from './live-state.ts';
import { clientMessageSchema, type ServerMessage } from './protocol.ts';

export interface ServerOptions {
  readonly port: number;
  readonly host: string;
  readonly scenarioPath: string;
  readonly source: SourceSpec;
  /** Built web app to serve at `/` (default web/dist). */
  readonly webRoot?: string;
  /** Longest a frame may wait in a browser's socket buffer before frames to it are dropped. */
  readonly maxBufferedBytes?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly loop: LiveLoop;
  scenario(): Scenario;
  close(): Promise<void>;
}

const MAX_CLIENT_MESSAGE_BYTES = 4096;

/** Starts the HTTP + WebSocket server with its live vision loop. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  let scenario = parseScenarioText(readFileSync(options.scenarioPath, 'utf8'), options.scenarioPath);
  const live = await createSource(options.source, scenario);
  const pipeline = await VisionPipeline.create(live.camera, scenario);
  let camera = live.camera;
  let sourceName = live.source.name;
  const loop = new LiveLoop(scenario, live.source, pipeline);
  const maxBuffered = options.maxBufferedBytes ?? 8 * 1024 * 1024;

  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.get('/api/health', (_req, res) => {
    res.json({ ok: true, scenario: scenario.name, source: sourceName, frame: loop.latest?.snapshot.result.sequence ?? null });
  });
  app.get('/api/distance', (req: Request, res: Response) => {
    const a = typeof req.query.a === 'string' ? req.query.a : '';
    const b = typeof req.query.b === 'string' ? req.query.b : '';
    if (!a || !b) return void res.status(400).json({ error: 'give two units: /api/distance?a=<unit>&b=<unit>' });
    if (!loop.latest) return void res.status(503).json({ error: 'no frame processed yet' });
    try {
      res.json(measurementView(loop.latest.snapshot, a, b));
    } catch (err) {
      if (err instanceof UnknownUnitError) return void res.status(404).json({ error: err.message });
      throw err;
    }
  });
  // Loading a scenario replaces the table being watched; a bad one is refused and nothing changes.
  app.post('/api/scenario', async (req: Request, res: Response) => {
    let next: Scenario;
    try {
      next = parseScenario(req.body, 'uploaded scenario');
    } catch (err) {
      if (err instanceof ScenarioError) return void res.status(400).json({ error: err.message, issues: err.issues });
      throw err;
    }
    const nextLive = await createSource(options.source, next);
    const nextPipeline = await VisionPipeline.create(nextLive.camera, next);
    await loop.replace(next, nextLive.source, nextPipeline);
    scenario = next;
    camera = nextLive.camera;
    sourceName = nextLive.source.name;
    broadcast({ type: 'hello', scenario: scenario.name, source: sourceName });
    res.json({ ok: true, scenario: scenario.name });
  });
  const webRoot = resolve(options.webRoot ?? 'web/dist');
  if (existsSync(webRoot)) app.use(express.static(webRoot));
  else app.get('/', (_req, res) => void res.status(503).send('The web app is not built: run `npm run build:web`.'));
  app.use((err: Error, _req: Request, res: Response, _next: () => void) => {
    // Malformed JSON bodies and the like: answer with the reason, keep serving.
    const status = (err as { status?: number }).status ?? 500;
    res.status(status).json({ error: err.message });
  });

  const http: Server = createServer(app);
  const wss = new WebSocketServer({ server: http, path: '/live', maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  const selections = new Map<WebSocket, { a: string; b: string } | null>();

  const send = (ws: WebSocket, message: ServerMessage) => ws.send(JSON.stringify(message));
  const broadcast = (message: ServerMessage) => {
    for (const ws of wss.clients) send(ws, message);
  };

  wss.on('connection', (ws) => {
    selections.set(ws, null);
    send(ws, { type: 'hello', scenario: scenario.name, source: sourceName });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return send(ws, { type: 'error', message: 'binary messages are not accepted' });
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString());
      } catch {
        return send(ws, { type: 'error', message: 'message is not valid JSON' });
      }
      const result = clientMessageSchema.safeParse(parsed);
      if (!result.success) return send(ws, { type: 'error', message: `bad message: ${result.error.issues[0]?.message}` });
      const msg = result.data;
      if (msg.type === 'clearMeasure') return void selections.set(ws, null);
      const known = scenario.units.map((u) => u.id);
      const missing = [msg.a, msg.b].filter((id) => !known.includes(id));
      if (missing.length > 0) return send(ws, { type: 'error', message: `unknown unit: ${missing.join(', ')}` });
      selections.set(ws, { a: msg.a, b: msg.b });
      if (loop.latest) sendFrameState(ws, loop.latest);
    });
    ws.on('close', () => selections.delete(ws));
    ws.on('error', () => selections.delete(ws));
  });

  function sendFrameState(ws: WebSocket, frame: LiveFrame): void {
    const sel = selections.get(ws);
    let measurement = null;
    if (sel) {
      try {
        measurement = measurementView(frame.snapshot, sel.a, sel.b);
      } catch {
        selections.set(ws, null);
      }
    }
    send(ws, stateMessage(scenario, camera, frame.snapshot, measurement));
  }

  loop.on('frame', (frame) => {
    for (const ws of wss.clients) {
      if (ws.readyState !== ws.OPEN) continue;
      // A slow browser misses frames rather than queueing them without bound.
      if (ws.bufferedAmount > maxBuffered) continue;
      ws.send(frame.jpeg, { binary: true });
      sendFrameState(ws, frame);
    }
  });
  loop.on('sourceError', (err) => {
    console.error(`camera source: ${err.message}`);
    broadcast({ type: 'error', message: `camera source: ${err.message}` });
  });

  await new Promise<void>((resolveListen) => http.listen(options.port, options.host, resolveListen));
  loop.start();
  const address = http.address() as AddressInfo;
  const url = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${address.port}`;

  return {
    url,
    loop,
    scenario: () => scenario,
    async close() {
      await loop.close();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
