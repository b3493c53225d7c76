import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/app.ts';

/** What the browser tests share: Debian's chromium, its flags, a built web app, error capture. */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(ROOT, 'test-artifacts');
export const haveChromium = existsSync(CHROMIUM);
export const requireAll = process.env['VEDETTE_REQUIRE_ALL'] === '1';

export const LAUNCH_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const WAIT = { timeout: 90_000, polling: 100 } as const;
export type WaitOptions = { readonly timeout: number; readonly polling: number };

/** A tablet in portrait, by touch. */
export const TABLET: BrowserContextOptions = {
  viewport: { width: 820, height: 1180 },
  deviceScaleFactor: 2,
  hasTouch: true,
  isMobile: true,
};

/**
 * Whether a browser suite is to be skipped: only when chromium is missing and VEDETTE_REQUIRE_ALL
 * is not set, and then loudly. With VEDETTE_REQUIRE_ALL=1 the suite runs and `prepareBrowserRun`
 * fails it.
 */
export function skipWithoutChromium(what: string): boolean {
  const skip = !haveChromium && !requireAll;
  if (skip) console.warn(`\n*** SKIPPING ${what}: ${CHROMIUM} is missing (apt-get install chromium). ***\n`);
  return skip;
}

/** Fails without chromium, builds the web app if it is stale, and makes the artifacts folder. */
export function prepareBrowserRun(): void {
  if (!haveChromium)
    throw new Error(`${CHROMIUM} is missing (VEDETTE_REQUIRE_ALL=1): apt-get install chromium`);
  ensureWebBuilt();
  mkdirSync(ARTIFACTS, { recursive: true });
}

/**
 * The shared Chromium started by global-setup.ts (closing it only disconnects this file), or,
 * when a test runs without that setup, Debian's chromium launched for this file alone.
 */
export function launchChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}

/**
 * Frame pacing of the browser tests' servers: 10 fps, not the shipped 30. These tests check what
 * pages show and do, not the frame rate (bench/live.ts measures that); at 30 fps each server and
 * its page took most of a core, and on a 2-core CI machine running two files at once beside the
 * rest of the suite, pages starved until clicks and waits timed out.
 */
export const BROWSER_TEST_FRAME_INTERVAL_MS = 100;

/** The live server on a free loopback port, serving web/dist, on the still synthetic camera. */
export function startWebServer(
  options: Pick<ServerOptions, 'scenarioPath'> & Partial<ServerOptions>,
): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    webRoot: resolve(ROOT, 'web/dist'),
    source: { kind: 'synthetic', moving: false },
    ...options,
    loop: { minIntervalMs: BROWSER_TEST_FRAME_INTERVAL_MS, ...options.loop },
  });
}

/** Every page the web app builds (vite.config.ts). */
export const WEB_PAGES = ['index.html', 'overlay.html', 'replay.html', 'print.html'] as const;

/** Builds web/dist when any page or source is newer than the build (all three pages must be there). */
export function ensureWebBuilt(): void {
  const built = join(ROOT, 'web/dist/index.html');
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((t, e) => {
      const p = join(dir, e.name);
      return Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }, 0);
  const pages = WEB_PAGES;
  const sourceTime = Math.max(
    newest(join(ROOT, 'web/src')),
    ...pages.map((p) => statSync(join(ROOT, 'web', p)).mtimeMs),
  );
  if (pages.every((p) => existsSync(join(ROOT, 'web/dist', p))) && statSync(built).mtimeMs >= sourceTime)
    return;
  execFileSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/**
 * Collects a page's uncaught errors and console errors into `errors`; "Failed to load resource"
 * console errors too unless `ignoreFailedLoads`.
 */
export function watchErrors(page: Page, errors: string[], ignoreFailedLoads = true): Page {
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !(ignoreFailedLoads && /Failed to load resource/.test(msg.text())))
      errors.push(msg.text());
  });
  return page;
}

/** A page in a new context whose errors are collected into `errors` (see watchErrors). */
export async function watchedPage(
  browser: Browser,
  errors: string[],
  context: BrowserContextOptions = { viewport: { width: 1366, height: 820 } },
  ignoreFailedLoads = true,
): Promise<Page> {
  return watchErrors(await (await browser.newContext(context)).newPage(), errors, ignoreFailedLoads);
}

/** Waits for live frames with a known table pose and the scenario read. */
export async function waitForFrames(page: Page, wait: WaitOptions = WAIT): Promise<void> {
  await page.waitForFunction(
    () => {
      const hook = window.__vedette;
      return !!hook && hook.framesShown >= 2 && !!hook.lastState?.pose && hook.scenario !== null;
    },
    undefined,
    wait,
  );
}
