import { describe, expect, it } from 'vitest';
import {
  BoardMapError,
  findSpace,
  frontierConsistency,
  parseBoardMap,
  routeBetween,
  sampleBoardMap,
  type BoardMapFile,
} from '../../src/board/board-map.ts';
import { mapToTable, tableToMap } from '../../src/board/placement.ts';
import { snapToSpace } from '../../src/board/snap.ts';

const tiny = (): BoardMapFile => ({
  name: 'tiny',
  size: { width: 10, height: 10 },
  scale: { from: 'a', to: 'b', inches: 4, miles: 48, km: 77 },
  spaces: [
    { id: 'a', name: 'A', kind: 'burgh', named: true, region: 'highlands', x: 1, y: 1, radius: 0.25 },
    { id: 'b', kind: 'open', named: false, region: 'northernLowlands', x: 5, y: 1, radius: 0.25 },
  ],
  routes: [{ from: 'a', to: 'b', kind: 'mountain' }],
  frontiers: [
    {
      id: 'highlandLine',
      line: [
        { x: 3, y: 0 },
        { x: 3, y: 5 },
      ],
    },
  ],
});

describe('board map files', () => {
  it('parse, with default costs and adjacency both ways', () => {
    const m = parseBoardMap(tiny());
    expect(m.costs).toEqual({ land: 1, mountain: 2 });
    expect(routeBetween(m, 'b', 'a')).toBe('mountain');
    expect(m.sample).toBe(false);
    expect(frontierConsistency(m)).toEqual([]);
  });
  it('refuse unknown route ends, duplicate ids, unnamed Burghs and unknown fields, naming the field', () => {
    const bad = tiny() as { routes: unknown[]; spaces: Record<string, unknown>[] };
    bad.routes.push({ from: 'a', to: 'zz', kind: 'land' });
    bad.spaces.push({ ...bad.spaces[0], colour: 'red' });
    bad.spaces.push({ id: 'c', kind: 'burgh', named: false, region: 'england', x: 0, y: 0, radius: 0.2 });
    expect(() => parseBoardMap(bad)).toThrow(BoardMapError);
    try {
      parseBoardMap(bad);
    } catch (e) {
      const msg = (e as Error).message;
      expect(msg).toMatch(/routes\.1\.to: unknown space "zz"/);
      expect(msg).toMatch(/unknown field\(s\): colour/);
      expect(msg).toMatch(/a Burgh is always a named space/);
    }
  });
  it('notice a route that changes region without crossing the frontier', () => {
    const f = tiny();
    const m = parseBoardMap({
      ...f,
      frontiers: [
        {
          id: 'highlandLine',
          line: [
            { x: 8, y: 0 },
            { x: 8, y: 5 },
          ],
        },
      ],
    });
    expect(frontierConsistency(m)[0]).toMatch(/without crossing the highlandLine/);
  });
});

describe('the sample map', () => {
  const m = sampleBoardMap();
  it('says it is a sample, fits the 11 × 17 in sheet, and its regions agree with its frontiers', () => {
    expect(m.sample).toBe(true);
    expect(m.name).toMatch(/SAMPLE/);
    for (const s of m.spaces) {
      expect(s.x).toBeGreaterThan(0);
      expect(s.x).toBeLessThan(m.size.width);
      expect(s.y).toBeGreaterThan(0);
      expect(s.y).toBeLessThan(m.size.height);
    }
    expect(frontierConsistency(m)).toEqual([]);
  });
  it('holds every place the rules name, with their aliases', () => {
    for (const n of [
      'Blair Atholl',
      'Aberdeen',
      'Perth',
      'Inverlochy',
      'Inverlochry',
      'Inverlochburgh',
      'Inveraray',
      'Iveraray',
      'Newcastle',
      'Inverness',
      'Stirling',
      'Linlithgow',
      'Edinburgh',
      'Glasgow',
      'Forfar',
      'Brechin',
      'Burgh of Montrose',
    ])
      expect(() => findSpace(m, n)).not.toThrow();
    expect(findSpace(m, 'Inverlochry').id).toBe('inverlochy');
    expect(findSpace(m, 'Perth').kind).toBe('burgh');
    expect(findSpace(m, 'Blair Atholl').kind).toBe('open');
    expect(findSpace(m, 'Newcastle').region).toBe('england');
  });
  it('has the route facts the examples imply', () => {
    expect(routeBetween(m, 'highland-nw-stirling', 'perth')).toBe('land');
    expect(routeBetween(m, 'highland-nw-stirling', 'stirling')).toBe('land');
    expect(routeBetween(m, 'linlithgow', 'edinburgh')).toBe('land');
    expect(routeBetween(m, 'stirling', 'linlithgow')).toBe('land');
    const nw = findSpace(m, 'highland-nw-stirling');
    const st = findSpace(m, 'Stirling');
    expect(nw.x).toBeLessThan(st.x);
    expect(nw.y).toBeGreaterThan(st.y);
  });
});

describe('placement and snapping', () => {
  const m = parseBoardMap(tiny());
  const placement = { map: '', originMm: { x: 100, y: 50 }, rotationDeg: 90, mmPerMapInch: 25.4 };
  it('table ↔ map round-trips through a rotated, shifted map', () => {
    const p = { x: 3.2, y: 1.7 };
    const t = mapToTable(placement, p);
    expect(t.x).toBeCloseTo(100 - 1.7 * 25.4, 9);
    expect(t.y).toBeCloseTo(50 + 3.2 * 25.4, 9);
    const back = tableToMap(placement, t);
    expect(back.x).toBeCloseTo(3.2, 9);
    expect(back.y).toBeCloseTo(1.7, 9);
  });
  it('inside a circle: placed; on the route between two spaces: unclear; in open country: unplaced', () => {
    const placed = snapToSpace(m, { x: 1.1, y: 1.05 });
    expect(placed.status === 'placed' && placed.space.id).toBe('a');
    const between = snapToSpace(m, { x: 3, y: 1.1 });
    expect(between.status).toBe('unclear');
    expect(between.status === 'unclear' && between.candidates.map((s) => s.id)).toEqual(['a', 'b']);
    expect(snapToSpace(m, { x: 3, y: 4 }).status).toBe('unplaced');
  });
  it('reaching two circles at once is unclear', () => {
    const close = parseBoardMap({
      ...tiny(),
      spaces: [
        { ...tiny().spaces[0]!, x: 1, y: 1 },
        { ...tiny().spaces[1]!, x: 1.6, y: 1 },
      ],
    });
    expect(snapToSpace(close, { x: 1.3, y: 1 }).status).toBe('unclear');
  });
});
