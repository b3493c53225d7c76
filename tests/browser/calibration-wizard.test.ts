import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCameraProfile } from '../../src/camera/profile.ts';
import type { RunningServer } from '../../src/server/app.ts';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { syntheticTableExtras } from '../../src/synth/table-extras.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import type {} from '../../web/src/live/test-hook.ts';
import {
  ARTIFACTS,
  launchChromium,
  prepareBrowserRun,
  ROOT,
  skipWithoutChromium,
  startWebServer,
  WAIT,
  waitForFrames,
  watchedPage,
} from './browser-harness.ts';

/**
 * The calibration wizard end to end on the synthetic camera: the wizard holds up a printed
 * ChArUco board (rendered over the table with the synthetic lens, moving to a new pose every few
 * frames), the user captures views as it moves, calibrates, reads RMS and coverage, and saves the
 * profile; the saved intrinsics are then checked in Node against the synthetic camera's truth.
 */

const VIEWS = 7;

describe.skipIf(skipWithoutChromium('the calibration wizard browser test'))(
  'calibration wizard in the browser',
  { timeout: 240_000 },
  () => {
    let server: RunningServer | undefined;
    let browser: Browser | undefined;
    let page: Page;
    const errors: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'vedette-wizard-'));
    const calibrationDir = join(dir, 'calibration');
    const scenarioPath = join(ROOT, 'scenarios/black-powder-sample.json');

    beforeAll(async () => {
      prepareBrowserRun();
      cpSync(join(ROOT, 'calibration/boards'), join(calibrationDir, 'boards'), { recursive: true });
      browser = await launchChromium();
      page = await watchedPage(browser, errors);
      server = await startWebServer({
        scenarioPath,
        scenariosDir: dir,
        calibrationDir,
        record: false,
      });
    }, 180_000);

    afterAll(async () => {
      syntheticTableExtras.clear();
      await browser?.close();
      await server?.close();
    }, 60_000);

    it('captures views of a moving board, solves, shows RMS and coverage, saves a profile matching the camera', async () => {
      await page.goto(server!.url);
      await waitForFrames(page);
      await page.click('[data-tab="calibrate"]');
      await page.waitForFunction(
        () => !!document.querySelector('#calib-board option[value="vedette-7x9"]'),
        undefined,
        WAIT,
      );
      await page.selectOption('#calib-board', 'vedette-7x9');

      // No board in view yet: a capture is refused with the reason, and no view is kept.
      await page.click('#calib-capture');
      await page.waitForFunction(
        () => document.querySelector('#calib-message')?.getAttribute('data-kind') === 'error',
        undefined,
        WAIT,
      );
      const refusal = await page.textContent('#calib-message');
      expect(refusal).toMatch(/no vedette-7x9 board in this frame/);
      expect(await page.locator('#calib-views li').count()).toBe(0);

      // Hold up the test board: it moves by itself, one pose every `holdFrames` frames.
      await page.waitForSelector('#calib-synthetic-board:not([hidden])', WAIT);
      await page.click('#calib-synthetic-board');
      await page.waitForFunction(
        () => document.querySelector('#calib-synthetic-board')?.getAttribute('aria-pressed') === 'true',
        undefined,
        WAIT,
      );
      const hold = syntheticTableExtras.calibrationBoard?.holdFrames ?? 6;
      let next = (await page.evaluate(() => window.__vedette!.shownFrame ?? 0)) + 2;
      const frames: number[] = [];
      for (let i = 0; i < VIEWS; i++) {
        await page.waitForFunction((f) => (window.__vedette?.shownFrame ?? -1) >= f, next, WAIT);
        if (i === 2) await page.screenshot({ path: join(ARTIFACTS, 'calibration-wizard-board.png') });
        // The renderer runs in its own thread and frames are in flight, so the board reaches the
        // picture a few frames after it is held up: the first capture may wait for it.
        let kind: string | null = null;
        for (let attempt = 0; attempt < (i === 0 ? 15 : 1); attempt++) {
          if (attempt > 0) {
            const shown = await page.evaluate(() => window.__vedette!.shownFrame ?? 0);
            await page.waitForFunction((f) => (window.__vedette?.shownFrame ?? -1) > f, shown, WAIT);
          }
          // Clear the last answer first, so a stale refusal is never read as this capture's
          // answer (which would let two captures overlap).
          await page.evaluate(() =>
            document.querySelector('#calib-message')?.setAttribute('data-kind', 'pending'),
          );
          await page.click('#calib-capture');
          await page.waitForFunction(
            (n) =>
              document.querySelectorAll('#calib-views li').length >= n ||
              document.querySelector('#calib-message')?.getAttribute('data-kind') === 'error',
            i + 1,
            WAIT,
          );
          kind = await page.getAttribute('#calib-message', 'data-kind');
          if (kind === 'ok') break;
        }
        expect(kind, (await page.textContent('#calib-message')) ?? '').toBe('ok');
        const frame = Number(await page.getAttribute(`#calib-views li[data-view="${i}"]`, 'data-frame'));
        frames.push(frame);
        // The next capture waits for the board's next pose.
        next = (Math.floor(frame / hold) + 1) * hold;
      }
      const poses = new Set(frames.map((f) => Math.floor(f / hold) % 9));
      console.log(`captured frames ${frames.join(', ')} (board poses ${[...poses].join(', ')})`);
      expect(poses.size).toBe(VIEWS);

      await page.click('#calib-solve');
      await page.waitForFunction(() => !!document.querySelector('#calib-rms, #calib-refusal'), undefined, {
        ...WAIT,
        timeout: 120_000,
      });
      const shown = await page.evaluate(() => ({
        rms: document.querySelector('#calib-rms')?.textContent ?? '',
        coverage: document.querySelector('#calib-coverage')?.textContent ?? '',
        focal: document.querySelector('#calib-focal')?.textContent ?? '',
        refusal: document.querySelector('#calib-refusal')?.textContent ?? '',
        used: document.querySelectorAll('#calib-views li[data-status="used"]').length,
      }));
      await page.locator('#calib-result').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, 'calibration-wizard-solved.png') });
      console.log(
        `wizard shows RMS ${shown.rms}, coverage ${shown.coverage}, ${shown.focal}; ${shown.used} views used ${shown.refusal}`,
      );
      expect(shown.refusal).toBe('');
      const rms = Number(/([\d.]+) px/.exec(shown.rms)?.[1]);
      const coverage = Number(/(\d+) %/.exec(shown.coverage)?.[1]);
      expect(rms).toBeGreaterThan(0);
      expect(rms).toBeLessThan(0.5);
      expect(coverage).toBeGreaterThanOrEqual(50);
      expect(shown.used).toBe(VIEWS);

      await page.fill('#calib-name', 'synthetic-wizard');
      await page.click('#calib-save');
      await page.waitForFunction(
        () => /Saved/.test(document.querySelector('#calib-message')?.textContent ?? ''),
        undefined,
        WAIT,
      );
      await page.click('#calib-synthetic-board');
      await page.waitForFunction(
        () => document.querySelector('#calib-synthetic-board')?.getAttribute('aria-pressed') === 'false',
        undefined,
        WAIT,
      );
      expect(errors).toEqual([]);

      // Node: the saved profile against the synthetic camera's own intrinsics.
      const saved = parseCameraProfile(
        JSON.parse(readFileSync(join(calibrationDir, 'synthetic-wizard.json'), 'utf8')),
      );
      const scenario = parseScenarioText(readFileSync(scenarioPath, 'utf8'));
      const truth = syntheticCameraProfile(frameTable(scenario.table, { resolution: '1080p' }));
      const rel = (a: number, b: number) => Math.abs(a - b) / b;
      console.log(
        `saved fx ${saved.fx.toFixed(2)} fy ${saved.fy.toFixed(2)} cx ${saved.cx.toFixed(2)} cy ${saved.cy.toFixed(2)}; ` +
          `truth fx ${truth.fx.toFixed(2)} fy ${truth.fy.toFixed(2)} cx ${truth.cx.toFixed(2)} cy ${truth.cy.toFixed(2)}; ` +
          `k1 ${saved.distortion[0].toFixed(4)} (truth ${truth.distortion[0]})`,
      );
      expect(saved.name).toBe('synthetic-wizard');
      expect([saved.imageWidth, saved.imageHeight]).toEqual([truth.imageWidth, truth.imageHeight]);
      expect(rel(saved.fx, truth.fx)).toBeLessThan(0.01);
      expect(rel(saved.fy, truth.fy)).toBeLessThan(0.01);
      expect(Math.abs(saved.cx - truth.cx)).toBeLessThan(4);
      expect(Math.abs(saved.cy - truth.cy)).toBeLessThan(4);
    });
  },
);
