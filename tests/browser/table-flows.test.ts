import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { buildScene, loadSceneBits } from '../../src/synth/scene.ts';
import { sceneTruth } from '../../src/synth/truth.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import type {} from '../../web/src/live/test-hook.ts';
import {
  ARTIFACTS,
  launchChromium,
  prepareBrowserRun,
  ROOT,
  skipWithoutChromium,
  startWebServer,
  TABLET,
  waitForFrames,
  watchedPage,
} from './browser-harness.ts';

/**
 * Issue #6 flows in Chromium against the synthetic table (Black Powder sample, its wood removed):
 * the README's new-user flow (bind a marker, draw a wood on the tactical view, ask for line of
 * sight and get a verdict naming the wood), the referee's verdict card and overlays in the live
 * view, overlay accuracy against the renderer's truth (footprint corners within 2 px), the
 * tactical and side-by-side layouts, touch on a tablet, and the streamer overlay page.
 * Screenshots go to test-artifacts/.
 */

const WAIT = { timeout: 120_000, polling: 100 } as const;

const skip = skipWithoutChromium('the table-flow browser tests');

describe.skipIf(skip)('the table in the browser', { timeout: 400_000 }, () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let laptop: Page;
  let tablet: Page;
  let streamer: Page;
  const errors: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'vedette-flows-'));
  const scenarioPath = join(dir, 'battle.json');

  beforeAll(async () => {
    prepareBrowserRun();
    const file = JSON.parse(readFileSync(join(ROOT, 'scenarios/black-powder-sample.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    delete file['terrain'];
    writeFileSync(scenarioPath, JSON.stringify(file, null, 2));
    browser = await launchChromium();
    laptop = await watchedPage(browser, errors);
    tablet = await watchedPage(browser, errors, TABLET);
    streamer = await watchedPage(browser, errors, { viewport: { width: 960, height: 540 } });
    server = await startWebServer({ scenarioPath, scenariosDir: dir });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it('README flow: bind a marker, draw a wood, and line of sight names the wood', async () => {
    const page = laptop;
    await page.goto(server!.url);
    await waitForFrames(page, WAIT);

    // 1. Bind a marker: Lee's first base gets marker 77 (the base pressed to the table).
    await page.click('[data-tab="roster"]');
    await page.selectOption('#bind-unit', 'lees');
    await page.selectOption('#bind-base', '0');
    await page.fill('#bind-marker', '77');
    await page.click('#bind-button');
    await page.waitForFunction(
      () => window.__vedette?.scenario?.units.find((u) => u.id === 'lees')?.bases[0]?.marker.id === 77,
      undefined,
      WAIT,
    );
    // The camera recognises the rebound base: a state in which Lee's has a base seen with marker 77.
    await page.waitForFunction(
      () =>
        !!window.__vedette?.lastState?.units
          .find((u) => u.id === 'lees')
          ?.bases.some((b) => b.markerId === 77 && b.seen),
      undefined,
      WAIT,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'flows-roster-bound.png') });

    // 2. Draw a wood between Lee's (y ≈ 274 mm) and the Camerons (y ≈ 645 mm) on the tactical view.
    await page.click('[data-tab="terrain"]');
    await page.selectOption('#terrain-kind', 'wood');
    await page.fill('#terrain-name', 'Tranent Wood');
    await page.click('#terrain-draw');
    await page.waitForFunction(() => window.__vedette?.layout === 'split', undefined, WAIT);
    for (const [x, y] of [
      [450, 400],
      [780, 400],
      [780, 520],
      [450, 520],
    ] as const) {
      const p = await page.evaluate(([px, py]) => window.__vedette!.tacticalScreenPoint(px, py), [
        x,
        y,
      ] as const);
      await page.mouse.click(p.x, p.y);
    }
    await page.click('#terrain-finish');
    await page.waitForFunction(
      () => window.__vedette?.scenario?.terrain?.some((t) => t.name === 'Tranent Wood'),
      undefined,
      WAIT,
    );
    await waitForFrames(page, WAIT);

    // 3. Ask: does Lee's see the Camerons? Pick them on the tactical view.
    await page.click('[data-tab="referee"]');
    await page.selectOption('#ruleset', 'black-powder');
    for (const id of ['lees', 'camerons']) {
      const p = await page.evaluate((u) => window.__vedette!.tacticalUnitCentre(u), id);
      expect(p, id).not.toBeNull();
      await page.mouse.click(p!.x, p!.y);
    }
    await page.waitForFunction(() => window.__vedette?.selection.length === 2, undefined, WAIT);
    await page.click('button.ask[data-question="see"]');
    await page.waitForFunction(() => window.__vedette?.answer?.verdict.question === 'see', undefined, WAIT);
    const card = await page.evaluate(() => ({
      answer: document.querySelector('#verdict')?.getAttribute('data-answer'),
      text: document.querySelector('#verdict')?.textContent ?? '',
      kinds: window.__vedette?.overlayKinds ?? [],
    }));
    await page.screenshot({ path: join(ARTIFACTS, 'flows-los-blocked-by-wood.png') });
    console.log(`line of sight: ${card.answer} — ${card.text}`);
    expect(card.answer).toBe('no');
    expect(card.text).toMatch(/Tranent Wood/);
    expect(card.kinds).toContain('los');
    expect(card.kinds).toContain('shadow');
    expect(card.kinds).toContain('terrain');
  });

  it('the referee answers "can A shoot B" with value, limit, margin and draws the range band', async () => {
    const page = laptop;
    await page.click('.layout-switch [data-layout="live"]');
    await page.selectOption('#ruleset', 'black-powder');
    // Murray's and the Camerons have no wood between them.
    await page.keyboard.press('Escape');
    for (const id of ['murrays', 'stuarts']) {
      const p = await page.evaluate((u) => window.__vedette!.unitScreenCentre(u), id);
      expect(p, id).not.toBeNull();
      await page.mouse.click(p!.x, p!.y);
    }
    await page.click('button.ask[data-question="shoot"]');
    await page.waitForFunction(() => window.__vedette?.answer?.verdict.question === 'shoot', undefined, WAIT);
    const v = await page.evaluate(() => ({
      answer: document.querySelector('#verdict')?.getAttribute('data-answer'),
      numbers: [...document.querySelectorAll('#verdict [data-number]')].map((n) =>
        n.getAttribute('data-number'),
      ),
      text: document.querySelector('#verdict')?.textContent ?? '',
      kinds: window.__vedette?.overlayKinds ?? [],
    }));
    await page.screenshot({ path: join(ARTIFACTS, 'flows-live-shoot-verdict.png') });
    console.log(`shoot: ${v.answer} — ${v.text}`);
    expect(['yes', 'no', 'borderline']).toContain(v.answer);
    expect(v.text).toMatch(/[✔✘≈]/);
    if (v.kinds.includes('range'))
      expect(v.numbers).toEqual(expect.arrayContaining(['value', 'limit', 'margin']));
    expect(v.kinds).toContain('quarter');

    await page.click('.layout-switch [data-layout="split"]');
    await page.waitForFunction(() => window.__vedette?.layout === 'split', undefined, WAIT);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'flows-split-view.png') });
  });

  it('overlay accuracy: projected footprint corners within 2 px of the rendered base corners', async () => {
    const page = laptop;
    const scenario = parseScenarioText(readFileSync(scenarioPath, 'utf8'));
    const current = await page.evaluate(() => window.__vedette!.scenario);
    // The page's scenario (after the binding above) is the truth's scenario.
    const watched = parseScenarioText(JSON.stringify(current));
    const cam = frameTable(watched.table, { resolution: '1080p' });
    const truth = sceneTruth(cam, buildScene(watched, await loadSceneBits(watched)));
    let worst = 0;
    let count = 0;
    for (const unit of scenario.units) {
      const drawn = await page.evaluate((id) => window.__vedette!.baseCorners(id), unit.id);
      if (!drawn) continue;
      for (const base of drawn) {
        const t = truth.bases.find((b) => b.markerId === base.markerId);
        if (!t) continue;
        base.corners.forEach((c, i) => {
          const q = t.topCornersPx[i]!;
          worst = Math.max(worst, Math.hypot(c.u - q.u, c.v - q.v));
          count++;
        });
      }
    }
    console.log(`overlay accuracy: ${count} corners, max error ${worst.toFixed(3)} px`);
    expect(count).toBeGreaterThan(40);
    expect(worst).toBeLessThanOrEqual(2);
  });

  it('works by touch on a tablet (bottom sheet, taps pick units, 44 px targets)', async () => {
    const page = tablet;
    await page.goto(server!.url);
    await waitForFrames(page, WAIT);
    for (const id of ['murrays', 'stuarts']) {
      const p = await page.evaluate((u) => window.__vedette!.unitScreenCentre(u), id);
      expect(p, id).not.toBeNull();
      await page.touchscreen.tap(p!.x, p!.y);
    }
    await page.waitForFunction(() => window.__vedette?.selection.length === 2, undefined, WAIT);
    await page.tap('button.ask[data-question="charge"]');
    await page.waitForFunction(
      () => window.__vedette?.answer?.verdict.question === 'charge',
      undefined,
      WAIT,
    );
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.side button:not([hidden])')]
        .filter((b) => b.offsetParent !== null)
        .map((b) => b.getBoundingClientRect().height)
        .filter((hgt) => hgt < 44),
    );
    await page.screenshot({ path: join(ARTIFACTS, 'flows-tablet-charge.png') });
    expect(small).toEqual([]);
  });

  it('the streamer page draws the same overlays on a transparent background', async () => {
    const page = streamer;
    await page.goto(`${server!.url}/overlay.html`);
    await page.waitForFunction(
      () => Number(document.body.dataset['drawn'] ?? 0) >= 2 && document.body.dataset['answer'] !== undefined,
      undefined,
      WAIT,
    );
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(ARTIFACTS, 'flows-streamer-overlay.png'), omitBackground: true });
    const alpha = await page.evaluate(() => {
      const c = document.getElementById('overlay') as HTMLCanvasElement;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let clear = 0;
      let drawn = 0;
      for (let i = 3; i < d.length; i += 4 * 17) {
        if (d[i] === 0) clear++;
        else drawn++;
      }
      return { clear, drawn };
    });
    console.log(`streamer: ${alpha.drawn} drawn samples, ${alpha.clear} transparent`);
    expect(alpha.clear).toBeGreaterThan(alpha.drawn);
    expect(alpha.drawn).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
