import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../src/server/app.ts';
import { BattleStore } from '../../src/record/store.ts';
import {
  AuthThrottle,
  PathError,
  resolveInside,
  roleFor,
  tokenBits,
  TokenBucket,
} from '../../src/server/security.ts';
import { copiedData, DEMO, liveUrl, startTestServer } from './server-harness.ts';

/**
 * LAN mode's rules, against the running server: no token, no entry (HTTP and WebSocket); the
 * query token becomes an HttpOnly cookie; a spectator link reads but changes nothing; another
 * site cannot open the socket; names cannot leave their folders; bodies and rates are bounded.
 *
 * (The server listens on 127.0.0.1 here — traffic stays on this machine — with the same tokens
 * `--lan` sets; that the server refuses a non-loopback address without a token is checked first.)
 */

const PLAYER = 'x7Rb2-player-Kq9Lm4Vt8Wz3Np6Ys1';
const SPECTATOR = 'Hd5Jw-spectator-8Tq2Zr7Lc4Vn9Bx';
let dir = '';
let server: RunningServer;
let wsUrl = '';
const dataDir = mkdtempSync(join(tmpdir(), 'vedette-security-data-'));
// Two tiny pages stand in for the built web app: what matters here is how they are served.
const webRoot = mkdtempSync(join(tmpdir(), 'vedette-security-web-'));
for (const page of ['index.html', 'overlay.html', 'replay.html'])
  writeFileSync(join(webRoot, page), `<!doctype html><title>${page}</title>`);

beforeAll(async () => {
  const data = copiedData('vedette-security-');
  dir = data.dir;
  server = await startTestServer({
    scenariosDir: data.scenariosDir,
    calibrationDir: data.calibrationDir,
    record: { dataDir },
    webRoot,
    tokens: { player: PLAYER, spectator: SPECTATOR },
    limits: { writesPerSecond: 5, maxSpectators: 6, maxSpectatorsPerAddress: 3 },
    loop: { minIntervalMs: 500 },
  });
  wsUrl = liveUrl(server);
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(webRoot, { recursive: true, force: true });
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Opens the live socket; resolves with the socket and its messages, or the refusal's HTTP status. */
function connect(
  headers: Record<string, string>,
  from?: string,
  url = wsUrl,
): Promise<{ ws: WebSocket; messages: Array<{ type: string; [k: string]: unknown }> } | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers, ...(from ? { localAddress: from } : {}) });
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

/** One HTTP request from a chosen loopback address (127.0.0.x), so per-address rules can be seen. */
function from(
  address: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers, localAddress: address }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function rulingsRecorded(): number {
  const store = BattleStore.inDataDir(dataDir, { readonly: true });
  try {
    return store.listBattles().reduce((n, b) => n + b.rulings, 0);
  } finally {
    store.close();
  }
}

describe('issue 15.7: a spectator reads, and reading never writes', () => {
  it('measures over REST and the socket without a ruling being recorded', async () => {
    await until(() => server.loop.latest !== undefined, 60_000);
    const before = rulingsRecorded();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/api/distance?a=lees&b=camerons`, { headers: auth(SPECTATOR) });
      expect(res.status).toBe(200);
    }
    const live = await connect({ cookie: `vedette_token=${SPECTATOR}` });
    if (typeof live !== 'object') throw new Error(`spectator socket refused: ${live}`);
    live.ws.send(JSON.stringify({ type: 'measure', a: 'lees', b: 'camerons' }));
    await until(() => live.messages.some((m) => m.type === 'state' && m['measurement']), 60_000);
    live.ws.close();
    await new Promise((r) => setTimeout(r, 600)); // past the recorder's flush interval
    expect(rulingsRecorded()).toBe(before);
    // Keeping a measurement with the battle is a write: players only.
    const post = await fetch(`${server.url}/api/distance`, {
      method: 'POST',
      headers: { ...auth(SPECTATOR), 'content-type': 'application/json' },
      body: '{"a":"lees","b":"camerons"}',
    });
    expect(post.status).toBe(403);
  });
});

describe('issue 15.8: live connections by role and by address', () => {
  it('caps spectators per address and in all, and players always get in', async () => {
    const spectator = { cookie: `vedette_token=${SPECTATOR}` };
    const player = { cookie: `vedette_token=${PLAYER}` };
    const open: WebSocket[] = [];
    const take = async (headers: Record<string, string>, address: string): Promise<number> => {
      const r = await connect(headers, address);
      if (typeof r === 'number') return r;
      open.push(r.ws);
      return 101;
    };
    try {
      // One address holds at most 3 spectator connections…
      const a = [];
      for (let i = 0; i < 4; i++) a.push(await take(spectator, '127.0.0.21'));
      expect(a).toEqual([101, 101, 101, 429]);
      // …and all spectators together at most 6.
      const b = [];
      for (let i = 0; i < 4; i++) b.push(await take(spectator, '127.0.0.22'));
      expect(b).toEqual([101, 101, 101, 503]);
      expect(await take(spectator, '127.0.0.23')).toBe(503);
      // Players are not in that count: they get in from anywhere, the crowded addresses too.
      expect(await take(player, '127.0.0.23')).toBe(101);
      expect(await take(player, '127.0.0.21')).toBe(101);
      expect(server.status().clients).toEqual({ players: 2, spectators: 6 });
      // A spectator leaving frees a place.
      open[0]!.close();
      await until(() => server.status().clients.spectators === 5);
      expect(await take(spectator, '127.0.0.23')).toBe(101);
    } finally {
      for (const ws of open) ws.close();
      await until(() => server.status().clients.spectators === 0 && server.status().clients.players === 0);
    }
  });
});

describe('issue 15.9: guessing tokens', () => {
  it('throttles wrong tokens per address before looking at the token, the right one included', async () => {
    const guesses: number[] = [];
    for (let i = 0; i < 14; i++)
      guesses.push((await from('127.0.0.31', '/api/health', auth(`guess-${i}-${PLAYER.slice(6)}`))).status);
    expect(guesses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(guesses.slice(10)).toEqual(Array(4).fill(429));
    const right = await from('127.0.0.31', '/api/health', auth(PLAYER));
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(await connect({ cookie: `vedette_token=${PLAYER}` }, '127.0.0.31')).toBe(429);
    // Another address is not held up by those guesses.
    expect((await from('127.0.0.32', '/api/health', auth(PLAYER))).status).toBe(200);
  });

  it('refuses a weak token at start, with what to do, before anything runs', async () => {
    for (const weak of [
      'hunter2',
      'player-secret-0123456789',
      'a'.repeat(64),
      'correct horse battery staple',
    ])
      await expect(startTestServer({ tokens: { player: weak } })).rejects.toThrow(
        /--token is too weak: about \d+ bits, and an access token needs at least 128/,
      );
    await expect(startTestServer({ tokens: { player: PLAYER, spectator: 'spectate' } })).rejects.toThrow(
      /--spectator-token is too weak/,
    );
    expect(tokenBits(PLAYER)).toBeGreaterThanOrEqual(128);
  });

  it(
    '`vedette serve --host 0.0.0.0` without --lan or --token is refused, saying why',
    { timeout: 90_000 },
    async () => {
      const child = spawn(process.execPath, ['bin/vedette.js', 'serve', '--host', '0.0.0.0', '--port', '0'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(null);
        }, 60_000);
        child.once('exit', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      expect(code, `still serving after 60 s: ${out}`).not.toBeNull();
      expect(code).not.toBe(0);
      expect(out).toMatch(/--host 0\.0\.0\.0 lets other machines on the network in: add --lan/);
    },
  );

  it('the throttle forgives with time', () => {
    let now = 0;
    const throttle = new AuthThrottle(3, 0.5, () => now);
    for (let i = 0; i < 3; i++) throttle.failed('10.0.0.9');
    expect(throttle.blocked('10.0.0.9')).toBe(true);
    expect(throttle.waitSeconds('10.0.0.9')).toBe(2);
    now += 2000;
    expect(throttle.blocked('10.0.0.9')).toBe(false);
    expect(throttle.blocked('10.0.0.10')).toBe(false);
  });
});

describe('issue 15.10: headers, and no token in addresses', () => {
  it('sends nosniff, no-referrer and a Content-Security-Policy that forbids framing, on every answer', async () => {
    for (const [path, headers] of [
      ['/', { accept: 'text/html' }],
      ['/api/health', auth(PLAYER)],
      ['/api/health', {}], // a refusal too
    ] as const) {
      const res = await fetch(server.url + path, { headers });
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toMatch(/frame-ancestors 'none'/);
      expect(csp, path).toMatch(/script-src 'self'/);
      expect(csp, path).toMatch(/object-src 'none'/);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
    // The streamer overlay may be framed by Vedette's own pages, and only by them.
    const overlay = await fetch(`${server.url}/overlay.html`, { headers: auth(PLAYER) });
    expect(overlay.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self'/);
    expect(overlay.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('takes a ?token= only on a page load, and swaps it for the cookie; the API and the socket refuse it', async () => {
    const api = await fetch(`${server.url}/api/health?token=${PLAYER}`);
    expect(api.status).toBe(401);
    expect(((await api.json()) as { error: string }).error).toMatch(/not in the address/);
    expect(await connect({}, undefined, `${wsUrl}?token=${PLAYER}`)).toBe(401);
    const page = await fetch(`${server.url}/replay.html?battle=1&token=${PLAYER}`, {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/replay.html?battle=1');
  });
});
