import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BattleRecorder } from '../../src/record/recorder.ts';
import { rosterOf } from '../../src/record/roster.ts';
import { BattleStore } from '../../src/record/store.ts';
import { verdict } from '../../src/rules/engine/verdict.ts';
import { startReplayServer, type RunningReplayServer } from '../../src/server/battle-routes.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import type { BasePose } from '../../src/synth/scene.ts';
import { distanceBetween, measuredUnits } from '../../src/table/measured-units.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { VisionPipeline } from '../../src/vision/pipeline.ts';
import type {} from '../../web/src/replay/test-hook.ts';
import {
  ARTIFACTS,
  launchChromium,
  prepareBrowserRun,
  ROOT,
  skipWithoutChromium,
  watchedPage,
} from './browser-harness.ts';
import { FramePicture } from '../../src/vision/frame-picture.ts';

/**
 * Battle replay in a real browser. A short battle is recorded the way the live server records
 * one: synthetic camera frames (with their ground truth kept) go through the real vision
 * pipeline into the recorder, while the Camerons advance twice and stand. The replay page then
 * seeks to chosen moments, and the Camerons' bases it draws are compared with the renderer's
 * truth of those moments.
 */

const WAIT = { timeout: 60_000, polling: 50 } as const;
const MOVING = 'camerons';
const FRAME_MS = 100;
/** Advance (mm along the unit's facing) per frame: rest, move, rest, move, rest. */
const SCHEDULE: number[] = [
  ...Array<number>(8).fill(0),
  ...[16, 32, 48, 64, 80],
  ...Array<number>(10).fill(80),
  ...[95, 110, 125, 140, 150],
  ...Array<number>(10).fill(150),
];

interface Recorded {
  battleId: number;
  startedAt: number;
  /** Truth per frame: marker id → base centre (mm). */
  truth: Array<Map<number, { x: number; y: number; headingDeg: number }>>;
  settleMm: number;
  rulingAt: number;
}

async function recordBattle(dataDir: string): Promise<Recorded> {
  const scenario = parseScenarioText(readFileSync(join(ROOT, 'scenarios/prestonpans-demo.json'), 'utf8'));
  const camera = frameTable(scenario.table, { resolution: '1080p' });
  const table = await LiveSyntheticTable.create(scenario, camera, { movingUnitId: MOVING });
  const pipeline = await VisionPipeline.create(table.profile, scenario);
  const start = table.posesAt(0) as Record<number, BasePose>;
  const lead = Object.values(start)[0]!;
  const h = (lead.headingDeg * Math.PI) / 180;
  const store = BattleStore.inDataDir(dataDir);
  const startedAt = Date.UTC(2026, 0, 1, 12);
  const rec = BattleRecorder.start(store, {
    name: 'Replay test',
    roster: rosterOf(scenario),
    camera: table.profile,
    startedAt,
  });
  const truth: Recorded['truth'] = [];
  let rulingAt = 0;
  try {
    for (const [i, s] of SCHEDULE.entries()) {
      const poses: Record<number, BasePose> = {};
      for (const [id, p] of Object.entries(start))
        poses[Number(id)] = { x: p.x - s * Math.sin(h), y: p.y + s * Math.cos(h), headingDeg: p.headingDeg };
      const frame = table.frameWithPoses(poses, i);
      truth.push(
        new Map(frame.truth.bases.map((b) => [b.markerId, { ...b.centreMm, headingDeg: b.headingDeg }])),
      );
      const at = startedAt + i * FRAME_MS;
      const result = pipeline.process({
        image: { ...frame.image, channels: 3 },
        capturedAt: at,
        sequence: i,
      });
      const jpeg = await sharp(frame.image.data, {
        raw: { width: frame.image.width, height: frame.image.height, channels: 3 },
      })
        .jpeg({ quality: 80 })
        .toBuffer();
      rec.onFrame({
        at,
        bases: result.bases,
        pose: result.located.table?.pose ?? null,
        picture: FramePicture.ofJpeg(jpeg),
      });
      if (i === 28) {
        // A player asks how far the Camerons are from Lee's, as the live page would.
        const d = distanceBetween(measuredUnits(scenario, result.bases), 'lees', MOVING)!;
        rulingAt = at;
        rec.ruling(
          verdict({
            ruleset: 'measure',
            question: 'distance',
            asked: "distance from Lee's to the Camerons",
            answer: 'yes',
            value: d.distanceIn,
            unit: 'in',
            between: [d.from, d.to],
          }),
          `distance lees ${MOVING}`,
        );
      }
    }
    rec.mark({ kind: 'turn', side: 'jacobite', t: startedAt + 700 });
    await rec.stop();
  } finally {
    pipeline.dispose();
    store.close();
  }
  return { battleId: rec.battleId, startedAt, truth, settleMm: rec.settleOptions.toleranceMm, rulingAt };
}

const skip = skipWithoutChromium('the replay browser test');

describe.skipIf(skip)('replay page in chromium', { timeout: 300_000 }, () => {
  let browser: Browser | undefined;
  let server: RunningReplayServer | undefined;
  let page: Page;
  let recorded: Recorded;
  const errors: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'vedette-replay-'));

  beforeAll(async () => {
    prepareBrowserRun();
    recorded = await recordBattle(dataDir);
    server = await startReplayServer({
      dataDir,
      port: 0,
      host: '127.0.0.1',
      webRoot: join(ROOT, 'web/dist'),
    });
    browser = await launchChromium();
    page = await watchedPage(browser, errors, { viewport: { width: 1400, height: 860 } }, false);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  async function showAt(t: number) {
    await page.evaluate((at) => window.__vedetteReplay!.seek(at), t);
    await page.waitForFunction((at) => window.__vedetteReplay?.drawnAt === at, t, WAIT);
    return page.evaluate((id) => window.__vedetteReplay!.basesOf(id), MOVING);
  }

  function worstError(
    shown: ReadonlyArray<{ markerId: number; x: number; y: number }> | null,
    frame: number,
  ): number {
    expect(shown).not.toBeNull();
    const truth = recorded.truth[frame]!;
    expect(shown!.length).toBe(
      [...truth.keys()].filter((id) => shown!.some((b) => b.markerId === id)).length,
    );
    return Math.max(
      ...shown!.map((b) => Math.hypot(b.x - truth.get(b.markerId)!.x, b.y - truth.get(b.markerId)!.y)),
    );
  }

  it('shows the Camerons where they really stood at chosen moments', async () => {
    await page.goto(`${server!.url}/replay.html?battle=${recorded.battleId}`);
    await page.waitForFunction(() => window.__vedetteReplay?.ready === true, undefined, WAIT);
    const tolerance = 1 + recorded.settleMm;
    // Standing after the first advance (frame 20), and at the end (frame 37).
    for (const frame of [20, SCHEDULE.length - 1]) {
      const t = recorded.startedAt + frame * FRAME_MS;
      const err = worstError(await showAt(t), frame);
      console.log(
        `replay at +${frame * FRAME_MS} ms: Camerons' bases within ${err.toFixed(2)} mm of the truth (tolerance ${tolerance} mm)`,
      );
      expect(err).toBeLessThanOrEqual(tolerance);
    }
    // Mid-advance (frame 10) the replay shows where they last stood (frame 7): settled moves only.
    const err = worstError(await showAt(recorded.startedAt + 10 * FRAME_MS), 7);
    console.log(`replay mid-move shows the last rest: within ${err.toFixed(2)} mm`);
    expect(err).toBeLessThanOrEqual(tolerance);
  });

  it('re-shows the ruling over the kept picture, steps move by move, plays', async () => {
    await showAt(recorded.rulingAt + 500);
    await page.waitForFunction(
      () => window.__vedetteReplay?.pictureDrawn === true && window.__vedetteReplay.shownRuling !== null,
      undefined,
      WAIT,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'replay-page-ruling.png') });
    expect(await page.locator('#rulings li.current').count()).toBe(1);
    expect(await page.locator('.mark.turn:not(.inferred)').count()).toBe(1); // the players' mark
    expect(await page.locator('.mark.turn.inferred').count()).toBe(1); // the Camerons' advance
    expect(await page.evaluate(() => window.__vedetteReplay!.trailPoints)).toBeGreaterThan(20);

    // Step from the start: each click lands on the end of a move group.
    await showAt(recorded.startedAt);
    const stops: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.click('#next');
      await page.waitForFunction(
        (prev) => (window.__vedetteReplay?.drawnAt ?? 0) > prev,
        stops[stops.length - 1] ?? recorded.startedAt,
        WAIT,
      );
      stops.push((await page.evaluate(() => window.__vedetteReplay!.drawnAt))!);
    }
    console.log(`steps land at +${stops.map((s) => s - recorded.startedAt).join(', +')} ms`);
    expect(stops[1]! - recorded.startedAt).toBeGreaterThan(1200); // the first advance settled after frame 13

    // Play at 10× from the start until it reaches the end.
    await showAt(recorded.startedAt);
    await page.selectOption('#speed', '10');
    await page.click('#play');
    await page.waitForFunction(
      () =>
        window.__vedetteReplay?.playing === false &&
        window.__vedetteReplay.drawnAt === window.__vedetteReplay.end,
      undefined,
      WAIT,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'replay-page-end.png') });
    expect(errors).toEqual([]);
  });
});
