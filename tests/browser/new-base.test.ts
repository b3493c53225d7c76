import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { syntheticTableExtras } from '../../src/synth/table-extras.ts';
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
 * "Press a base to the table and it is recognised": a marked base the scenario does not know is
 * put on the synthetic table (as a player presses a new base onto a real one); the roster lists
 * its marker as unrecognised; the user binds it to Lee's as a new base; the camera then tracks
 * it as Lee's base, where it really stands.
 */

const MARKER = 77;
/** Where the new base stands (table mm): open cloth between the Royal Artillery and the road. */
const AT = { x: 250, y: 470 };
const INCH = 25.4;

describe.skipIf(skipWithoutChromium('the new-base browser test'))(
  'a new base pressed onto the table',
  { timeout: 240_000 },
  () => {
    let server: RunningServer | undefined;
    let browser: Browser | undefined;
    let page: Page;
    const errors: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'vedette-new-base-'));

    beforeAll(async () => {
      prepareBrowserRun();
      browser = await launchChromium();
      page = await watchedPage(browser, errors);
      server = await startWebServer({
        scenarioPath: join(ROOT, 'scenarios/black-powder-sample.json'),
        scenariosDir: dir,
        record: false,
      });
    }, 180_000);

    afterAll(async () => {
      syntheticTableExtras.clear();
      await browser?.close();
      await server?.close();
    }, 60_000);

    it('lists the unknown marker, binds it to a unit, and the camera tracks it as that unit', async () => {
      await page.goto(server!.url);
      await waitForFrames(page);
      await page.click('[data-tab="roster"]');
      await page.waitForFunction(
        () =>
          /every marker seen is bound/.test(document.querySelector('#unknown-markers')?.textContent ?? ''),
        undefined,
        WAIT,
      );

      // The player presses a new 1.6 in base with marker 77 onto the table.
      const put = await fetch(`${server!.url}/api/synthetic/bases`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          markerId: MARKER,
          ...AT,
          headingDeg: 0,
          widthMm: 1.6 * INCH,
          depthMm: 1.6 * INCH,
          markerSizeMm: INCH,
          markerHeightMm: 0.12 * INCH,
        }),
      });
      expect(put.status).toBe(200);

      // The roster lists it as unrecognised.
      const chip = `#unknown-markers [data-marker="${MARKER}"]`;
      await page.waitForSelector(chip, WAIT);
      expect(await page.textContent(chip)).toMatch(/marker 77 · unrecognised/);
      await page.screenshot({ path: join(ARTIFACTS, 'new-base-unrecognised.png') });
      // The list is polled every second; the chip a player taps must stay the same element across
      // polls (a rebuilt list detached it and the tap landed on nothing).
      const held = await page.$(chip);
      await page.waitForTimeout(2500);
      expect(await held!.evaluate((el) => el.isConnected)).toBe(true);

      // Bind it to Lee's as a sixth base.
      await page.selectOption('#bind-unit', 'lees');
      await page.click(chip);
      expect(await page.inputValue('#bind-marker')).toBe(String(MARKER));
      const leesBases = await page.evaluate(
        () => window.__vedette!.scenario!.units.find((u) => u.id === 'lees')!.bases.length,
      );
      expect(await page.inputValue('#bind-base')).toBe(String(leesBases));
      await page.fill('#bind-width', String(1.6 * INCH));
      await page.fill('#bind-depth', String(1.6 * INCH));
      await page.fill('#bind-height', String(0.12 * INCH));
      await page.fill('#bind-offset-x', '0');
      await page.fill('#bind-offset-y', '0');
      await page.click('#bind-button');
      await page.waitForFunction(
        ([id, n]) =>
          window.__vedette?.scenario?.units.find((u) => u.id === 'lees')?.bases[n]?.marker.id === id,
        [MARKER, leesBases] as const,
        WAIT,
      );

      // The camera tracks it as Lee's base, where it stands.
      await page.waitForFunction(
        (id) =>
          !!window.__vedette?.lastState?.units
            .find((u) => u.id === 'lees')
            ?.bases.some((b) => b.markerId === id && b.seen),
        MARKER,
        WAIT,
      );
      const tracked = await page.evaluate(
        (id) =>
          window
            .__vedette!.lastState!.units.find((u) => u.id === 'lees')!
            .bases.find((b) => b.markerId === id)!,
        MARKER,
      );
      console.log(
        `marker ${MARKER} tracked as Lee's at (${tracked.x.toFixed(2)}, ${tracked.y.toFixed(2)}) mm, truth (${AT.x}, ${AT.y})`,
      );
      expect(Math.hypot(tracked.x - AT.x, tracked.y - AT.y)).toBeLessThan(2);
      expect(Math.abs(((tracked.headingDeg + 540) % 360) - 180)).toBeLessThan(1);
      await page.waitForFunction(
        () =>
          /every marker seen is bound/.test(document.querySelector('#unknown-markers')?.textContent ?? ''),
        undefined,
        WAIT,
      );
      expect(await page.textContent('#roster-list')).toMatch(new RegExp(`${MARKER}`));
      // Drawn over the picture as part of Lee's.
      const drawn = await page.evaluate(
        (id) => window.__vedette!.baseCorners('lees')?.some((b) => b.markerId === id) ?? false,
        MARKER,
      );
      expect(drawn).toBe(true);
      await page.screenshot({ path: join(ARTIFACTS, 'new-base-bound.png') });
      expect(errors).toEqual([]);
    });
  },
);
