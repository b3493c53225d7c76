import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Router, type Request, type Response } from 'express';
import sharp from 'sharp';
import { z } from 'zod';
import { BoardSpecError, type BoardSpec } from '../camera/calibration-board.ts';
import { loadBoardSpec, writeCameraProfile } from '../camera/calibration-files.ts';
import {
  calibrateFromCharuco,
  CalibrationRefused,
  type CalibrationResult,
  type CalibrationView,
  type ViewReport,
} from '../camera/calibration.ts';
import { badRequest } from './http-errors.ts';
import type { RouteContext } from './route-context.ts';

/**
 * The calibration wizard's server half. The browser points the live camera at a printed ChArUco
 * board, captures views one by one (each is the current camera frame), then asks for a fit:
 * `calibrateFromCharuco` on the captured views, reporting per-view corners and RMS, coverage and
 * the overall RMS, or the refusal with its reason. A good fit can be saved as a camera profile
 * under calibration/.
 *
 *   GET    /api/calibration              boards available, views captured, last result
 *   POST   /api/calibration/board        { board }: choose the board (clears captured views)
 *   POST   /api/calibration/capture      capture the current frame as a view
 *   DELETE /api/calibration/views        forget every captured view
 *   POST   /api/calibration/solve        run the calibration on the captured views
 *   POST   /api/calibration/save         { name }: write the last good fit to calibration/<name>.json
 */

export interface CalibrationRouteOptions {
  /** calibration/: boards are read from <dir>/boards, profiles written to <dir>. */
  readonly dir: string;
  /** Most views kept (each is a full raw frame in memory). */
  readonly maxViews?: number;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const boardBody = z.strictObject({ board: z.string().regex(NAME, 'board: a name from calibration/boards') });
const saveBody = z.strictObject({ name: z.string().regex(NAME, 'profile names are 1–64 letters, digits, - or _') });

export interface SolveReport {
  readonly ok: boolean;
  readonly rmsPx: number | null;
  readonly coverage: number | null;
  readonly tiltSpreadDeg: number | null;
  readonly views: readonly ViewReport[];
  readonly warnings: readonly string[];
  readonly refusal: { readonly reason: string; readonly message: string } | null;
  readonly profile: CalibrationResult['profile'] | null;
}

export function calibrationRoutes(ctx: RouteContext, options: CalibrationRouteOptions): Router {
  const router = Router();
  const boardsDir = join(options.dir, 'boards');
  const maxViews = options.maxViews ?? 30;
  let boardName: string | null = null;
  let board: BoardSpec | null = null;
  let views: CalibrationView[] = [];
  let captured: number[] = [];
  let last: SolveReport | null = null;
  let counter = 0;

  const boards = async () =>
    existsSync(boardsDir) ? (await readdir(boardsDir)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)) : [];

  const summary = async () => ({
    boards: await boards(),
    board: boardName,
    views: views.map((v, i) => ({ name: v.name, frame: captured[i] ?? null, width: v.image.width, height: v.image.height })),
    last,
  });

  async function useBoard(name: string): Promise<BoardSpec> {
    if (board && boardName === name) return board;
    const path = resolve(boardsDir, `${name}.json`);
    if (!existsSync(path)) throw new BoardSpecError(`no board "${name}" in ${boardsDir}`);
    board = await loadBoardSpec(path);
    boardName = name;
    return board;
  }

  router.get('/api/calibration', async (_req, res) => void res.json(await summary()));

  router.post('/api/calibration/board', async (req: Request, res: Response) => {
    const parsed = boardBody.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad board', parsed.error);
    try {
      await useBoard(parsed.data.board);
    } catch (err) {
      if (err instanceof BoardSpecError || (err instanceof Error && /cannot read board/.test(err.message)))
        return void res.status(404).json({ error: err.message });
      throw err;
    }
    views = [];
    captured = [];
    last = null;
    res.json(await summary());
  });

  router.post('/api/calibration/capture', async (_req, res) => {
    const frame = ctx.latest();
    if (!frame) return void res.status(503).json({ error: 'no camera frame yet' });
    if (views.length >= maxViews) return void res.status(409).json({ error: `at most ${maxViews} views; solve or start over` });
    const { data, info } = await sharp(frame.jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    counter += 1;
    views.push({ name: `view ${counter}`, image: { width: info.width, height: info.height, channels: 3, data: new Uint8Array(data) } });
    captured.push(frame.snapshot.result.sequence);
    res.json(await summary());
  });

  router.delete('/api/calibration/views', async (_req, res) => {
    views = [];
    captured = [];
    last = null;
    res.json(await summary());
  });

  router.post('/api/calibration/solve', async (_req, res) => {
    if (!board) return void res.status(400).json({ error: 'choose a board first' });
    if (views.length === 0) return void res.status(400).json({ error: 'capture some views first' });
    try {
      const r = await calibrateFromCharuco(board, views, { profileName: `camera-${Date.now()}` });
      last = {
        ok: true,
        rmsPx: r.rmsPx,
        coverage: r.coverage,
        tiltSpreadDeg: r.tiltSpreadDeg,
        views: r.views,
        warnings: r.warnings,
        refusal: null,
        profile: r.profile,
      };
    } catch (err) {
      if (!(err instanceof CalibrationRefused)) throw err;
      last = {
        ok: false,
        rmsPx: null,
        coverage: null,
        tiltSpreadDeg: null,
        views: err.views,
        warnings: [],
        refusal: { reason: err.reason, message: err.message },
        profile: null,
      };
    }
    res.json(await summary());
  });

  router.post('/api/calibration/save', async (req: Request, res: Response) => {
    const parsed = saveBody.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad profile name', parsed.error);
    if (!last?.ok || !last.profile) return void res.status(409).json({ error: 'no good calibration to save: solve first' });
    const path = join(options.dir, `${parsed.data.name}.json`);
    await writeCameraProfile(path, { ...last.profile, name: parsed.data.name });
    res.json({ ok: true, saved: path });
  });

  return router;
}
