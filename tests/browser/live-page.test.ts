import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
  TABLET,
  watchedPage,
} from './browser-harness.ts';

/**
 * The live page in a real browser: Debian's chromium, driven by playwright-core, against the
 * real server on the synthetic camera. The page must show frames, let a user pick two units by
 * clicking (laptop) or tapping (tablet) where they are drawn, and read back their distance
 * within 0.1 in of the truth, which this file computes on its own from the scenario file.
 */

const SCENARIO = 'scenarios/prestonpans-demo.json';

// ---------------------------------------------------------------------------------------------
// Truth: edge-to-edge distance between two units' bases, brute force over sampled outlines.

interface FileBase {
  width: number;
  depth: number;
  pose?: { x: number; y: number; headingDeg?: number };
}
interface FileScenario {
  lengthUnit?: 'mm' | 'cm' | 'in';
  units: Array<{ id: string; bases: FileBase[] }>;
}

/** Points every `stepMm` along a base's outline, table mm. Heading CCW from above, 0 = front faces +y. */
function outlineSamples(base: FileBase, mmPerUnit: number, stepMm: number): Array<[number, number]> {
  if (!base.pose) throw new Error('the truth needs every base to have a pose in the scenario');
  const cx = base.pose.x * mmPerUnit;
  const cy = base.pose.y * mmPerUnit;
  const w = (base.width * mmPerUnit) / 2;
  const d = (base.depth * mmPerUnit) / 2;
  const h = ((base.pose.headingDeg ?? 0) * Math.PI) / 180;
  const toTable = (lx: number, ly: number): [number, number] => [
    cx + lx * Math.cos(h) - ly * Math.sin(h),
    cy + lx * Math.sin(h) + ly * Math.cos(h),
  ];
  const corners: Array<[number, number]> = [
    [-w, -d],
    [w, -d],
    [w, d],
    [-w, d],
  ];
  const out: Array<[number, number]> = [];
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = corners[i]!;
    const [bx, by] = corners[(i + 1) % 4]!;
    const n = Math.ceil(Math.hypot(bx - ax, by - ay) / stepMm);
    for (let k = 0; k < n; k++) out.push(toTable(ax + ((bx - ax) * k) / n, ay + ((by - ay) * k) / n));
  }
  return out;
}

function trueDistanceIn(a: string, b: string): number {
  const file = JSON.parse(readFileSync(join(ROOT, SCENARIO), 'utf8')) as FileScenario;
  const mmPerUnit = { mm: 1, cm: 10, in: 25.4 }[file.lengthUnit ?? 'mm'];
  const samples = (id: string) => {
    const unit = file.units.find((u) => u.id === id);
    if (!unit) throw new Error(`unit ${id} is not in ${SCENARIO}`);
    return unit.bases.flatMap((base) => outlineSamples(base, mmPerUnit, 0.25));
  };
  const pa = samples(a);
  const pb = samples(b);
  let best = Infinity;
  for (const [ax, ay] of pa) {
    for (const [bx, by] of pb) {
      const d2 = (ax - bx) ** 2 + (ay - by) ** 2;
      if (d2 < best) best = d2;
    }
  }
  return Math.sqrt(best) / 25.4;
}

// ---------------------------------------------------------------------------------------------
// Waiting on the page and reading it

/**
 * The server runs in this process, and the synthetic camera renders each frame on its event loop,
 * blocking it for seconds on a busy machine; every round trip to the browser waits for a gap
 * between frames. So: launch the browser and open the pages before the server starts, and ask
 * the page for whole conditions (one waitForFunction) rather than many small questions.
 */
const WAIT = { timeout: 120_000, polling: 100 } as const;

async function waitForLiveFrames(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const hook = window.__vedette;
      const status = document.querySelector('#status');
      return (
        !!hook &&
        hook.framesShown >= 3 &&
        !!hook.lastState?.pose &&
        hook.shownFrame !== null &&
        status?.getAttribute('data-connection') === 'open' &&
        /fps/.test(status.textContent ?? '') &&
        /detection \d+ ms/.test(status.textContent ?? '')
      );
    },
    undefined,
    WAIT,
  );
}

interface ReadOut {
  distanceIn: number;
  uncertaintyIn: number;
  a: string;
  b: string;
  text: string;
  selection: readonly string[];
}

async function measure(page: Page, a: string, b: string, how: 'click' | 'tap'): Promise<ReadOut> {
  const points = await page.evaluate(
    (ids) => ids.map((id) => window.__vedette?.unitScreenCentre(id) ?? null),
    [a, b],
  );
  for (const [i, p] of points.entries()) {
    if (!p) throw new Error(`the page does not draw unit ${[a, b][i]}`);
    if (how === 'click') await page.mouse.click(p.x, p.y);
    else await page.touchscreen.tap(p.x, p.y);
  }
  // The read-out has the distance and the picture shows the line for it.
  await page.waitForFunction(
    () =>
      document.querySelector('#measurement')?.getAttribute('data-valid') === 'true' &&
      window.__vedette?.drawnMeasurement?.valid === true,
    undefined,
    WAIT,
  );
  const read = await page.evaluate(() => {
    const node = document.querySelector<HTMLElement>('#measurement')!;
    return {
      distanceIn: Number(node.dataset['distanceIn']),
      uncertaintyIn: Number(node.dataset['uncertaintyIn']),
      a: node.dataset['a'] ?? '',
      b: node.dataset['b'] ?? '',
      text: node.textContent ?? '',
      selection: window.__vedette?.selection ?? [],
    };
  });
  return read;
}

const skip = skipWithoutChromium('the live-page browser tests');

describe.skipIf(skip)('live page in chromium', { timeout: 300_000 }, () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const pages: { laptop?: Page; tablet?: Page } = {};
  const errors: string[] = [];
  const truth = trueDistanceIn('lees', 'camerons');

  beforeAll(async () => {
    prepareBrowserRun();
    browser = await launchChromium();
    pages.laptop = await watchedPage(browser, errors, { viewport: { width: 1280, height: 800 } }, false);
    pages.tablet = await watchedPage(browser, errors, TABLET, false);
    server = await startWebServer({ scenarioPath: resolve(ROOT, SCENARIO) });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it('shows live frames and measures Lee’s to the Camerons by clicking (laptop)', async () => {
    const page = pages.laptop!;
    await page.goto(server!.url);
    await waitForLiveFrames(page);
    await page.screenshot({ path: join(ARTIFACTS, 'live-page-laptop-frames.png') });

    // The server sends the picture as wide as the page's canvas (rounded up to 128 px), not 1920.
    await page.waitForFunction(
      () => {
        const size = window.__vedette?.pictureSize;
        return !!size && size.width === Math.ceil(size.canvasWidth / 128) * 128;
      },
      undefined,
      WAIT,
    );
    const size = (await page.evaluate(() => window.__vedette!.pictureSize))!;
    console.log(`laptop: picture ${size.width} × ${size.height} for a canvas ${size.canvasWidth} px wide`);
    expect(size.width).toBeLessThan(1920);
    expect(size.height).toBe(Math.round((size.width * 1080) / 1920));

    const m = await measure(page, 'lees', 'camerons', 'click');
    await page.screenshot({ path: join(ARTIFACTS, 'live-page-laptop-measured.png') });
    console.log(
      `laptop: measured ${m.distanceIn.toFixed(3)} in ± ${m.uncertaintyIn.toFixed(3)}, truth ${truth.toFixed(3)} in ("${m.text}")`,
    );
    expect(m.selection).toEqual(['lees', 'camerons']);
    expect([m.a, m.b].sort()).toEqual(['camerons', 'lees']);
    expect(m.text).toMatch(/^edge to edge, nearest bases \d+\.\d\d in ± \d\.\d\d$/);
    expect(Math.abs(m.distanceIn - truth)).toBeLessThanOrEqual(0.1);

    // Clicking empty space (the picture's corner, away from every unit) clears the selection.
    const cleared = () =>
      page
        .waitForFunction(
          () =>
            window.__vedette?.selection.length === 0 &&
            document.querySelector('#measurement')?.getAttribute('data-valid') === 'false',
          undefined,
          { timeout: 30_000, polling: 100 },
        )
        .then(
          () => true,
          () => false,
        );
    // Which element each pointer event reached, named by tag, id and class.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __pointers: string[] }).__pointers = seen;
      const name = (t: EventTarget | null) =>
        t instanceof Element ? `${t.tagName.toLowerCase()}#${t.id}.${t.className}` : String(t);
      for (const type of ['pointerdown', 'pointerup'])
        window.addEventListener(type, (e) => seen.push(`${type} on ${name(e.target)}`), true);
    });
    const pointers = () => page.evaluate(() => (window as unknown as { __pointers: string[] }).__pointers);
    // Seen twice in full runs under load: a click at coordinates read beforehand landed on an
    // element without an id, not the canvas (the page had moved under the pointer). The locator's
    // click scrolls the canvas into view, waits for it to stand still and to be what the point hits,
    // then clicks 4 px inside its corner; a click that reached the canvas and did not clear fails.
    await page.locator('#view').click({ position: { x: 4, y: 4 } });
    if (!(await cleared())) {
      await page.screenshot({ path: join(ARTIFACTS, 'live-page-laptop-clear-failed.png') });
      const box = (await page.locator('#view').boundingBox())!;
      const left = await page.evaluate(
        ([x, y]) => ({
          selection: window.__vedette?.selection ?? null,
          valid: document.querySelector('#measurement')?.getAttribute('data-valid') ?? null,
          underClick: document.elementFromPoint(x, y)?.id ?? null,
          scroll: [window.scrollX, window.scrollY],
        }),
        [box.x + 4, box.y + 4] as const,
      );
      throw new Error(
        `clicking empty space did not clear the selection: ${JSON.stringify(left)}; pointer events ${JSON.stringify(await pointers())}`,
      );
    }
    expect(errors).toEqual([]);
  });

  it('measures the same pair by tapping on a tablet in portrait', async () => {
    const page = pages.tablet!;
    await page.goto(server!.url);
    await waitForLiveFrames(page);
    const m = await measure(page, 'camerons', 'lees', 'tap');
    await page.screenshot({ path: join(ARTIFACTS, 'live-page-tablet-measured.png') });
    console.log(
      `tablet: measured ${m.distanceIn.toFixed(3)} in ± ${m.uncertaintyIn.toFixed(3)}, truth ${truth.toFixed(3)} in`,
    );
    expect(m.selection).toEqual(['camerons', 'lees']);
    expect(Math.abs(m.distanceIn - truth)).toBeLessThanOrEqual(0.1);
    expect(errors).toEqual([]);
  });
});
