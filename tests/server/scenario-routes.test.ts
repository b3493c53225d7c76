import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenarioRoutes, scenarioToFile } from '../../src/server/scenario-routes.ts';
import { syntheticTableExtras } from '../../src/synth/table-extras.ts';
import { parseScenario } from '../../src/table/scenario.ts';
import { call, FakeContext, frameFromFile, serve } from './route-support.ts';

const scenario = parseScenario(JSON.parse(readFileSync('scenarios/black-powder-sample.json', 'utf8')));

describe('scenario routes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vedette-scenarios-'));
  const ctx = new FakeContext(scenario, frameFromFile(scenario, Buffer.alloc(0), [77]));
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => void (server = await serve(scenarioRoutes(ctx, { dir }))));
  afterAll(async () => server.close());

  it('round-trips a scenario through its file form (inches in, millimetres out)', () => {
    expect(parseScenario(scenarioToFile(scenario))).toEqual(scenario);
  });

  it('lists markers seen but not bound', async () => {
    const r = await call(`${server.url}/api/markers`, 'GET');
    expect(r.json['unknownIds']).toEqual([77]);
  });

  it('binds a marker to a base (size, offset, height) and applies it live', async () => {
    const r = await call(`${server.url}/api/roster/base`, 'POST', {
      unit: 'lees',
      base: 0,
      markerId: 77,
      widthMm: 45,
      markerHeightMm: 4,
      markerOffsetMm: { x: 0, y: -5 },
    });
    expect(r.status).toBe(200);
    const lees = ctx.scenario().units.find((u) => u.id === 'lees')!;
    expect(lees.bases[0]!.marker.id).toBe(77);
    expect(lees.bases[0]!.widthMm).toBe(45);
    expect(lees.bases[0]!.marker.heightMm).toBe(4);
    expect(lees.bases[0]!.marker.offsetMm).toEqual({ x: 0, y: -5 });
    expect(ctx.replaced).toBe(1);
  });

  it('refuses a marker already bound elsewhere, a reference marker, a bad body', async () => {
    const taken = ctx.scenario().units.find((u) => u.id === 'camerons')!.bases[0]!.marker.id;
    const r = await call(`${server.url}/api/roster/base`, 'POST', { unit: 'lees', base: 0, markerId: taken });
    expect(r.status).toBe(409);
    const ref = ctx.scenario().referenceMarkers[0]!.id;
    expect(
      (await call(`${server.url}/api/roster/base`, 'POST', { unit: 'lees', base: 0, markerId: ref })).status,
    ).toBe(409);
    expect((await call(`${server.url}/api/roster/base`, 'POST', { unit: 'lees', base: 'x' })).status).toBe(
      400,
    );
    expect(ctx.replaced).toBe(1);
  });

  it('adds, replaces and deletes terrain; refuses a wood without a polygon', async () => {
    const wood = {
      kind: 'wood',
      name: 'Little Wood',
      polygon: [
        { x: 100, y: 100 },
        { x: 300, y: 100 },
        { x: 300, y: 250 },
      ],
    };
    const r = await call(`${server.url}/api/terrain`, 'POST', wood);
    expect(r.status).toBe(200);
    const piece = ctx.scenario().terrain!.find((t) => t.name === 'Little Wood')!;
    expect(piece.id).toBe('wood-1');
    expect(piece.polygon![1]).toEqual({ x: 300, y: 100 });
    expect(
      (
        await call(`${server.url}/api/terrain`, 'POST', {
          kind: 'wood',
          line: [
            { x: 0, y: 0 },
            { x: 1, y: 1 },
          ],
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(`${server.url}/api/terrain`, 'POST', { kind: 'hill', height: 30, polygon: wood.polygon }))
        .status,
    ).toBe(400);
    expect((await call(`${server.url}/api/terrain/wood-1`, 'DELETE')).status).toBe(200);
    expect(ctx.scenario().terrain!.some((t) => t.id === 'wood-1')).toBe(false);
  });

  it('saves and loads by name inside the folder only', async () => {
    expect((await call(`${server.url}/api/scenarios/my-battle/save`, 'POST')).status).toBe(200);
    expect(existsSync(join(dir, 'my-battle.json'))).toBe(true);
    expect((await call(`${server.url}/api/scenarios`, 'GET')).json['scenarios']).toEqual(['my-battle']);
    expect((await call(`${server.url}/api/scenarios/my-battle/load`, 'POST')).status).toBe(200);
    expect((await call(`${server.url}/api/scenarios/..%2Fescape/save`, 'POST')).status).toBe(400);
    expect((await call(`${server.url}/api/scenarios/bad/load`, 'POST')).status).toBe(404);
    const invalid = await call(`${server.url}/api/scenarios/broken`, 'PUT', { name: 'x' });
    expect(invalid.status).toBe(400);
    expect(existsSync(join(dir, 'broken.json'))).toBe(false);
  });
});

describe('loose bases on the synthetic table', () => {
  const ctx = new FakeContext(scenario, frameFromFile(scenario));
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(
    async () =>
      void (server = await serve(
        scenarioRoutes(ctx, { dir: mkdtempSync(join(tmpdir(), 'vedette-loose-')) }),
      )),
  );
  afterAll(async () => {
    syntheticTableExtras.clear();
    await server.close();
  });

  it('presses a new base onto the table, lists it, takes it away', async () => {
    const r = await call(`${server.url}/api/synthetic/bases`, 'POST', {
      markerId: 77,
      x: 600,
      y: 450,
      headingDeg: 0,
    });
    expect(r.status).toBe(200);
    expect(syntheticTableExtras.looseBases).toEqual([
      {
        markerId: 77,
        x: 600,
        y: 450,
        headingDeg: 0,
        widthMm: 40,
        depthMm: 40,
        markerSizeMm: 25,
        markerHeightMm: 3,
      },
    ]);
    expect((await call(`${server.url}/api/synthetic/bases`, 'GET')).json['bases']).toHaveLength(1);
    expect((await call(`${server.url}/api/synthetic/bases/77`, 'DELETE')).status).toBe(200);
    expect(syntheticTableExtras.looseBases).toEqual([]);
    expect((await call(`${server.url}/api/synthetic/bases/77`, 'DELETE')).status).toBe(404);
  });

  it('refuses bad bodies, bases off the table, reference markers and markers already on the table', async () => {
    for (const body of [
      {},
      { markerId: -1, x: 1, y: 1 },
      { markerId: 77, x: 'a', y: 1 },
      { markerId: 77, x: 1, y: 1, extra: true },
    ])
      expect(
        (await call(`${server.url}/api/synthetic/bases`, 'POST', body)).status,
        JSON.stringify(body),
      ).toBe(400);
    const off = await call(`${server.url}/api/synthetic/bases`, 'POST', { markerId: 77, x: -10, y: 50 });
    expect(off.status).toBe(400);
    expect(String(off.json['error'])).toMatch(/off the/);
    expect(
      (await call(`${server.url}/api/synthetic/bases`, 'POST', { markerId: 99_999, x: 10, y: 50 })).status,
    ).toBe(400);
    const ref = scenario.referenceMarkers[0]!.id;
    expect(
      (await call(`${server.url}/api/synthetic/bases`, 'POST', { markerId: ref, x: 10, y: 50 })).status,
    ).toBe(409);
    const placed = scenario.units[0]!.bases[0]!.marker.id;
    const taken = await call(`${server.url}/api/synthetic/bases`, 'POST', { markerId: placed, x: 10, y: 50 });
    expect(taken.status).toBe(409);
    expect(String(taken.json['error'])).toMatch(/already on the table/);
    expect(syntheticTableExtras.looseBases).toEqual([]);
  });
});
