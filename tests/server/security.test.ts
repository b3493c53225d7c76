import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../src/server/app.ts';
import { PathError, resolveInside, roleFor, TokenBucket } from '../../src/server/security.ts';
import { copiedData, DEMO, liveUrl, startTestServer } from './server-harness.ts';

/**
 * LAN mode's rules, against the running server: no token, no entry (HTTP and WebSocket); the
 * query token becomes an HttpOnly cookie; a spectator link reads but changes nothing; another
 * site cannot open the socket; names cannot leave their folders; bodies and rates are bounded.
 *
 * (The server listens on 127.0.0.1 here — traffic stays on this machine — with the same tokens
 * `--lan` sets; that the server refuses a non-loopback address without a token is checked first.)
 */

const PLAYER = 'player-secret-0123456789';
const SPECTATOR = 'spectator-secret-987654';
let dir = '';
let server: RunningServer;
let wsUrl = '';

beforeAll(async () => {
  const data = copiedData('vedette-security-');
  dir = data.dir;
  server = await startTestServer({
    scenariosDir: data.scenariosDir,
    calibrationDir: data.calibrationDir,
    record: false,
    tokens: { player: PLAYER, spectator: SPECTATOR },
    limits: { writesPerSecond: 5 },
    loop: { minIntervalMs: 500 },
  });
  wsUrl = liveUrl(server);
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Opens the live socket; resolves with the socket and its messages, or the refusal's HTTP status. */
function connect(
  headers: Record<string, string>,
): Promise<{ ws: WebSocket; messages: Array<{ type: string; [k: string]: unknown }> } | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(wsUrl, { headers });
    const messages: Array<{ type: string; [k: string]: unknown }> = [];
    ws.on('message', (data, isBinary) => {
      if (!isBinary) messages.push(JSON.parse(data.toString()) as { type: string });
    });
    ws.once('open', () => resolve({ ws, messages }));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(-1));
  });
}

async function until(test: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

describe('LAN access', () => {
  it('will not listen beyond this machine without a token', async () => {
    await expect(startTestServer({ host: '0.0.0.0' })).rejects.toThrow(/access token is required/);
  });

  it('refuses HTTP requests without the token, or with a wrong one', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      auth('wrong'),
      auth(PLAYER.slice(0, -1)),
      { 'x-vedette-token': '' },
    ];
    for (const headers of attempts) {
      const res = await fetch(`${server.url}/api/health`, { headers });
      expect(res.status).toBe(401);
    }
    for (const path of ['/', '/index.html', '/api/status', '/api/scenario', '/api/battles']) {
      expect((await fetch(server.url + path)).status).toBe(401);
    }
    expect((await fetch(`${server.url}/api/health`, { headers: auth(PLAYER) })).status).toBe(200);
    expect(
      (await fetch(`${server.url}/api/health`, { headers: { 'x-vedette-token': SPECTATOR } })).status,
    ).toBe(200);
  });

  it('moves the link token into an HttpOnly cookie and drops it from the address', async () => {
    const res = await fetch(`${server.url}/?token=${PLAYER}`, {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/vedette_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const again = await fetch(`${server.url}/api/whoami`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(await again.json()).toEqual({ role: 'player' });
  });

  it('refuses the WebSocket without the token, and from another site', async () => {
    expect(await connect({})).toBe(401);
    expect(await connect({ cookie: 'vedette_token=nope' })).toBe(401);
    expect(await connect({ cookie: `vedette_token=${PLAYER}`, origin: 'http://evil.example' })).toBe(403);
    const ok = await connect({ cookie: `vedette_token=${PLAYER}`, origin: server.url });
    expect(typeof ok).toBe('object');
    if (typeof ok === 'object') {
      await until(() => ok.messages.some((m) => m.type === 'hello'));
      expect(ok.messages.find((m) => m.type === 'hello')!['role']).toBe('player');
      ok.ws.close();
    }
  });

  it('refuses a Host that is not this machine (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      const req = request(
        `${server.url}/api/health`,
        { headers: { host: 'evil.example', ...auth(PLAYER) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('a spectator link', () => {
  it('reads, and measures for itself, but changes nothing', async () => {
    const before = server.scenario().name;
    const demo = readFileSync(DEMO, 'utf8');
    const attempts: Array<[string, string, string | undefined]> = [
      ['POST', '/api/scenario', demo],
      ['POST', '/api/source', '{"source":"synthetic"}'],
      ['PUT', '/api/scenarios/hacked', demo],
      ['POST', '/api/scenarios/prestonpans-demo/load', '{}'],
      ['POST', '/api/terrain', '{}'],
      ['DELETE', '/api/terrain/x', undefined],
      ['POST', '/api/roster/base', '{}'],
      ['POST', '/api/calibration/save', '{"name":"x"}'],
      ['DELETE', '/api/calibration/views', undefined],
      ['POST', '/api/battles', '{}'],
      ['POST', '/api/battles/stop', '{}'],
      ['POST', '/api/battles/import', '{}'],
      ['DELETE', '/api/referee/last', undefined],
    ];
    for (const [method, path, body] of attempts) {
      const res = await fetch(server.url + path, {
        method,
        headers: { ...auth(SPECTATOR), 'content-type': 'application/json' },
        ...(body !== undefined ? { body } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { error: string }).error).toMatch(/read-only/);
    }
    expect(server.scenario().name).toBe(before);
    expect((await fetch(`${server.url}/api/status`, { headers: auth(SPECTATOR) })).status).toBe(200);
    expect(
      await fetch(`${server.url}/api/whoami`, { headers: auth(SPECTATOR) }).then((r) => r.json()),
    ).toEqual({ role: 'spectator' });

    const live = await connect({ cookie: `vedette_token=${SPECTATOR}` });
    if (typeof live !== 'object') throw new Error(`spectator socket refused: ${live}`);
    const { ws, messages } = live;
    await until(() => messages.some((m) => m.type === 'hello'));
    expect(messages[0]!['role']).toBe('spectator');
    ws.send(JSON.stringify({ type: 'camera', width: 640, height: 480 }));
    ws.send(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), { binary: true });
    ws.send(JSON.stringify({ type: 'measure', a: 'lees', b: 'camerons' }));
    await until(() => messages.some((m) => m.type === 'state' && m['measurement']), 60_000);
    const errors = messages.filter((m) => m.type === 'error').map((m) => String(m['message']));
    expect(errors).toContain('a spectator cannot change the camera');
    expect(errors).toContain('a spectator cannot send a camera');
    expect(messages.some((m) => m.type === 'state' && m['measurement'])).toBe(true);
    expect((server.loop.currentSource as { name: string }).name).toBe('synthetic table');
    ws.close();
  });
});

describe('limits', () => {
  it('refuses an oversized body with 413 and keeps serving', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1_200_000) });
    const res = await fetch(`${server.url}/api/scenario`, {
      method: 'POST',
      headers: { ...auth(PLAYER), 'content-type': 'application/json' },
      body: big,
    });
    expect(res.status).toBe(413);
    expect((await fetch(`${server.url}/api/health`, { headers: auth(PLAYER) })).status).toBe(200);
  });

  it('slows down a client that writes too fast (429), per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${server.url}/api/source`, {
        method: 'POST',
        headers: { ...auth(PLAYER), 'content-type': 'application/json' },
        body: '{"source":"nowhere"}',
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
    // Reading is never rate limited.
    expect((await fetch(`${server.url}/api/health`, { headers: auth(PLAYER) })).status).toBe(200);
  });

  it('drops WebSocket messages beyond the rate, says so once a second, and keeps the connection', async () => {
    const live = await connect({ cookie: `vedette_token=${PLAYER}` });
    if (typeof live !== 'object') throw new Error('refused');
    const { ws, messages } = live;
    await until(() => messages.some((m) => m.type === 'hello'));
    for (let i = 0; i < 200; i++) ws.send(JSON.stringify({ type: 'clearMeasure' }));
    await until(() => messages.some((m) => m.type === 'error'));
    const notices = messages.filter(
      (m) => m.type === 'error' && /too many messages/.test(String(m['message'])),
    );
    expect(notices.length).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    ws.send(JSON.stringify({ type: 'measure', a: 'lees', b: 'ghosts' }));
    await until(() => messages.some((m) => m['message'] === 'unknown unit: ghosts'));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it('refuses a camera profile named by a path', async () => {
    const live = await connect({ cookie: `vedette_token=${PLAYER}` });
    if (typeof live !== 'object') throw new Error('refused');
    const { ws, messages } = live;
    for (const profile of ['../../etc/passwd', '/etc/passwd', '..', 'a/../../b', 'boards/../../../x']) {
      ws.send(JSON.stringify({ type: 'camera', width: 1920, height: 1080, profile }));
    }
    await until(() => messages.filter((m) => m.type === 'error').length >= 5);
    const errors = messages.filter((m) => m.type === 'error').map((m) => String(m['message']));
    expect(errors).toHaveLength(5);
    for (const e of errors) expect(e).toMatch(/not a path|not an allowed file name/);
    ws.close();
  });
});

describe('security helpers', () => {
  it('resolveInside keeps names inside their folder', () => {
    expect(resolveInside('/srv/calibration', 'my-camera', '.json')).toBe('/srv/calibration/my-camera.json');
    expect(resolveInside('/srv/calibration', 'my-camera.json', '.json')).toBe(
      '/srv/calibration/my-camera.json',
    );
    for (const bad of [
      '',
      '..',
      '../x',
      'a/b',
      'a\\b',
      '/etc/passwd',
      '.hidden',
      'x..json',
      'a\0b',
      'x'.repeat(101),
    ]) {
      expect(() => resolveInside('/srv/calibration', bad, '.json'), bad).toThrow(PathError);
    }
  });

  it('roleFor compares tokens exactly', () => {
    const tokens = { player: 'abc', spectator: 'xyz' };
    expect(roleFor(tokens, 'abc')).toBe('player');
    expect(roleFor(tokens, 'xyz')).toBe('spectator');
    for (const t of [undefined, '', 'ab', 'abcd', 'ABC', 'x'.repeat(300)])
      expect(roleFor(tokens, t)).toBeNull();
    expect(roleFor({ player: null, spectator: null }, undefined)).toBe('player');
  });

  it('a token bucket allows its burst, then its rate', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 5, () => now);
    const burst = Array.from({ length: 8 }, () => bucket.take()).filter(Boolean).length;
    expect(burst).toBe(5);
    now += 500; // half a second: five more
    expect(Array.from({ length: 8 }, () => bucket.take()).filter(Boolean).length).toBe(5);
  });
});
