import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import {
  launchChromium,
  prepareBrowserRun,
  skipWithoutChromium,
  startWebServer,
  watchedPage,
} from './browser-harness.ts';

/**
 * Issue 15, point 6, in a real browser: the player has Vedette open (loopback, no token, the
 * default) and visits another web site in the same browser. That site's page tries what any page
 * can do without asking: submit a text/plain form to stop the battle, send a no-cors fetch to
 * start another, and open the live WebSocket. None of it may reach the table, from another site
 * (http://localhost:<port>) or from another port of the same machine (same site for cookies).
 * Vedette's own page, meanwhile, still changes the table.
 */

const skip = skipWithoutChromium('the cross-site browser test');

/** The hostile page: everything fires on load; `window.report` says what the socket did. */
function hostilePage(target: string): string {
  return `<!doctype html><meta charset="utf-8"><title>A page about something else</title>
<iframe name="sink" style="display:none"></iframe>
<form id="f" method="POST" action="${target}/api/battles/stop" enctype="text/plain" target="sink">
  <input name='{"ignored":"' value='"}'>
</form>
<script>
  window.report = { socket: 'pending', fetched: false };
  document.getElementById('f').submit();
  fetch('${target}/api/battles', { method: 'POST', mode: 'no-cors', body: '{"name":"hijacked"}' })
    .then(() => (window.report.fetched = true), () => (window.report.fetched = true));
  fetch('${target}/api/scenarios/prestonpans-demo/load', { method: 'POST', mode: 'no-cors' }).catch(() => {});
  const ws = new WebSocket('${target.replace('http', 'ws')}/live');
  ws.onopen = () => (window.report.socket = 'open');
  ws.onerror = () => (window.report.socket = 'refused');
</script>`;
}

function serveHostile(target: string): Promise<Server> {
  const http = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(hostilePage(target));
  });
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http)));
}

describe.skipIf(skip)('a hostile web page in the same browser', { timeout: 300_000 }, () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let hostile: Server | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'vedette-cross-site-'));

  beforeAll(async () => {
    prepareBrowserRun();
    browser = await launchChromium();
    server = await startWebServer({
      scenarioPath: 'scenarios/prestonpans-demo.json',
      record: { dataDir },
      loop: { minIntervalMs: 500 },
    });
    hostile = await serveHostile(server.url);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await new Promise<void>((r) => (hostile ? hostile.close(() => r()) : r()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const battles = async () =>
    (await (await fetch(`${server!.url}/api/battles`)).json()) as {
      recording: number | null;
      battles: Array<{ id: number; name: string; endedAt: number | null }>;
    };

  it('cannot stop the battle, start another or open the live socket; Vedette\u2019s own page can', async () => {
    const errors: string[] = [];
    const page = await watchedPage(browser!, errors);
    // The player's own tab: Vedette's page, so the browser holds its cookies (the worst case).
    await page.goto(server!.url);
    const before = await battles();
    expect(before.recording).not.toBeNull();
    const port = (hostile!.address() as AddressInfo).port;
    for (const site of [`http://localhost:${port}/`, `http://127.0.0.1:${port}/`]) {
      const evil = await page.context().newPage();
      await evil.goto(site);
      await evil.waitForFunction(
        () => {
          const r = (window as unknown as { report?: { socket: string; fetched: boolean } }).report;
          return r !== undefined && r.socket !== 'pending' && r.fetched;
        },
        null,
        { timeout: 30_000 },
      );
      await new Promise((r) => setTimeout(r, 500)); // the form's post lands in its frame
      const report = await evil.evaluate(() => (window as unknown as { report: unknown }).report);
      expect(report, site).toEqual({ socket: 'refused', fetched: true });
      await evil.close();
    }
    const after = await battles();
    expect(after.recording).toBe(before.recording);
    const shape = (b: { id: number; name: string; endedAt: number | null }) => [b.id, b.name, b.endedAt];
    expect(after.battles.map(shape)).toEqual(before.battles.map(shape));
    expect(after.battles.some((b) => b.name === 'hijacked')).toBe(false);

    // Vedette's own page still changes the table (its requests carry the launch's secret).
    const started = await page.evaluate(async () => {
      const res = await fetch('/api/battles', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'second game' }),
      });
      return res.status;
    });
    expect(started).toBe(201);
    expect((await battles()).battles.map((b) => b.name)).toContain('second game');
    expect(errors.filter((e) => /Content Security Policy|Refused to/.test(e))).toEqual([]);
  });
});
