import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Router, type Request, type Response } from 'express';
import sharp from 'sharp';
import { z } from 'zod';
import {
  BOARD_DICTIONARY_CONSTANTS,
  boardMarkerCount,
  BoardSpecError,
  type BoardSpec,
} from '../camera/calibration-board.ts';
import { loadBoardSpec, writeCameraProfile } from '../camera/calibration-files.ts';
import {
  calibrateFromCharuco,
  CalibrationRefused,
  type CalibrationResult,
  type CalibrationView,
  type ViewReport,
} from '../camera/calibration.ts';
import { frameTable } from '../synth/camera.ts';
import { defaultBoardPoses } from '../synth/charuco-board.ts';
import { syntheticTableExtras } from '../synth/table-extras.ts';
import type { RasterImage } from '../vision/image.ts';
import { loadOpenCV } from '../vision/opencv.ts';
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
 *   GET    /api/calibration/synthetic-board   the test board the synthetic camera is shown, if any
 *   POST   /api/calibration/synthetic-board   { board: name | null, holdFrames? }: the synthetic camera
 *                                              only — hold that board over the table, moving it
 *                                              through nine poses (src/synth/charuco-board.ts)
 *
 * A capture is refused unless a board is chosen and at least four of its markers are in the frame,
 * so the list of views only ever holds pictures of the board.
 */

export interface CalibrationRouteOptions {
  /** calibration/: boards are read from <dir>/boards, profiles written to <dir>. */
  readonly dir: string;
  /** Most views kept (each is a full raw frame in memory). */
  readonly maxViews?: number;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const boardBody = z.strictObject({ board: z.string().regex(NAME, 'board: a name from calibration/boards') });
const saveBody = z.strictObject({
  name: z.string().regex(NAME, 'profile names are 1–64 letters, digits, - or _'),
});
const syntheticBoardBody = z.strictObject({
  board: z.string().regex(NAME, 'board: a name from calibration/boards').nullable(),
  holdFrames: z.number().int().min(1).max(100).optional(),
});

/** Fewest board markers a capture must show (fewer cannot give the corners a view needs). */
export const MIN_CAPTURE_MARKERS = 4;

/** How many of the board's own markers (its dictionary, ids on the board) are in the picture. */
export async function boardMarkersIn(image: RasterImage, board: BoardSpec): Promise<number> {
  const cv = await loadOpenCV();
  const dictionary = cv.getPredefinedDictionary(cv[BOARD_DICTIONARY_CONSTANTS[board.dictionary]]);
  const params = new cv.aruco_DetectorParameters();
  const refine = new cv.aruco_RefineParameters(10, 3, true);
  const detector = new cv.aruco_ArucoDetector(dictionary, params, refine);
  const rgb = new cv.Mat(image.height, image.width, image.channels === 1 ? cv.CV_8UC1 : cv.CV_8UC3);
  const gray = new cv.Mat();
  const corners = new cv.MatVector();
  const ids = new cv.Mat();
  const rejected = new cv.MatVector();
  try {
    (rgb.data as Uint8Array).set(image.data.subarray(0, rgb.data.length));
    if (image.channels === 1) rgb.copyTo(gray);
    else cv.cvtColor(rgb, gray, cv.COLOR_RGB2GRAY);
    detector.detectMarkers(gray, corners, ids, rejected);
    const count = boardMarkerCount(board);
    let found = 0;
    for (let i = 0; i < ids.rows; i++) if ((ids.intAt(i, 0) as number) < count) found++;
    return found;
  } finally {
    for (const m of [rgb, gray, corners, ids, rejected, detector, refine, params]) m.delete();
    dictionary.delete?.();
  }
}

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
    existsSync(boardsDir)
      ? (await readdir(boardsDir)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5))
      : [];

  const summary = async () => ({
    boards: await boards(),
    board: boardName,
    views: views.map((v, i) => ({
      name: v.name,
      frame: captured[i] ?? null,
      width: v.image.width,
      height: v.image.height,
    })),
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
    if (!board || !boardName)
      return void res.status(409).json({
        error: 'choose the printed board first (POST /api/calibration/board)',
        reason: 'no-board-chosen',
      });
    const frame = ctx.latest();
    if (!frame) return void res.status(503).json({ error: 'no camera frame yet' });
    if (views.length >= maxViews)
      return void res.status(409).json({ error: `at most ${maxViews} views; solve or start over` });
    // The picture as the pages see it (the camera's JPEG, or one made of the frame's pixels).
    const jpeg = await frame.picture.jpeg().catch(() => null);
    if (!jpeg) return void res.status(503).json({ error: 'the camera frame was replaced: try again' });
    const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const image: RasterImage = {
      width: info.width,
      height: info.height,
      channels: 3,
      data: new Uint8Array(data),
    };
    const markers = await boardMarkersIn(image, board);
    if (markers < MIN_CAPTURE_MARKERS)
      return void res.status(422).json({
        error:
          markers === 0
            ? `no ${boardName} board in this frame (no ${board.dictionary} marker of it found): hold the board in front of the camera, flat to the light, and capture again`
            : `only ${markers} marker(s) of ${boardName} found in this frame (need ${MIN_CAPTURE_MARKERS}): bring the whole board into view and hold it still`,
        reason: 'board-not-in-view',
        markersFound: markers,
      });
    counter += 1;
    views.push({ name: `view ${counter}`, image });
    captured.push(frame.snapshot.result.sequence);
    res.json({ ...(await summary()), markersFound: markers });
  });

  // The synthetic camera only: a printed board held over the table, moving through its poses.
  router.get('/api/calibration/synthetic-board', (_req, res) => {
    const show = syntheticTableExtras.calibrationBoard;
    res.json({
      synthetic: ctx.camera().source === 'synthetic',
      board: show ? show.spec.name : null,
      poses: show?.poses.length ?? 0,
      holdFrames: show?.holdFrames ?? null,
    });
  });
  router.post('/api/calibration/synthetic-board', async (req: Request, res: Response) => {
    const parsed = syntheticBoardBody.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad synthetic board', parsed.error);
    const camera = ctx.camera();
    if (camera.source !== 'synthetic')
      return void res.status(409).json({
        error:
          'only the synthetic camera can be shown a test board: hold the printed board in front of your camera instead',
      });
    if (parsed.data.board === null) {
      syntheticTableExtras.showBoard(null);
      return void res.json({ ok: true, board: null });
    }
    let spec: BoardSpec;
    try {
      const path = resolve(boardsDir, `${parsed.data.board}.json`);
      if (!existsSync(path)) throw new BoardSpecError(`no board "${parsed.data.board}" in ${boardsDir}`);
      spec = await loadBoardSpec(path);
    } catch (err) {
      if (err instanceof Error) return void res.status(404).json({ error: err.message });
      throw err;
    }
    const cam = frameTable(ctx.scenario().table, {
      resolution: { width: camera.imageWidth, height: camera.imageHeight },
    });
    const poses = defaultBoardPoses(cam);
    syntheticTableExtras.showBoard({ spec, poses, holdFrames: parsed.data.holdFrames ?? 6 });
    res.json({ ok: true, board: spec.name, poses: poses.length, holdFrames: parsed.data.holdFrames ?? 6 });
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
    if (!last?.ok || !last.profile)
      return void res.status(409).json({ error: 'no good calibration to save: solve first' });
    const path = join(options.dir, `${parsed.data.name}.json`);
    await writeCameraProfile(path, { ...last.profile, name: parsed.data.name });
    res.json({ ok: true, saved: path });
  });

  return router;
}
