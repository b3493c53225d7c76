import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { LiveRecording, RecordingOffError } from '../record/live-recording.ts';
import { BattleFileError } from '../record/schema.ts';
import { BattleNotFoundError, type BattleStore } from '../record/store.ts';
import {
  battleJson,
  BATTLE_FILE_EXTENSION,
  exportBattleFile,
  importBattleFile,
  movesCsv,
  rulingsCsv,
} from '../record/transfer.ts';
import type { Verdict } from '../rules/engine/verdict.ts';
import type { RecordedPose } from '../record/types.ts';
import { accessPolicy, httpGuards } from './guards.ts';

/**
 * REST for recorded battles (issue #7), mounted by the live server and by `vedette replay`:
 *
 *   GET  /api/battles                         list, and which battle is being recorded
 *   POST /api/battles            {name?}      end the current battle, start recording a new one
 *   POST /api/battles/stop                    end the current battle
 *   GET  /api/battles/:id                     one battle (":id" may be "current")
 *   GET  /api/battles/:id/replay              everything the replay page needs but pictures
 *   GET  /api/battles/:id/state?t=<ms>        the table at a moment (settled poses)
 *   GET  /api/battles/:id/snapshots/:sid      a kept picture (JPEG)
 *   POST /api/battles/:id/marks  {kind: "turn"|"phase", side?, phase?, label?, t?}
 *   POST /api/battles/:id/annotations {text, t?, x?, y?, author?}
 *   GET  /api/battles/:id/export?format=battle|json|moves.csv|rulings.csv
 *   POST /api/battles/import     (body: the battle file, application/octet-stream)
 *
 * The same router watches the server's answers to POST /api/ask and POST /api/distance and records
 * each ruling with the battle (mount it before the routes that answer them). Reading never writes:
 * GET /api/distance and a page's live measurement are answered, not recorded.
 */

const markSchema = z.strictObject({
  kind: z.enum(['turn', 'phase']),
  side: z.string().min(1).max(100).nullable().optional(),
  phase: z.string().min(1).max(100).nullable().optional(),
  label: z.string().min(1).max(200).optional(),
  t: z.number().int().positive().optional(),
});

const annotationSchema = z.strictObject({
  text: z.string().min(1).max(2000),
  t: z.number().int().positive().optional(),
  x: z.number().finite().optional(),
  y: z.number().finite().optional(),
  author: z.string().min(1).max(100).optional(),
});

const startSchema = z.strictObject({ name: z.string().min(1).max(200).optional() });

const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

function isVerdict(v: unknown): v is Verdict {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o['ruleset'] === 'string' && typeof o['asked'] === 'string' && typeof o['answer'] === 'string'
  );
}

/** Records the server's answers to rules and distance questions (observes their JSON replies). */
function rulingObserver(recording: LiveRecording) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const ask = req.method === 'POST' && req.path === '/api/ask';
    const distance = req.method === 'POST' && req.path === '/api/distance';
    if (!ask && !distance) return next();
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      try {
        if (res.statusCode === 200 && typeof body === 'object' && body !== null) {
          const b = body as Record<string, unknown>;
          if (ask && isVerdict(b['verdict'])) {
            const q = req.body as Record<string, unknown>;
            const opts = q['options'];
            recording.ruling(
              b['verdict'],
              [q['question'], q['a'], q['b']].filter((x) => typeof x === 'string').join(' '),
              typeof opts === 'object' && opts !== null
                ? (opts as Record<string, string | number | boolean>)
                : undefined,
              res.locals['rulingPoses'] as readonly RecordedPose[] | undefined,
            );
          } else if (distance && typeof b['distanceIn'] === 'number' && typeof b['a'] === 'string') {
            recording.measurement(b as Parameters<LiveRecording['measurement']>[0]);
          }
        }
      } catch (err) {
        console.error(`recorder: ruling not kept: ${err instanceof Error ? err.message : String(err)}`);
      }
      return json(body);
    };
    next();
  };
}

export function battleRoutes(recording: LiveRecording): Router {
  const router = Router();
  router.use(rulingObserver(recording));

  const storeOf = (): BattleStore => {
    if (!recording.store) throw new RecordingOffError('recording is off on this server (no data folder)');
    return recording.store;
  };
  const battleId = (req: Request): number => {
    const ref = String(req.params['id']);
    if (ref === 'current') {
      const id = recording.currentBattleId;
      if (id === null) throw new BattleNotFoundError('no battle is being recorded');
      return id;
    }
    if (!/^\d+$/.test(ref)) throw new BattleNotFoundError(`"${ref}" is not a battle number`);
    return storeOf().battle(Number(ref)).id;
  };
  const handle =
    (fn: (req: Request, res: Response) => void | Promise<void>) =>
    async (req: Request, res: Response): Promise<void> => {
      try {
        await fn(req, res);
      } catch (err) {
        if (err instanceof BattleNotFoundError) return void res.status(404).json({ error: err.message });
        if (err instanceof RecordingOffError) return void res.status(503).json({ error: err.message });
        if (err instanceof BattleFileError) return void res.status(422).json({ error: err.message });
        throw err;
      }
    };

  router.get(
    '/api/battles',
    handle((_req, res) => {
      res.json({
        recording: recording.currentBattleId,
        dataDir: recording.dataDir,
        battles: recording.store ? recording.store.listBattles() : [],
      });
    }),
  );
  router.post(
    '/api/battles',
    handle(async (req, res) => {
      const body = startSchema.safeParse(req.body ?? {});
      if (!body.success)
        return void res.status(400).json({ error: `bad request: ${body.error.issues[0]?.message}` });
      await recording.stop();
      res.status(201).json(recording.start(body.data.name));
    }),
  );
  router.post(
    '/api/battles/stop',
    handle(async (_req, res) => {
      const stopped = await recording.stop();
      if (!stopped) return void res.status(409).json({ error: 'no battle is being recorded' });
      res.json(stopped);
    }),
  );
  router.post(
    '/api/battles/import',
    express.raw({ type: () => true, limit: MAX_IMPORT_BYTES }),
    handle((req, res) => {
      const body = req.body as unknown;
      if (!Buffer.isBuffer(body) || body.length === 0)
        return void res.status(400).json({ error: 'send the battle file as the request body' });
      const dir = mkdtempSync(join(tmpdir(), 'vedette-import-'));
      try {
        const file = join(dir, `upload${BATTLE_FILE_EXTENSION}`);
        writeFileSync(file, body);
        res.status(201).json(importBattleFile(storeOf(), file));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }),
  );
  router.get(
    '/api/battles/:id',
    handle((req, res) => void res.json(storeOf().battle(battleId(req)))),
  );
  router.get(
    '/api/battles/:id/replay',
    handle((req, res) => void res.json(storeOf().replay(battleId(req)))),
  );
  router.get(
    '/api/battles/:id/state',
    handle((req, res) => {
      const id = battleId(req);
      const t = Number(req.query['t']);
      if (!Number.isFinite(t))
        return void res.status(400).json({ error: 'give the moment as ?t=<epoch ms>' });
      res.json(storeOf().seek(id, t));
    }),
  );
  router.get(
    '/api/battles/:id/snapshots/:sid',
    handle((req, res) => {
      const jpeg = storeOf().snapshotJpeg(battleId(req), Number(req.params['sid']));
      if (!jpeg) return void res.status(404).json({ error: 'no such picture' });
      res.type('image/jpeg').set('Cache-Control', 'private, max-age=86400').send(jpeg);
    }),
  );
  router.post(
    '/api/battles/:id/marks',
    handle((req, res) => {
      const body = markSchema.safeParse(req.body);
      if (!body.success)
        return void res.status(400).json({ error: `bad mark: ${body.error.issues[0]?.message}` });
      const d = body.data;
      res.status(201).json(
        recording.mark(battleId(req), {
          kind: d.kind,
          ...(d.t === undefined ? {} : { t: d.t }),
          ...(d.side === undefined ? {} : { side: d.side }),
          ...(d.phase === undefined ? {} : { phase: d.phase }),
          ...(d.label === undefined ? {} : { label: d.label }),
        }),
      );
    }),
  );
  router.post(
    '/api/battles/:id/annotations',
    handle((req, res) => {
      const body = annotationSchema.safeParse(req.body);
      if (!body.success)
        return void res.status(400).json({ error: `bad annotation: ${body.error.issues[0]?.message}` });
      const id = battleId(req);
      const d = body.data;
      const store = storeOf();
      const at = d.x !== undefined && d.y !== undefined ? { x: d.x, y: d.y } : null;
      const live = recording.current;
      const newId =
        live && live.battleId === id && d.t === undefined
          ? live.annotate(d.text, at, d.author ?? null)
          : store.addAnnotation(id, {
              t: d.t ?? store.battle(id).lastEventAt,
              text: d.text,
              at,
              author: d.author ?? null,
            });
      res.status(201).json({ id: newId });
    }),
  );
  router.get(
    '/api/battles/:id/export',
    handle((req, res) => {
      const store = storeOf();
      const id = battleId(req);
      const battle = store.battle(id);
      const format = String(req.query['format'] ?? 'battle');
      const stem = `battle-${id}`;
      switch (format) {
        case 'battle': {
          const dir = mkdtempSync(join(tmpdir(), 'vedette-export-'));
          try {
            const file = join(dir, `${stem}${BATTLE_FILE_EXTENSION}`);
            exportBattleFile(store, id, file);
            res
              .attachment(`${stem}${BATTLE_FILE_EXTENSION}`)
              .type('application/vnd.sqlite3')
              .send(readFileSync(file));
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
          return;
        }
        case 'json':
          return void res.attachment(`${stem}.json`).json(battleJson(store, id));
        case 'moves.csv':
          return void res
            .attachment(`${stem}-moves.csv`)
            .type('text/csv')
            .send(movesCsv(battle, store.moves(id)));
        case 'rulings.csv':
          return void res
            .attachment(`${stem}-rulings.csv`)
            .type('text/csv')
            .send(rulingsCsv(battle, store.rulings(id)));
        default:
          return void res
            .status(400)
            .json({ error: `unknown format "${format}": battle, json, moves.csv or rulings.csv` });
      }
    }),
  );
  return router;
}

export interface ReplayServerOptions {
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly webRoot?: string;
}

export interface RunningReplayServer {
  readonly url: string;
  readonly recording: LiveRecording;
  close(): Promise<void>;
}

/**
 * A server without a camera: the battle routes and the web app, for `vedette replay`. It has no
 * tokens, so it listens on this machine only, behind the same guards as the live server.
 */
export async function startReplayServer(options: ReplayServerOptions): Promise<RunningReplayServer> {
  const policy = accessPolicy({ host: options.host, secure: false, writesPerSecond: 20 });
  const recording = LiveRecording.offline(options.dataDir);
  const app = express();
  app.disable('x-powered-by');
  app.use(httpGuards(policy));
  app.use(express.json({ limit: '1mb' }));
  app.use(battleRoutes(recording));
  const webRoot = resolve(options.webRoot ?? 'web/dist');
  if (existsSync(webRoot)) app.use(express.static(webRoot));
  else
    app.get(
      '/',
      (_req, res) => void res.status(503).send('The web app is not built: run `npm run build:web`.'),
    );
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
    const status = (err as { status?: number }).status ?? 500;
    res.status(status).json({ error: err.message });
  });
  const http: Server = createServer(app);
  await new Promise<void>((r) => http.listen(options.port, options.host, r));
  const address = http.address() as AddressInfo;
  const url = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${address.port}`;
  return {
    url,
    recording,
    async close() {
      await new Promise<void>((r) => http.close(() => r()));
      await recording.close();
    },
  };
}
