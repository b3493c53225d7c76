/**
 * What the live page shows in a real browser: frames drawn per second by headless Chromium
 * (Debian's `chromium`) on the table `npm start` watches (the synthetic demo, its unit walking),
 * per window size. Each window size is run twice, alternately, in the same process against a fresh
 * server each time: the picture at the page's size (as shipped: the page's `view` message) and at
 * the camera's full size (that message kept in the page). The page talks to the server directly
 * either way.
 *
 *   npm run bench -- page [--seconds 10] [--warmup 6] [--rounds 2] [--sizes 1366x820,1920x1080,390x844@3]
 *
 * Prints, per run: frames the page drew per second (what its status line shows), the server's
 * processed fps over the same window (/api/status), the picture's size and the canvas's width.
 * It never fails on a figure.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { spawnLiveServer, stopLiveServer } from './live-server-process.ts';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = join(import.meta.dirname, '..');

interface WindowSize {
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
  readonly label: string;
}

interface Run {
  readonly size: WindowSize;
  readonly picture: 'page size' | 'full';
  readonly pageFps: number;
  readonly serverFps: number;
  readonly pictureWidth: number | null;
  readonly pictureHeight: number | null;
  readonly canvasWidth: number | null;
}

function parseSizes(text: string): WindowSize[] {
  return text.split(',').map((s) => {
    const m = /^(\d+)x(\d+)(?:@(\d+(?:\.\d+)?))?$/.exec(s.trim());
    if (!m) throw new Error(`--sizes: "${s}" is not WIDTHxHEIGHT or WIDTHxHEIGHT@DPR`);
    return { width: Number(m[1]), height: Number(m[2]), dpr: Number(m[3] ?? 1), label: s.trim() };
  });
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const { child, ready } = spawnLiveServer({ dataDir }, { log: (line) => console.error(line) });
  const started = await ready;
  if (started.type === 'failed') throw new Error(started.message);
  return { child, url: started.url };
}

async function processedFrames(url: string): Promise<number> {
  const res = await fetch(`${url}/api/status`, { signal: AbortSignal.timeout(5000) });
  return ((await res.json()) as { frames: { framesProcessed: number } }).frames.framesProcessed;
}

async function measure(
  browser: Browser,
  size: WindowSize,
  picture: Run['picture'],
  o: { seconds: number; warmup: number },
): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vedette-bench-page-'));
  const server = await startServer(dataDir);
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    deviceScaleFactor: size.dpr,
  });
  try {
    const page = await context.newPage();
    // Full size: the page's `view` message never leaves it (its WebSocket's send is wrapped
    // before the page runs), so the server sends the camera's own picture.
    if (picture === 'full')
      await page.addInitScript(() => {
        const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (this: WebSocket, data) {
          if (typeof data === 'string' && data.includes('"type":"view"')) return;
          send.call(this, data);
        };
      });
    await page.goto(server.url);
    await page.waitForFunction(() => (window.__vedette?.framesShown ?? 0) >= 2, undefined, {
      timeout: 120_000,
    });
    await page.waitForTimeout(o.warmup * 1000);
    const shown0 = await page.evaluate(() => window.__vedette!.framesShown);
    const processed0 = await processedFrames(server.url);
    const t0 = performance.now();
    await page.waitForTimeout(o.seconds * 1000);
    const shown1 = await page.evaluate(() => window.__vedette!.framesShown);
    const processed1 = await processedFrames(server.url);
    const seconds = (performance.now() - t0) / 1000;
    const sizeNow = await page.evaluate(() => window.__vedette!.pictureSize);
    return {
      size,
      picture,
      pageFps: (shown1 - shown0) / seconds,
      serverFps: (processed1 - processed0) / seconds,
      pictureWidth: sizeNow?.width ?? null,
      pictureHeight: sizeNow?.height ?? null,
      canvasWidth: sizeNow?.canvasWidth ?? null,
    };
  } finally {
    await context.close();
    await stopLiveServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '6' },
      rounds: { type: 'string', default: '2' },
      sizes: { type: 'string', default: '1366x820,1920x1080,390x844@3' },
    },
  });
  if (!existsSync(CHROMIUM)) {
    console.error(
      `*** ${CHROMIUM} is missing (apt-get install chromium): the page benchmark cannot run. ***`,
    );
    process.exit(1);
  }
  if (!existsSync(join(ROOT, 'web/dist/index.html'))) {
    console.error('web/dist is not built: run `npm run build:web` first.');
    process.exit(1);
  }
  const o = { seconds: Number(values.seconds), warmup: Number(values.warmup) };
  const sizes = parseSizes(values.sizes);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const runs: Run[] = [];
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const size of sizes) {
        // Alternate which goes first, so neither always meets a warmer machine.
        const order: Array<Run['picture']> = round % 2 === 0 ? ['page size', 'full'] : ['full', 'page size'];
        for (const picture of order) {
          const run = await measure(browser, size, picture, o);
          runs.push(run);
          console.log(
            `${size.label.padEnd(12)} ${picture.padEnd(9)} page ${run.pageFps.toFixed(1)} fps, server ${run.serverFps.toFixed(1)} fps, picture ${run.pictureWidth}×${run.pictureHeight}, canvas ${run.canvasWidth} px`,
          );
        }
      }
    }
  } finally {
    await browser.close();
  }
  console.log('\n| window | picture | page fps (status line) | server processed fps | picture | canvas px |');
  console.log('|---|---|---|---|---|---|');
  for (const r of runs)
    console.log(
      `| ${r.size.label} | ${r.picture} | ${r.pageFps.toFixed(1)} | ${r.serverFps.toFixed(1)} | ${r.pictureWidth}×${r.pictureHeight} | ${r.canvasWidth} |`,
    );
}

await main();
