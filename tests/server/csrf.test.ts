import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BattleStore } from '../../src/record/store.ts';
import type { RunningServer } from '../../src/server/app.ts';
import { copiedData, DEMO, liveUrl, startTestServer, until } from './server-harness.ts';

/**
 * The default loopback mode (no token: everyone on this machine is a player), against a web page
 * elsewhere that the player happens to visit. Issue 15: point 6 (cross-site requests), point 7
 * (reading never writes) and point 2 (marker ids outside the dictionary) on the running server.
 */

let server: RunningServer;
let data: ReturnType<typeof copiedData>;
const dataDir = mkdtempSync(join(tmpdir(), 'vedette-csrf-data-'));

beforeAll(async () => {
  data = copiedData('vedette-csrf-');
  server = await startTestServer({
    scenariosDir: data.scenariosDir,
    calibrationDir: data.calibrationDir,
    record: { dataDir },
    loop: { minIntervalMs: 300 },
  });
  await until('a processed frame', () => server.loop.latest !== undefined);
}, 180_000);

afterAll(async () => {
  await server?.close();
  rmSync(data.dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const recording = async (): Promise<number | null> =>
  ((await (await fetch(`${server.url}/api/battles`)).json()) as { recording: number | null }).recording;

/** Rulings recorded so far (read from the store file, as `vedette battles` would). */
function rulingsRecorded(): number {
  const store = BattleStore.inDataDir(dataDir, { readonly: true });
  try {
    return store.listBattles().reduce((n, b) => n + b.rulings, 0);
  } finally {
    store.close();
  }
}

/** What Chromium sends with a form that another site's page submits to us. */
function fromAnotherSite(origin: string): Record<string, string> {
  return {
    origin,
    'sec-fetch-site': 'cross-site',
    'sec-fetch-mode': 'navigate',
    'content-type': 'text/plain',
    'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36',
  };
}

describe('issue 15.6: requests from other web pages', () => {
  it('refuses a text/plain form posted by another site: nothing stops, nothing changes', async () => {
    const before = await recording();
    expect(before).not.toBeNull();
    const attempts: Array<[string, string, Record<string, string>]> = [
      ['POST', '/api/battles/stop', fromAnotherSite('https://evil.example')],
      ['POST', '/api/battles', fromAnotherSite('https://evil.example')],
      ['POST', '/api/scenarios/prestonpans-demo/save', fromAnotherSite('https://evil.example')],
      ['POST', '/api/source', fromAnotherSite('http://localhost:3000')],
      // Same machine, another port: same site for cookies, but not Vedette's origin.
      [
        'POST',
        '/api/battles/stop',
        { ...fromAnotherSite(server.url.replace(/:\d+$/, ':1')), 'sec-fetch-site': 'same-site' },
      ],
      // A sandboxed frame or a file:// page: Origin "null".
      ['POST', '/api/battles/stop', fromAnotherSite('null')],
      // No Origin at all, but the browser still says where it comes from.
      ['DELETE', '/api/referee/last', { 'sec-fetch-site': 'cross-site', 'user-agent': 'Mozilla/5.0' }],
      ['POST', '/api/battles/stop', { referer: 'https://evil.example/page', 'user-agent': 'Mozilla/5.0' }],
    ];
    for (const [method, path, headers] of attempts) {
      const res = await fetch(server.url + path, {
        method,
        headers,
        body: method === 'DELETE' ? undefined : 'x=1',
      });
      expect(
        res.status,
        `${method} ${path} from ${headers['origin'] ?? headers['referer'] ?? 'nowhere'}`,
      ).toBe(403);
      expect(((await res.json()) as { error: string }).error).toMatch(/cross-site request/);
    }
    expect(await recording()).toBe(before);
    expect(existsSync(join(data.scenariosDir, 'prestonpans-demo.json'))).toBe(true);
    expect(readFileSync(join(data.scenariosDir, 'prestonpans-demo.json'), 'utf8')).toBe(
      readFileSync(DEMO, 'utf8'),
    );
  });

  it("accepts Vedette's own page, which carries this launch's secret, and refuses a browser without it", async () => {
    const page = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
    const cookie = page.headers.getSetCookie().find((c) => c.startsWith('vedette_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const own = {
      origin: server.url,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json',
      'user-agent': 'Mozilla/5.0',
    };
    const without = await fetch(`${server.url}/api/referee/last`, { method: 'DELETE', headers: own });
    expect(without.status).toBe(403);
    expect(((await without.json()) as { error: string }).error).toMatch(/reload the page/);
    const stale = await fetch(`${server.url}/api/referee/last`, {
      method: 'DELETE',
      headers: { ...own, cookie: 'vedette_session=from-an-earlier-start' },
    });
    expect(stale.status).toBe(403);
    const ok = await fetch(`${server.url}/api/referee/last`, {
      method: 'DELETE',
      headers: { ...own, cookie: cookie!.split(';')[0]! },
    });
    expect(ok.status).toBe(200);
    // The header form of the secret works too (a page may send it itself).
    const secret = cookie!.split(';')[0]!.split('=')[1]!;
    const header = await fetch(`${server.url}/api/referee/last`, {
      method: 'DELETE',
      headers: { ...own, 'x-vedette-session': secret },
    });
    expect(header.status).toBe(200);
    // Programs that are not browsers (no Origin, no Sec-Fetch-Site, no Referer) are not web pages.
    expect((await fetch(`${server.url}/api/referee/last`, { method: 'DELETE' })).status).toBe(200);
  });

  it('refuses a WebSocket opened by another page, whatever it claims', async () => {
    const open = (origin: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(liveUrl(server), { headers: { origin } });
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('error', () => resolve(-1));
      });
    expect(await open('https://evil.example')).toBe(403);
    expect(await open('null')).toBe(403);
    expect(await open(server.url.replace(/:\d+$/, ':1'))).toBe(403);
    expect(await open(server.url)).toBe(101);
  });
});

describe('issue 15.7: reading never writes', () => {
  it('answers GET /api/distance and a page measuring without recording; a POST records', async () => {
    const before = rulingsRecorded();
    for (let i = 0; i < 3; i++)
      expect((await fetch(`${server.url}/api/distance?a=lees&b=camerons`)).status).toBe(200);
    const ws = new WebSocket(liveUrl(server), { headers: { origin: server.url } });
    const states: Array<{ measurement?: unknown }> = [];
    ws.on('message', (m, binary) => {
      if (!binary) {
        const msg = JSON.parse(m.toString()) as { type: string; measurement?: unknown };
        if (msg.type === 'state') states.push(msg);
      }
    });
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'measure', a: 'lees', b: 'camerons' }));
    await until('a measured state', () => states.some((s) => s.measurement));
    ws.close();
    await new Promise((r) => setTimeout(r, 600)); // past the recorder's flush interval
    expect(rulingsRecorded()).toBe(before);
    const kept = await fetch(`${server.url}/api/distance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 'lees', b: 'camerons' }),
    });
    expect(kept.status).toBe(200);
    expect(rulingsRecorded()).toBe(before + 1);
  });
});

describe('issue 15.2: marker ids outside the dictionary, on the running server', () => {
  it('refuses binding one (400, dictionary and range named) and keeps serving', async () => {
    const res = await fetch(`${server.url}/api/roster/base`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ unit: 'lees', base: 0, markerId: 600 }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /units\.0\.bases\.0\.marker\.id: marker id 600 is not in apriltag_36h11 \(its ids are 0–586\)/,
    );
    expect(server.scenario().units[0]!.bases[0]!.marker.id).not.toBe(600);
    expect((await fetch(`${server.url}/api/scenario`)).status).toBe(200);
  });

  it('refuses saving or uploading a scenario whose reference marker is outside it; nothing is written', async () => {
    const file = JSON.parse(readFileSync(DEMO, 'utf8')) as { referenceMarkers: Array<{ id: number }> };
    file.referenceMarkers[1]!.id = 999;
    const put = await fetch(`${server.url}/api/scenarios/out-of-range`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(file),
    });
    expect(put.status).toBe(400);
    expect(((await put.json()) as { error: string }).error).toMatch(/marker id 999 is not in apriltag_36h11/);
    expect(existsSync(join(data.scenariosDir, 'out-of-range.json'))).toBe(false);
    const upload = await fetch(`${server.url}/api/scenario`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(file),
    });
    expect(upload.status).toBe(400);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
