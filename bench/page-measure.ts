/**
 * One measurement of the live page in headless Chromium (bench/page.ts, bench/live.ts): a fresh
 * server as `vedette serve` starts it on the synthetic demo, a window of the given size, and over a
 * window after a warm-up the frames the page drew per second (what its status line shows) beside
 * the server's processed fps.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { spawnLiveServer, stopLiveServer } from './live-server-process.ts';

/** Debian's Chromium, as the browser tests use it. */
export const CHROMIUM = '/usr/bin/chromium';
/** Chromium's switches for a headless measurement (no GPU here; as a laptop without one). */
export const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu'];

export interface WindowSize {
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
  readonly label: string;
}

export interface Run {
  readonly size: WindowSize;
  readonly picture: 'page size' | 'full';
  readonly pageFps: number;
  readonly serverFps: number;
  readonly pictureWidth: number | null;
  readonly pictureHeight: number | null;
  readonly canvasWidth: number | null;
}

export function parseSizes(text: string): WindowSize[] {
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

export async function measurePage(
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
