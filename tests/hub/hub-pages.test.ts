import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPublisher, type Publisher } from '../../src/hub/publish/publisher.ts';
import { startHub, type RunningHub } from '../../src/hub/server/hub-server.ts';
import { addTable } from '../../src/hub/store/tables.ts';
import { startServer, type RunningServer } from '../../src/server/app.ts';
import {
  ARTIFACTS,
  launchChromium,
  prepareBrowserRun,
  ROOT,
  skipWithoutChromium,
  watchedPage,
} from '../browser/browser-harness.ts';
import { ORGANISER, until } from './hub-harness.ts';
import { skipWithoutPostgres, startPostgres, type TestPostgres } from './pg-harness.ts';

/**
 * The hub's pages in Chromium: a table on the synthetic camera publishes to hub 1; a spectator
 * opens hub 2 (the same PostgreSQL): the tournament board shows the table live with its picture,
 * players, scenario and last ruling; its live view draws the table's picture and unit outlines
 * (relayed hub 1 → PostgreSQL → hub 2); the archive finds the battle and opens it in the replay
 * page. Screenshots in test-artifacts/.
 */

const skip = skipWithoutPostgres('the hub page tests') || skipWithoutChromium('the hub page tests');
const SPECTATOR = 'spectator-token-for-the-page-tests';

describe.skipIf(skip)('hub pages in the browser', () => {
  let postgres: TestPostgres;
  let hub1: RunningHub;
  let hub2: RunningHub;
  let table: RunningServer;
  let publisher: Publisher;
  let browser: Browser;
  let data = '';

  beforeAll(async () => {
    prepareBrowserRun();
    if (!existsSync(join(ROOT, 'web/dist/hub/table.html')))
      execFileSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
    postgres = await startPostgres();
    const databaseUrl = await postgres.createDatabase('hubpages');
    const tokens = { organiser: ORGANISER, spectator: SPECTATOR, public: false };
    const webRoot = join(ROOT, 'web/dist');
    hub1 = await startHub({ databaseUrl, port: 0, host: '127.0.0.1', tokens, webRoot });
    hub2 = await startHub({ databaseUrl, port: 0, host: '127.0.0.1', tokens, webRoot, migrate: false });
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    const { token } = await addTable(pool, { id: 'table-1', name: 'Table 1', players: ['Alice', 'Bob'] });
    await addTable(pool, { id: 'table-2', name: 'Table 2' });
    await pool.end();
    data = mkdtempSync(join(tmpdir(), 'vedette-hub-pages-'));
    table = await startServer({
      port: 0,
      host: '127.0.0.1',
      scenarioPath: 'scenarios/prestonpans-demo.json',
      source: { kind: 'synthetic', moving: true },
      record: { dataDir: data },
      webRoot,
    });
    publisher = startPublisher({ hubUrl: hub1.url, token, dataDir: data, tableUrl: table.url, pollMs: 300 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await publisher?.stop();
    await table?.close();
    await hub1?.close();
    await hub2?.close();
    await postgres?.stop();
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it(
    'shows the board, a live table and the archive through the other hub process',
    { timeout: 180_000 },
    async () => {
      // A ruling at the table, for the board's "last ruling".
      await until('a ruling at the table', async () => {
        const res = await fetch(`${table.url}/api/ask`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ ruleset: 'black-powder', question: 'shoot', a: 'lees', b: 'camerons' }),
        });
        return res.ok;
      });
      const errors: string[] = [];
      const page = await watchedPage(browser, errors, { viewport: { width: 1280, height: 800 } });
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) errors.push(m.text());
      });
      await page.goto(`${hub2.url}/hub/?token=${SPECTATOR}`);
      expect(new URL(page.url()).search).toBe(''); // the token went into a cookie
      const card = page.locator('li.card[data-table="table-1"]');
      await page.waitForFunction(
        () => {
          const c = document.querySelector('li.card[data-table="table-1"]');
          const img = c?.querySelector('img');
          return (
            c?.getAttribute('data-state') === 'live' &&
            !!img &&
            img.complete &&
            img.naturalWidth > 0 &&
            /Last ruling/.test(c.textContent ?? '')
          );
        },
        undefined,
        { timeout: 90_000, polling: 250 },
      );
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('Alice vs Bob');
      expect(text).toContain('Prestonpans');
      expect(text).toMatch(/Last ruling: .*lees.*camerons|Last ruling: .*Lee/i);
      expect(await page.locator('li.card[data-table="table-2"]').getAttribute('data-state')).toBe('offline');
      await page.screenshot({ path: join(ARTIFACTS, 'hub-board.png') });

      // The table's live view on hub 2: the table's picture and unit outlines, relayed from hub 1.
      await card.getByRole('link', { name: 'Watch live' }).click();
      await page.waitForFunction(() => Number(document.body.dataset['presented'] ?? 0) >= 3, undefined, {
        timeout: 60_000,
        polling: 200,
      });
      expect(Number(await page.evaluate(() => document.body.dataset['units']))).toBeGreaterThan(3);
      expect(await page.evaluate(() => document.body.dataset['scenario'])).toMatch(/Prestonpans/);
      // The picture is drawn: the canvas is not one flat colour, and unit outlines are on it.
      const spread = await page.evaluate(() => {
        const c = document.getElementById('view') as HTMLCanvasElement;
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let min = 255;
        let max = 0;
        for (let i = 0; i < d.length; i += 4 * 97) {
          const v = (d[i]! + d[i + 1]! + d[i + 2]!) / 3;
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
        return max - min;
      });
      expect(spread).toBeGreaterThan(60);
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(ARTIFACTS, 'hub-table-live.png') });
      expect(await page.locator('#facts').textContent()).toMatch(/Battle.*Prestonpans.*Rulings\s*1/);

      // The archive finds the battle by player, and opens it in the replay page.
      await page.goto(`${hub2.url}/hub/archive.html?player=alice`);
      const row = page.locator('#results tr').first();
      await row.waitFor({ timeout: 30_000 });
      expect(await page.locator('#results tr').count()).toBe(1);
      expect(await row.textContent()).toContain('table-1');
      await page.screenshot({ path: join(ARTIFACTS, 'hub-archive.png') });
      await row.getByRole('link', { name: 'Replay' }).click();
      await page.waitForFunction(
        () => /Prestonpans/.test(document.getElementById('title')?.textContent ?? ''),
        undefined,
        {
          timeout: 30_000,
        },
      );
      expect(errors).toEqual([]);
    },
  );
});
