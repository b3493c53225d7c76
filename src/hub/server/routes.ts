import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import type pg from 'pg';
import { z } from 'zod';
import { BATTLE_FILE_EXTENSION, JSON_FORMAT, movesCsv, rulingsCsv } from '../../record/transfer.ts';
import { SCHEMA_VERSION } from '../../record/schema.ts';
import { ingestBatchSchema } from '../protocol/ingest.ts';
import {
  archiveFacets,
  battleDetail,
  battleKeyframes,
  battleMoves,
  battleRulings,
  HubBattleNotFoundError,
  replayData,
  searchBattles,
  snapshotJpeg,
  type ArchiveQuery,
} from '../store/archive.ts';
import { boardTables, type BoardTable } from '../store/board.ts';
import { exportHubBattle } from '../store/export.ts';
import { ingestBatch, IngestError, ingestState } from '../store/ingest.ts';
import { addTable, listTables, renewTableToken, setPlayers, TableError } from '../store/tables.ts';
import { callerOf, only, type HubAccess } from './access.ts';

/**
 * The hub's REST routes:
 *
 *   GET  /hub/api/board                       every table: live or not, scenario, turn, last ruling
 *   GET  /hub/api/tables/:id/thumbnail.jpg    the table's latest small picture
 *   GET  /hub/api/archive?player=&ruleset=&scenario=&table=&from=&to=&q=   search battles
 *   GET  /hub/api/archive/facets              rulesets, scenarios and tables present
 *   GET  /api/battles[/:id[/replay|/snapshots/:sid|/export?format=]]   the replay page's API, hub ids
 *   GET  /hub/api/ingest/state                (table) what the hub holds of this table's battles
 *   POST /hub/api/ingest                      (table) one batch of one battle's record
 *   GET  /hub/api/tables                      (organiser) the tables
 *   POST /hub/api/tables {id, name?, players?}   (organiser) add a table: answers its token, once
 *   POST /hub/api/tables/:id/token            (organiser) a new token for a table
 *   PUT  /hub/api/tables/:id/players {players}   (organiser) who plays at a table
 *   GET  /hub/api/whoami, /hub/api/health
 */

export interface RouteDeps {
  readonly pool: pg.Pool;
  readonly access: HubAccess;
  /** Tells every hub process that a table's board line changed. */
  boardChanged(tableId: string): void;
  status(): unknown;
}

const tableInput = z.strictObject({
  id: z.string().min(1).max(40),
  name: z.string().min(1).max(200).optional(),
  players: z.array(z.string().min(1).max(100)).max(20).optional(),
});
const playersInput = z.strictObject({ players: z.array(z.string().min(1).max(100)).max(20) });

const BOARD_CACHE_MS = 1000;

function handle(fn: (req: Request, res: Response) => Promise<void>) {
  return async (req: Request, res: Response): Promise<void> => {
    try {
      await fn(req, res);
    } catch (err) {
      if (err instanceof HubBattleNotFoundError) return void res.status(404).json({ error: err.message });
      if (err instanceof TableError) return void res.status(400).json({ error: err.message });
      if (err instanceof IngestError) return void res.status(400).json({ error: err.message });
      console.error(`hub: ${req.method} ${req.path}: ${(err as Error).message}`);
      if (!res.headersSent) res.status(500).json({ error: 'the hub could not answer (see its log)' });
    }
  };
}

function battleIdOf(req: Request): number {
  const ref = String(req.params['id']);
  if (!/^\d{1,15}$/.test(ref)) throw new HubBattleNotFoundError(`"${ref}" is not a battle number`);
  return Number(ref);
}

function queryOf(req: Request): ArchiveQuery {
  const s = (k: string): string | undefined => {
    const v = req.query[k];
    return typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 200) : undefined;
  };
  const date = (k: string, endOfDay: boolean): number | undefined => {
    const v = s(k);
    if (v === undefined) return undefined;
    const t = /^\d+$/.test(v) ? Number(v) : Date.parse(/^\d{4}-\d\d-\d\d$/.test(v) ? `${v}T00:00:00Z` : v);
    if (!Number.isFinite(t)) return undefined;
    return endOfDay && /^\d{4}-\d\d-\d\d$/.test(v) ? t + 86_400_000 : t;
  };
  const limit = Number(s('limit') ?? 200);
  return {
    ...(s('player') ? { player: s('player') } : {}),
    ...(s('ruleset') ? { ruleset: s('ruleset') } : {}),
    ...(s('scenario') ? { scenario: s('scenario') } : {}),
    ...(s('table') ? { table: s('table') } : {}),
    ...(s('q') ? { text: s('q') } : {}),
    ...(date('from', false) !== undefined ? { from: date('from', false) } : {}),
    ...(date('to', true) !== undefined ? { to: date('to', true) } : {}),
    ...(Number.isFinite(limit) ? { limit } : {}),
  };
}

export function hubRoutes(deps: RouteDeps): { router: Router; invalidateBoard(): void } {
  const { pool } = deps;
  const router = Router();
  let board: { at: number; tables: Promise<BoardTable[]> } | null = null;
  const invalidateBoard = () => {
    board = null;
  };
  const thumbs = new Map<string, { at: number; jpeg: Promise<Buffer | null> }>();

  router.get('/hub/api/health', (_req, res) => void res.json({ ok: true }));
  router.get('/hub/api/whoami', (_req, res) => void res.json(callerOf(res)));
  router.get('/hub/api/status', only('organiser'), (_req, res) => void res.json(deps.status()));

  router.get(
    '/hub/api/board',
    handle(async (_req, res) => {
      if (!board || Date.now() - board.at > BOARD_CACHE_MS)
        board = { at: Date.now(), tables: boardTables(pool) };
      const current = board;
      try {
        res.json({ at: current.at, tables: await current.tables });
      } catch (err) {
        if (board === current) board = null;
        throw err;
      }
    }),
  );
  router.get(
    '/hub/api/tables/:id/thumbnail.jpg',
    handle(async (req, res) => {
      const id = String(req.params['id']);
      let hit = thumbs.get(id);
      if (!hit || Date.now() - hit.at > BOARD_CACHE_MS) {
        if (thumbs.size > 1000) thumbs.clear();
        hit = {
          at: Date.now(),
          jpeg: pool
            .query<{ thumbnail: Buffer | null }>('SELECT thumbnail FROM table_live WHERE table_id = $1', [id])
            .then((r) => r.rows[0]?.thumbnail ?? null),
        };
        thumbs.set(id, hit);
      }
      const jpeg = await hit.jpeg;
      if (!jpeg) return void res.status(404).json({ error: 'no picture from this table yet' });
      res.type('image/jpeg').set('Cache-Control', 'no-store').send(jpeg);
    }),
  );

  // Archive and the replay page's API (battle numbers are the hub's).
  router.get(
    '/hub/api/archive',
    handle(async (req, res) => void res.json({ battles: await searchBattles(pool, queryOf(req)) })),
  );
  router.get(
    '/hub/api/archive/facets',
    handle(async (_req, res) => void res.json(await archiveFacets(pool))),
  );
  router.get(
    '/api/battles',
    handle(async (req, res) => {
      const battles = await searchBattles(pool, queryOf(req));
      res.json({ recording: null, dataDir: null, battles: battles.reverse() });
    }),
  );
  router.get(
    '/api/battles/:id',
    handle(async (req, res) => void res.json(await battleDetail(pool, battleIdOf(req)))),
  );
  router.get(
    '/api/battles/:id/replay',
    handle(async (req, res) => void res.json(await replayData(pool, battleIdOf(req)))),
  );
  router.get(
    '/api/battles/:id/snapshots/:sid',
    handle(async (req, res) => {
      const jpeg = await snapshotJpeg(pool, battleIdOf(req), Number(req.params['sid']));
      if (!jpeg) return void res.status(404).json({ error: 'no such picture' });
      res.type('image/jpeg').set('Cache-Control', 'private, max-age=86400').send(jpeg);
    }),
  );
  router.get(
    '/api/battles/:id/export',
    handle(async (req, res) => {
      const id = battleIdOf(req);
      const battle = await battleDetail(pool, id);
      const stem = `${battle.table}-battle-${battle.id}`;
      const format = String(req.query['format'] ?? 'battle');
      switch (format) {
        case 'battle': {
          const dir = mkdtempSync(join(tmpdir(), 'vedette-hub-export-'));
          try {
            const file = join(dir, `${stem}${BATTLE_FILE_EXTENSION}`);
            await exportHubBattle(pool, id, file);
            res
              .attachment(`${stem}${BATTLE_FILE_EXTENSION}`)
              .type('application/vnd.sqlite3')
              .send(readFileSync(file));
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
          return;
        }
        case 'json': {
          const data = await replayData(pool, id);
          return void res.attachment(`${stem}.json`).json({
            format: JSON_FORMAT,
            version: SCHEMA_VERSION,
            units: { length: 'mm', angle: 'degrees CCW from table +y', time: 'epoch ms' },
            battle: data.battle,
            marks: data.marks,
            keyframes: await battleKeyframes(pool, id),
            moves: data.moves,
            rulings: data.rulings,
            annotations: data.annotations,
            snapshots: data.snapshots,
          });
        }
        case 'moves.csv':
          return void res
            .attachment(`${stem}-moves.csv`)
            .type('text/csv')
            .send(movesCsv(battle, await battleMoves(pool, id)));
        case 'rulings.csv':
          return void res
            .attachment(`${stem}-rulings.csv`)
            .type('text/csv')
            .send(rulingsCsv(battle, await battleRulings(pool, id)));
        default:
          return void res
            .status(400)
            .json({ error: `unknown format "${format}": battle, json, moves.csv or rulings.csv` });
      }
    }),
  );

  // Tables replicate their own record.
  router.get(
    '/hub/api/ingest/state',
    only('table'),
    handle(async (_req, res) => void res.json(await ingestState(pool, callerOf(res).table!))),
  );
  router.post(
    '/hub/api/ingest',
    only('table'),
    express.json({ limit: '12mb' }),
    handle(async (req, res) => {
      const parsed = ingestBatchSchema.safeParse(req.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return void res
          .status(400)
          .json({ error: `bad batch: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}` });
      }
      const table = callerOf(res).table!;
      const result = await ingestBatch(pool, table, parsed.data);
      if (Object.values(result.inserted).some((n) => n > 0)) {
        invalidateBoard();
        deps.boardChanged(table);
      }
      res.json(result);
    }),
  );

  // The organiser's tables.
  router.get(
    '/hub/api/tables',
    only('organiser'),
    handle(async (_req, res) => void res.json({ tables: await listTables(pool) })),
  );
  router.post(
    '/hub/api/tables',
    only('organiser'),
    express.json({ limit: '64kb' }),
    handle(async (req, res) => {
      const body = tableInput.safeParse(req.body);
      if (!body.success)
        return void res.status(400).json({ error: `bad table: ${body.error.issues[0]?.message}` });
      const made = await addTable(pool, body.data);
      invalidateBoard();
      res.status(201).json(made);
    }),
  );
  router.post(
    '/hub/api/tables/:id/token',
    only('organiser'),
    handle(async (req, res) => {
      const token = await renewTableToken(pool, String(req.params['id']));
      deps.access.forget();
      res.json({ token });
    }),
  );
  router.put(
    '/hub/api/tables/:id/players',
    only('organiser'),
    express.json({ limit: '64kb' }),
    handle(async (req, res) => {
      const body = playersInput.safeParse(req.body);
      if (!body.success)
        return void res.status(400).json({ error: `bad players: ${body.error.issues[0]?.message}` });
      const table = await setPlayers(pool, String(req.params['id']), body.data.players);
      invalidateBoard();
      res.json(table);
    }),
  );
  return { router, invalidateBoard };
}
