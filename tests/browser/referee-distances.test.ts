import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
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
 * The page's two distances never pass for one another: the plain measurement is labelled edge to
 * edge, the referee's says what it is measured from and under which ruleset, and only one line is
 * drawn at a time. A Prestonpans charge is answered with the distance withheld (no line, no reach,
 * no number anywhere on the page) until "Declare charge".
 */

describe.skipIf(skipWithoutChromium('the referee-distance browser test'))(
  'referee distances in the browser',
  { timeout: 240_000 },
  () => {
    let server: RunningServer | undefined;
    let browser: Browser | undefined;
    let page: Page;
    const errors: string[] = [];

    beforeAll(async () => {
      prepareBrowserRun();
      browser = await launchChromium();
      page = await watchedPage(browser, errors);
      server = await startWebServer({
        scenarioPath: join(ROOT, 'scenarios/prestonpans-demo.json'),
        scenariosDir: mkdtempSync(join(tmpdir(), 'vedette-distances-')),
        record: false,
      });
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    }, 60_000);

    it('withholds a Prestonpans charge distance until declared, then labels both distances', async () => {
      await page.goto(server!.url);
      await waitForFrames(page);
      await page.waitForFunction(
        () => (document.querySelector('#ruleset') as HTMLSelectElement | null)?.value === 'prestonpans',
        undefined,
        WAIT,
      );
      for (const id of ['camerons', 'lees']) {
        const p = await page.evaluate((u) => window.__vedette!.unitScreenCentre(u), id);
        expect(p, id).not.toBeNull();
        await page.mouse.click(p!.x, p!.y);
      }
      await page.waitForFunction(
        () => document.querySelector('#measurement')?.getAttribute('data-valid') === 'true',
        undefined,
        WAIT,
      );
      expect(await page.textContent('#measurement')).toMatch(
        /^edge to edge, nearest bases \d+\.\d\d in ± \d\.\d\d$/,
      );

      await page.click('button.ask[data-question="charge"]');
      await page.waitForFunction(
        () => window.__vedette?.answer?.verdict.question === 'charge',
        undefined,
        WAIT,
      );
      const hidden = await page.evaluate(() => ({
        withheld: document.querySelector('#verdict')?.getAttribute('data-withheld'),
        kinds: window.__vedette!.overlayKinds,
        drawn: window.__vedette!.drawnMeasurement,
        footer: document.querySelector('#measurement')?.textContent ?? '',
        footerData: (document.querySelector('#measurement') as HTMLElement).dataset['distanceIn'] ?? null,
        ruled: document.querySelector('#ruled-distance')?.textContent ?? '',
        declare: !!document.querySelector('#declare-charge'),
      }));
      await page.screenshot({ path: join(ARTIFACTS, 'distances-charge-withheld.png') });
      console.log(`withheld: ${JSON.stringify(hidden)}`);
      expect(hidden.withheld).toBe('true');
      expect(hidden.kinds).not.toContain('charge');
      expect(hidden.kinds).not.toContain('measure');
      expect(hidden.drawn).toBeNull();
      expect(hidden.footer).toBe('');
      expect(hidden.footerData).toBeNull();
      expect(hidden.ruled).toMatch(/withheld until the charge is declared/);
      expect(hidden.declare).toBe(true);

      await page.click('#declare-charge');
      await page.waitForFunction(
        () =>
          window.__vedette?.answer?.verdict.hiddenUntilDeclared !== true &&
          window.__vedette?.answer?.verdict.value !== undefined,
        undefined,
        WAIT,
      );
      await page.waitForFunction(
        () => document.querySelector('#measurement')?.getAttribute('data-valid') === 'true',
        undefined,
        WAIT,
      );
      const shown = await page.evaluate(() => ({
        kinds: window.__vedette!.overlayKinds,
        drawn: window.__vedette!.drawnMeasurement,
        footer: document.querySelector('#measurement')?.textContent ?? '',
        ruled: document.querySelector('#ruled-distance')?.textContent ?? '',
        measuredFrom: document.querySelector('#verdict dt')?.textContent ?? '',
        asked: document.querySelector('#verdict .asked')?.textContent ?? '',
      }));
      await page.screenshot({ path: join(ARTIFACTS, 'distances-charge-declared.png') });
      console.log(`declared: ${JSON.stringify(shown)}`);
      expect(shown.kinds).toContain('measure');
      expect(shown.kinds).toContain('charge');
      // One line on the picture: the referee's; the plain one is in the footer, labelled.
      expect(shown.drawn).toBeNull();
      expect(shown.footer).toMatch(/^edge to edge, nearest bases /);
      expect(shown.ruled).toMatch(
        /^Referee: [\d.]+ in (edge to edge, whole unit|from the front centre) \(Prestonpans\)$/,
      );
      // The card names its number for what it is, and says under which ruleset.
      expect(shown.measuredFrom).toMatch(/^distance, (edge to edge, whole unit|from the front centre)$/);
      expect(shown.asked).toMatch(/Prestonpans/);
      expect(errors).toEqual([]);
    });
  },
);
