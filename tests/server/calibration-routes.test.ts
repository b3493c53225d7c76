import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBoardSpec } from '../../src/camera/calibration-files.ts';
import { parseCameraProfile, type CameraProfile } from '../../src/camera/profile.ts';
import { calibrationRoutes } from '../../src/server/calibration-routes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { defaultBoardPoses } from '../../src/synth/charuco-board.ts';
import { encodeJpeg } from '../../src/synth/encode.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import { syntheticTableExtras } from '../../src/synth/table-extras.ts';
import { parseScenario } from '../../src/table/scenario.ts';
import { call, FakeContext, frameFromFile, serve } from './route-support.ts';

/**
 * The calibration wizard's routes: bodies are checked, a capture needs a chosen board and the
 * board in the picture (refused with the reason otherwise), a fit of synthetic board views is
 * saved inside the calibration folder only, and the synthetic camera can be shown a test board.
 */

const scenario = parseScenario(JSON.parse(readFileSync('scenarios/black-powder-sample.json', 'utf8')));

class RealCameraContext extends FakeContext {
  override camera(): CameraProfile {
    return { ...super.camera(), source: 'calibration' };
  }
}

describe('calibration routes', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'vedette-calibration-'));
  cpSync('calibration/boards', join(dir, 'boards'), { recursive: true });
  const ctx = new FakeContext(scenario, undefined);
  let server: Awaited<ReturnType<typeof serve>>;
  let table: LiveSyntheticTable;
  const cam = frameTable(scenario.table, { resolution: '1080p' });

  /** Makes the fake camera's latest frame the synthetic table, with the board at `pose` (or none). */
  async function showFrame(pose: number | null): Promise<void> {
    const poses = defaultBoardPoses(cam);
    const { image } = table.frameWithPoses({}, pose ?? 0, pose === null ? null : poses[pose]!);
    ctx.frame = frameFromFile(scenario, await encodeJpeg(image, { quality: 85 }));
  }

  beforeAll(async () => {
    server = await serve(calibrationRoutes(ctx, { dir }));
    table = await LiveSyntheticTable.create(scenario, cam);
    await table.setCalibrationBoard({ spec: await loadBoardSpec(join(dir, 'boards/vedette-7x9.json')) });
  }, 60_000);
  afterAll(async () => {
    syntheticTableExtras.clear();
    await server.close();
  });

  it('lists the boards; refuses bad bodies with the field named', async () => {
    const r = await call(`${server.url}/api/calibration`, 'GET');
    expect(r.json['boards']).toEqual(expect.arrayContaining(['vedette-7x9', 'opencv-tutorial-5x7']));
    for (const body of [
      {},
      { board: 5 },
      { board: '../boards/vedette-7x9' },
      { board: 'vedette-7x9', extra: 1 },
    ]) {
      const bad = await call(`${server.url}/api/calibration/board`, 'POST', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(String(bad.json['error'])).toMatch(/board/);
    }
    expect(
      (await call(`${server.url}/api/calibration/board`, 'POST', { board: 'no-such-board' })).status,
    ).toBe(404);
    for (const body of [{}, { name: '' }, { name: 7 }, { name: 'a'.repeat(65) }])
      expect(
        (await call(`${server.url}/api/calibration/save`, 'POST', body)).status,
        JSON.stringify(body),
      ).toBe(400);
    expect(
      (await call(`${server.url}/api/calibration/synthetic-board`, 'POST', { board: 'x', holdFrames: 0 }))
        .status,
    ).toBe(400);
  });

  it('refuses a capture before a board is chosen, and one without the board in the picture', async () => {
    await showFrame(null);
    const none = await call(`${server.url}/api/calibration/capture`, 'POST');
    expect(none.status).toBe(409);
    expect(none.json['reason']).toBe('no-board-chosen');
    expect(String(none.json['error'])).toMatch(/choose the printed board first/);

    expect((await call(`${server.url}/api/calibration/board`, 'POST', { board: 'vedette-7x9' })).status).toBe(
      200,
    );
    const empty = await call(`${server.url}/api/calibration/capture`, 'POST');
    expect(empty.status).toBe(422);
    expect(empty.json['reason']).toBe('board-not-in-view');
    expect(String(empty.json['error'])).toMatch(/no vedette-7x9 board in this frame/);
    const state = await call(`${server.url}/api/calibration`, 'GET');
    expect(state.json['views']).toEqual([]);
    expect((await call(`${server.url}/api/calibration/solve`, 'POST')).status).toBe(400);
    expect((await call(`${server.url}/api/calibration/save`, 'POST', { name: 'early' })).status).toBe(409);
  });

  it('captures board views, solves, and saves only inside the calibration folder', async () => {
    for (const pose of [0, 1, 2, 3, 4, 5, 7]) {
      await showFrame(pose);
      const r = await call(`${server.url}/api/calibration/capture`, 'POST');
      expect(r.status, `pose ${pose}: ${String(r.json['error'])}`).toBe(200);
      expect(Number(r.json['markersFound'])).toBeGreaterThanOrEqual(20);
    }
    const solved = await call(`${server.url}/api/calibration/solve`, 'POST');
    const last = solved.json['last'] as {
      ok: boolean;
      rmsPx: number;
      coverage: number;
      profile: CameraProfile;
    };
    expect(last.ok).toBe(true);
    expect(last.rmsPx).toBeLessThan(0.5);
    expect(Math.abs(last.profile.fx - cam.fx) / cam.fx).toBeLessThan(0.01);

    const before = readdirSync(dir).sort();
    for (const name of ['../escape', '../../tmp/x', 'a/b', 'x.json', '.hidden', 'boards/../../x', '%2e%2e'])
      expect((await call(`${server.url}/api/calibration/save`, 'POST', { name })).status, name).toBe(400);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(existsSync(join(dir, '..', 'escape.json'))).toBe(false);

    const saved = await call(`${server.url}/api/calibration/save`, 'POST', { name: 'synthetic-check' });
    expect(saved.status).toBe(200);
    expect(saved.json['saved']).toBe(join(dir, 'synthetic-check.json'));
    const profile = parseCameraProfile(JSON.parse(readFileSync(join(dir, 'synthetic-check.json'), 'utf8')));
    expect(profile.name).toBe('synthetic-check');
    expect(profile.imageWidth).toBe(1920);
  });

  it('shows the synthetic camera a test board (synthetic camera only)', async () => {
    const shown = await call(`${server.url}/api/calibration/synthetic-board`, 'POST', {
      board: 'vedette-7x9',
      holdFrames: 3,
    });
    expect(shown.status).toBe(200);
    expect(shown.json['poses']).toBe(9);
    expect(syntheticTableExtras.calibrationBoard?.spec.name).toBe('vedette-7x9');
    expect(syntheticTableExtras.calibrationBoard?.holdFrames).toBe(3);
    const got = await call(`${server.url}/api/calibration/synthetic-board`, 'GET');
    expect(got.json).toMatchObject({ synthetic: true, board: 'vedette-7x9', poses: 9, holdFrames: 3 });
    expect(
      (await call(`${server.url}/api/calibration/synthetic-board`, 'POST', { board: 'missing' })).status,
    ).toBe(404);
    expect(
      (await call(`${server.url}/api/calibration/synthetic-board`, 'POST', { board: null })).status,
    ).toBe(200);
    expect(syntheticTableExtras.calibrationBoard).toBeNull();

    const real = await serve(calibrationRoutes(new RealCameraContext(scenario, undefined), { dir }));
    try {
      const r = await call(`${real.url}/api/calibration/synthetic-board`, 'POST', { board: 'vedette-7x9' });
      expect(r.status).toBe(409);
      expect(String(r.json['error'])).toMatch(/only the synthetic camera/);
    } finally {
      await real.close();
    }
  });
});
