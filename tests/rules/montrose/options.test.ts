import { describe, expect, it } from 'vitest';
import { moveVerdict, resolvePath } from '../../../src/rules/montrose/movement.ts';
import { spaceDistanceVerdict } from '../../../src/rules/montrose/campaign.ts';
import { findSpace } from '../../../src/board/board-map.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import { boardOf, c, counter, map } from './fixtures.ts';

/** Montrose options read both ways (spec §4.6), on the sample map. */
type Opts = Record<string, OptionValue>;
const path = (o: Opts, units: Parameters<typeof boardOf>[0], id: string, ...spaces: string[]) => {
  const b = boardOf(units, o);
  return moveVerdict(b, c(b, id), resolvePath(b, c(b, id), spaces));
};

describe('route costs (A-MON-1)', () => {
  // MON-E1's march: two mountain routes and one land route to Stirling, by a Highlander with 4 MP.
  const units = [counter('H1', 'covenanter', 'inveraray', { troop: 'highland' })];
  const route = ['highland-west', 'lennox', 'stirling'];
  it('2 + 2 + 1 = 5 by default; mountainCost 1 → 3 (legal); landCost 2 → 6', () => {
    expect(path({}, units, 'H1', ...route).value).toBe(5);
    const cheap = path({ mountainCost: 1 }, units, 'H1', ...route);
    expect(cheap.value).toBe(3);
    expect(cheap.answer).toBe('yes');
    expect(path({ landCost: 2 }, units, 'H1', ...route).value).toBe(6);
  });
});

describe('leaderMovement (A-MON-10)', () => {
  it('a leader with no allowance on his counter moves 6 MP by default; 4 under leaderMovement=4', () => {
    const units = [counter('Argyll', 'covenanter', 'inveraray', { troop: 'leader' })];
    const route = ['highland-west', 'lennox', 'stirling'];
    const v = path({}, units, 'Argyll', ...route);
    expect(v.limit).toBe(6);
    expect(v.answer).toBe('yes');
    const slow = path({ leaderMovement: 4 }, units, 'Argyll', ...route);
    expect(slow.limit).toBe(4);
    expect(slow.answer).toBe('no');
  });
});

describe('routeBandIn (A-MON-4)', () => {
  // A point 0.25 in beside the middle of a route, clear of every circle and every other route by
  // more than 0.5 in (found on the map).
  const spot = (() => {
    for (const r of map.routes) {
      const a = findSpace(map, r.from);
      const b = findSpace(map, r.to);
      const len = Math.hypot(b.x - a.x, b.y - a.y);
      const n = { x: -(b.y - a.y) / len, y: (b.x - a.x) / len };
      const p = { x: (a.x + b.x) / 2 + 0.25 * n.x, y: (a.y + b.y) / 2 + 0.25 * n.y };
      const clearOfCircles = map.spaces.every((s) => Math.hypot(s.x - p.x, s.y - p.y) > s.radius + 0.5);
      const clearOfRoutes = map.routes.every((o) => {
        if (o === r) return true;
        const s = findSpace(map, o.from);
        const e = findSpace(map, o.to);
        const dx = e.x - s.x;
        const dy = e.y - s.y;
        const t = Math.max(0, Math.min(1, ((p.x - s.x) * dx + (p.y - s.y) * dy) / (dx * dx + dy * dy)));
        return Math.hypot(s.x + t * dx - p.x, s.y + t * dy - p.y) > 0.5;
      });
      if (clearOfCircles && clearOfRoutes) return { p, r };
    }
    throw new Error('no clear route on the sample map');
  })();
  const units = [counter('X', 'royalist', spot.p, { troop: 'lowland' })];
  it('0.25 in off the route line: between two spaces (unclear) at 0.3; unplaced at 0.2', () => {
    const s = c(boardOf(units), 'X').snap;
    expect(s.status).toBe('unclear');
    expect(s.status === 'unclear' && s.candidates.map((x) => x.id).sort()).toEqual(
      [spot.r.from, spot.r.to].sort(),
    );
    expect(c(boardOf(units, { routeBandIn: 0.2 }), 'X').snap.status).toBe('unplaced');
  });
});

describe('distanceFrom (A-MON-11)', () => {
  it('Inverness to Newcastle (12 map inches): 145 miles ≈ 233.4 km by miles; 230 km by km', () => {
    const b = boardOf([]);
    const d = (o: Opts) =>
      spaceDistanceVerdict(boardOf([], o), findSpace(b.map, 'Inverness'), findSpace(b.map, 'Newcastle'))
        .facts;
    expect(d({}).miles).toBeCloseTo(145, 2);
    expect(d({}).km).toBeCloseTo(145 * 1.609344, 1);
    expect(d({ distanceFrom: 'km' }).km).toBeCloseTo(230, 2);
  });
});
