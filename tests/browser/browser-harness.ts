import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';

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

/** Builds web/dist when any page or source is newer than the build (all three pages must be there). */
export function ensureWebBuilt(): void {
  const built = join(ROOT, 'web/dist/index.html');
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((t, e) => {
      const p = join(dir, e.name);
      return Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }, 0);
  const pages = ['index.html', 'overlay.html', 'replay.html'];
  const sourceTime = Math.max(
    newest(join(ROOT, 'web/src')),
    ...pages.map((p) => statSync(join(ROOT, 'web', p)).mtimeMs),
  );
  if (pages.every((p) => existsSync(join(ROOT, 'web/dist', p))) && statSync(built).mtimeMs >= sourceTime)
    return;
  execFileSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/** A page whose uncaught errors and console errors are collected into `errors`. */
export async function watchedPage(
  browser: Browser,
  errors: string[],
  viewport = { width: 1366, height: 820 },
): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(msg.text());
  });
  return page;
}

/** Waits for live frames with a known table pose and the scenario read. */
export async function waitForFrames(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const hook = window.__vedette;
      return !!hook && hook.framesShown >= 2 && !!hook.lastState?.pose && hook.scenario !== null;
    },
    undefined,
    WAIT,
  );
}
