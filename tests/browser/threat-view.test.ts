import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
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
 * The threat view follows the table: a one-base picket (a synthetic base the test presses onto
 * the table and moves) is picked, the threat view switched on; far from the clans its "can shoot
 * Cameron's" is no, and after the base is moved within musket range the same pair turns yes. The
 * time from the first state carrying the moved base to the view saying yes is printed (speed is a
 * figure, not a pass mark), and the screenshot is checked where the line to Cameron's is drawn in
 * the tactical view: the no colour before the move, the yes colour after.
 */

const MARKER = 90;
const FAR = { x: 300, y: 150 };
const NEAR = { x: 760, y: 560 };

type Rgb = readonly [number, number, number];
const YES: Rgb = [0x8c, 0xe9, 0x9a];
const NO: Rgb = [0xff, 0xa8, 0xa8];

interface Picture {
  readonly width: number;
  readonly height: number;
  readonly data: Buffer;
}

/** A screenshot's pixels, RGBA. */
async function pixels(png: Buffer): Promise<Picture> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** Pixels within `r` px of (x, y) whose colour is within `tol` of `rgb` (per channel). */
function pixelsNear(png: Picture, x: number, y: number, r: number, rgb: Rgb, tol = 24): number {
  let n = 0;
  for (let py = Math.round(y) - r; py <= Math.round(y) + r; py++)
    for (let px = Math.round(x) - r; px <= Math.round(x) + r; px++) {
      if (px < 0 || py < 0 || px >= png.width || py >= png.height) continue;
      const i = (py * png.width + px) * 4;
      if (rgb.every((c, k) => Math.abs((png.data[i + k] as number) - c) <= tol)) n++;
    }
  return n;
}

describe.skipIf(skipWithoutChromium('the threat-view browser test'))(
  'the threat view in the browser',
  { timeout: 240_000 },
  () => {
    let server: RunningServer | undefined;
    let browser: Browser | undefined;
    let page: Page;
    const errors: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'vedette-threats-'));

    const putBase = async (at: { x: number; y: number }): Promise<void> => {
      const res = await fetch(`${server!.url}/api/synthetic/bases`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          markerId: MARKER,
          ...at,
          headingDeg: 0,
          widthMm: 40,
          depthMm: 40,
          markerSizeMm: 32,
          markerHeightMm: 3,
        }),
      });
      expect(res.status).toBe(200);
    };

    /** The screenshot's pixels around the middle of the line from the picket to Cameron's (tactical view). */
    const lineMiddle = async (): Promise<{ x: number; y: number }> =>
      page.evaluate(() => {
        const units = window.__vedette!.lastState!.units;
        const centre = (id: string) => {
          const b = units.find((u) => u.id === id)!.bases;
          return {
            x: b.reduce((s, p) => s + p.x, 0) / b.length,
            y: b.reduce((s, p) => s + p.y, 0) / b.length,
          };
        };
        const a = centre('picket');
        const c = centre('camerons');
        return window.__vedette!.tacticalScreenPoint((a.x + c.x) / 2, (a.y + c.y) / 2);
      });

    beforeAll(async () => {
      prepareBrowserRun();
      // The demo table plus a one-base picket whose base is not on the table until the test puts it there.
      const scenario = JSON.parse(readFileSync(join(ROOT, 'scenarios/prestonpans-demo.json'), 'utf8')) as {
        units: unknown[];
      };
      scenario.units.push({
        id: 'picket',
        name: 'Picket',
        side: 'hanoverian',
        type: 'infantry',
        bases: [{ width: 40, depth: 40, marker: { id: MARKER, size: 32, height: 3 } }],
      });
      const path = join(dir, 'threats.json');
      writeFileSync(path, JSON.stringify(scenario));
      browser = await launchChromium();
      page = await watchedPage(browser, errors);
      server = await startWebServer({ scenarioPath: path, scenariosDir: dir, record: false });
    }, 180_000);

    afterAll(async () => {
      syntheticTableExtras.clear();
      await browser?.close();
      await server?.close();
    }, 60_000);

    it("turns the picket → Cameron's pair from no to yes when the picket moves into range", async () => {
      await putBase(FAR);
      await page.goto(server!.url);
      await waitForFrames(page);
      await page.click('.layout-switch [data-layout="tactical"]');
      await page.waitForFunction(
        (id) =>
          !!window.__vedette?.lastState?.units
            .find((u) => u.id === 'picket')
            ?.bases.some((b) => b.markerId === id && b.seen),
        MARKER,
        WAIT,
      );
      // Pick the picket in the unit list, switch the threat view on.
      await page.click('#unit-list button[data-unit="picket"]');
      await page.check('#threat-on');
      await page.waitForFunction(
        () => {
          const v = window.__vedette?.threats.view;
          const cell =
            v?.unit === 'picket' ? v.pairs.find((p) => p.enemy === 'camerons')?.from.shoot : undefined;
          return !!cell && 'verdict' in cell && cell.verdict.answer === 'no';
        },
        undefined,
        WAIT,
      );
      // The list says so in words, and the line is drawn dotted in the "no" colour.
      expect(await page.textContent('#threat-list li[data-enemy="camerons"] summary')).toMatch(
        /✘ Cameron.* — no/,
      );
      await page.waitForTimeout(300);
      const before = await pixels(await page.screenshot({ path: join(ARTIFACTS, 'threat-view-no.png') }));
      const mid0 = await lineMiddle();
      const noPixels = pixelsNear(before, mid0.x, mid0.y, 6, NO);
      expect(noPixels, 'no-coloured pixels on the line before the move').toBeGreaterThan(0);
      expect(pixelsNear(before, mid0.x, mid0.y, 6, YES), 'no yes-coloured pixels before').toBe(0);

      await putBase(NEAR);
      await page.waitForFunction(
        () => {
          const v = window.__vedette?.threats.view;
          const cell =
            v?.unit === 'picket' ? v.pairs.find((p) => p.enemy === 'camerons')?.from.shoot : undefined;
          return !!cell && 'verdict' in cell && cell.verdict.answer === 'yes';
        },
        undefined,
        WAIT,
      );
      const timing = await page.evaluate(
        ({ id, y }) => {
          const hook = window.__vedette!;
          const moved = hook.stateArrivals.find((s) => s.bases.some((b) => b.markerId === id && b.y > y));
          return {
            movedFrame: moved?.frame ?? null,
            movedAt: moved?.at ?? null,
            viewFrame: hook.threats.view!.frame,
            receivedAt: hook.threats.receivedAt,
            ms: hook.threats.view!.ms,
          };
        },
        { id: MARKER, y: (FAR.y + NEAR.y) / 2 },
      );
      expect(timing.movedAt, 'the state that first carried the moved base').not.toBeNull();
      // The yes view answers a frame at or after the one the move was first seen in.
      expect(timing.viewFrame).toBeGreaterThanOrEqual(timing.movedFrame!);
      console.log(
        `threat view: moved base first in frame ${timing.movedFrame}, "yes" shown ${(timing.receivedAt - timing.movedAt!).toFixed(0)} ms after that state arrived (view of frame ${timing.viewFrame}, server ${timing.ms} ms)`,
      );
      expect(await page.textContent('#threat-list li[data-enemy="camerons"] summary')).toMatch(
        /✔ Cameron.* — yes/,
      );
      // Rows are kept in place as views arrive: the summary a player taps is the same element a
      // few states later (rebuilt rows detached it, and taps landed on nothing).
      const row = await page.$('#threat-list li[data-enemy="camerons"] summary');
      // Every state that arrives redraws the panel. (The page keeps only its last 120 arrivals, so
      // count arrivals of later frames, not the list's length.)
      const lastFrame = await page.evaluate(() => window.__vedette!.stateArrivals.at(-1)?.frame ?? -1);
      await page.waitForFunction(
        (f) => window.__vedette!.stateArrivals.filter((s) => s.frame > f).length > 3,
        lastFrame,
        WAIT,
      );
      expect(await row!.evaluate((el) => el.isConnected), 'the row survives later states').toBe(true);
      // The reason opens on tap, in the verdict card's words.
      await page.click('#threat-list li[data-enemy="camerons"] summary');
      expect(await page.textContent('#threat-list li[data-enemy="camerons"] details')).toMatch(/range/i);
      await page.waitForTimeout(300);
      const after = await pixels(await page.screenshot({ path: join(ARTIFACTS, 'threat-view-yes.png') }));
      const mid1 = await lineMiddle();
      expect(
        pixelsNear(after, mid1.x, mid1.y, 6, YES),
        'yes-coloured pixels on the line after',
      ).toBeGreaterThan(0);
      expect(pixelsNear(after, mid1.x, mid1.y, 6, NO), 'no no-coloured pixels after').toBe(0);

      // The whole table: every unit that can shoot some enemy, ringed; the picket among them.
      await page.check('#threat-whole');
      await page.waitForFunction(
        () => (window.__vedette?.threats.table?.units.length ?? 0) > 0,
        undefined,
        WAIT,
      );
      const table = await page.evaluate(() => window.__vedette!.threats.table!);
      expect(table.kind).toBe('shoot');
      expect(table.units.find((u) => u.unit === 'picket')?.answer).toBe('yes');
      expect(await page.textContent('#threat-table-list li[data-unit="picket"] summary')).toMatch(
        /✔ Picket — yes/,
      );
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(ARTIFACTS, 'threat-view-table.png') });
      console.log(
        `whole table (shoot): ${table.units.map((u) => `${u.unit} ${u.answer}`).join(', ')}; ${table.asked} pairs in ${table.ms} ms`,
      );
      expect(errors).toStrictEqual([]);
    });
  },
);
