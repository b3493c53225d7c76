import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { copiedData, startTestServer, until } from './server-harness.ts';

/**
 * Issue 16, point 4: a terrain edit applies at once — the same camera source and vision worker
 * keep running (no rebuild), the battle being recorded goes on, and the edit is noted in it as an
 * annotation where the piece lies. A marker binding still rebuilds (the camera must learn it).
 */

describe('terrain edits on the live server', { timeout: 120_000 }, () => {
  let server: RunningServer;
  const data = copiedData('vedette-terrain-edit-');
  const dataDir = mkdtempSync(join(tmpdir(), 'vedette-terrain-rec-'));

  beforeAll(async () => {
    server = await startTestServer({ scenariosDir: data.scenariosDir, record: { dataDir } });
    await until('a first frame', () => server.loop.latest !== undefined, 60_000);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    rmSync(data.dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  const json = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('keeps the camera and the battle, and notes the wood in the battle', async () => {
    const source = server.loop.currentSource;
    const before = (await json('/api/battles')).body['battles'] as Array<{ id: number }>;
    expect(before).toHaveLength(1);
    const t0 = performance.now();
    const r = await json('/api/terrain', 'POST', {
      kind: 'wood',
      name: 'Tranent Wood',
      polygon: [
        { x: 450, y: 400 },
        { x: 780, y: 400 },
        { x: 780, y: 520 },
      ],
    });
    const ms = performance.now() - t0;
    console.log(`terrain edit answered in ${ms.toFixed(0)} ms`);
    expect(r.status).toBe(200);
    expect(server.scenario().terrain?.some((t) => t.name === 'Tranent Wood')).toBe(true);
    // The same source object: nothing was rebuilt.
    expect(server.loop.currentSource).toBe(source);
    // Frames keep coming with the new scenario; the battle goes on.
    const frame = server.loop.latest;
    await until('a frame after the edit', () => server.loop.latest !== frame, 30_000);
    const after = (await json('/api/battles')).body['battles'] as Array<{ id: number }>;
    expect(after.map((b) => b.id)).toEqual(before.map((b) => b.id));
    const replay = (await json(`/api/battles/${after[0]!.id}/replay`)).body as {
      annotations: Array<{ text: string; at: { x: number; y: number } | null }>;
    };
    expect(replay.annotations.map((a) => a.text)).toContain('Terrain added: Tranent Wood (wood)');
    expect(replay.annotations.find((a) => a.text.includes('Tranent'))!.at).not.toBeNull();

    await json(
      `/api/terrain/${(server.scenario().terrain ?? []).find((t) => t.name === 'Tranent Wood')!.id}`,
      'DELETE',
    );
    const notes = (
      (await json(`/api/battles/${after[0]!.id}/replay`)).body as { annotations: Array<{ text: string }> }
    ).annotations;
    expect(notes.map((a) => a.text)).toContain('Terrain removed: Tranent Wood (wood)');
  });

  it('a marker binding still gives the camera the new roster (a rebuild)', async () => {
    const source = server.loop.currentSource;
    const r = await json('/api/roster/base', 'POST', { unit: 'lees', base: 0, markerId: 77 });
    expect(r.status).toBe(200);
    expect(server.loop.currentSource).not.toBe(source);
  });
});
