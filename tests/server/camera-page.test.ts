import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer, type ServerStatus } from '../../src/server/app.ts';
import { until } from './server-harness.ts';

/**
 * The page's "Use this device's camera" button, end to end in Chromium with its fake camera
 * (a moving test pattern): a player's page sends its camera and the server watches through it
 * (an estimate, flagged); a spectator's page is refused. Players and spectators arrive through
 * their token links, as in LAN mode.
 */

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  if (process.env['VEDETTE_REQUIRE_ALL'] === '1')
    throw new Error(`${CHROMIUM} is missing (VEDETTE_REQUIRE_ALL=1)`);
  console.warn(`\n!!! SKIPPED: the camera page test needs ${CHROMIUM} (apt-get install chromium) !!!\n`);
}

const PLAYER = 'Cp4Xw-player-9Rt2Lq7Zm3Vb8Nk5Hs';
const SPECTATOR = 'Cs6Yd-spectator-3Jw8Pf1Gx7Qc4Tn';
let dir = '';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  if (!haveChromium) return;
  dir = mkdtempSync(join(tmpdir(), 'vedette-camera-page-'));
  // Our own build of the page, so as not to race other tests building web/dist.
  execFileSync(
    'npx',
    ['vite', 'build', '--outDir', join(dir, 'web'), '--emptyOutDir', '--logLevel', 'error'],
    {
      stdio: 'inherit',
    },
  );
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    scenarioPath: 'scenarios/prestonpans-demo.json',
    webRoot: join(dir, 'web'),
    source: { kind: 'synthetic', moving: false },
    record: false,
    tokens: { player: PLAYER, spectator: SPECTATOR },
    loop: { minIntervalMs: 300 },
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function status(): Promise<ServerStatus> {
  const res = await fetch(`${server.url}/api/status`, { headers: { authorization: `Bearer ${PLAYER}` } });
  return (await res.json()) as ServerStatus;
}

describe.skipIf(!haveChromium)('"Use this device\'s camera" on the page', () => {
  it('a spectator is refused', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    page.on('dialog', (d) => void d.accept(''));
    await page.goto(`${server.url}/?token=${SPECTATOR}`);
    await page.locator('#camera-send').click();
    await page.waitForFunction(
      () => document.getElementById('camera-send')?.dataset['phase'] === 'error',
      null,
      {
        timeout: 30_000,
      },
    );
    expect(await page.locator('#camera-send').textContent()).toMatch(/spectator cannot change the camera/);
    expect((await status()).source.name).toBe('synthetic table');
    await context.close();
  });

  it("a player's camera becomes the table's camera (an estimate, flagged)", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('dialog', (d) => void d.accept(''));
    await page.goto(`${server.url}/?token=${PLAYER}`);
    expect(new URL(page.url()).search).toBe(''); // the token went into the cookie
    await page.locator('#camera-send').click();
    await until(
      'frames from the page',
      async () => {
        const s = await status();
        return s.source.name === 'browser camera' && s.source.state === 'live' && s.frames.framesIn >= 3;
      },
      60_000,
      200,
    );
    const s = await status();
    expect(s.camera.kind).toBe('estimate');
    expect(await page.locator('#camera-send').getAttribute('data-phase')).toBe('sending');
    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: 'test-artifacts/camera-page-sending.png' });
    console.log(
      `page camera: ${s.camera.width}×${s.camera.height}, ${s.frames.framesIn} frames in, ${s.frames.framesProcessed} processed, ` +
        `latency mean ${s.frames.latencyMs.mean?.toFixed(0)} ms; button: ${await page.locator('#camera-send').textContent()}`,
    );
    // Stop: the server reports the camera gone.
    await page.locator('#camera-send').click();
    await until('the loss', async () => (await status()).source.state === 'retrying', 60_000, 200);
    expect(errors).toEqual([]);
    await context.close();
  });
});
