import { describe, expect, it } from 'vitest';
import { getRuleset, parseQuestion } from '../../../src/rules/index.ts';
import type { Space } from '../../../src/board/board-map.ts';
import { IDENTITY_PLACEMENT } from '../../../src/board/placement.ts';
import { moveToVerdict, moveVerdict, resolvePath } from '../../../src/rules/montrose/movement.ts';
import { displaceVerdict } from '../../../src/rules/montrose/retreat.ts';
import { boardState, type BoardState } from '../../../src/rules/montrose/state.ts';
import type { UnitSpec } from '../../../src/table/scenario.ts';
import { buildTableState, type BasePose } from '../../../src/table/table-state.ts';
import { boardOf, c, counter, map, scenarioOf, tableOf } from './fixtures.ts';

const path = (b: ReturnType<typeof boardOf>, id: string, ...spaces: string[]) =>
  moveVerdict(b, c(b, id), resolvePath(b, c(b, id), spaces));

/** A board whose counters are reported with a 1 mm sigma (a band of 2 mm, 0.079 in). */
function sigmaBoard(specs: readonly UnitSpec[]): BoardState {
  const poses = new Map<number, BasePose>();
  for (const u of specs)
    for (const b of u.bases)
      poses.set(b.marker.id, { ...(b.pose as BasePose), sigmaMm: 1, sigmaHeadingDeg: 0.5 });
  return boardState(buildTableState(scenarioOf(specs), poses), map, IDENTITY_PLACEMENT, {});
}

describe('leaders', () => {
  const units = [
    counter('Montrose', 'royalist', 'stirling', { troop: 'leader' }),
    counter('RL', 'royalist', 'stirling', { troop: 'lowland' }),
    counter('CovL', 'covenanter', 'linlithgow', { troop: 'lowland' }),
    counter('Baillie', 'covenanter', 'newcastle', { troop: 'leader', inactive: true }),
  ];
  it('a lone leader may not enter enemy combat units; with his stack he may', () => {
    const b = boardOf(units);
    expect(path(b, 'Montrose', 'linlithgow').answer).toBe('no');
    expect(
      moveVerdict(b, c(b, 'Montrose'), resolvePath(b, c(b, 'Montrose'), ['linlithgow']), {
        companions: ['RL'],
      }).answer,
    ).toBe('yes');
  });
  it('a lone leader entering a space whose enemy stands within its band of the edge: too close to call', () => {
    const linlithgow = map.byId.get('linlithgow') as Space;
    const leaderInto = (inside: number) => {
      const b = sigmaBoard([
        counter('Montrose', 'royalist', 'stirling', { troop: 'leader' }),
        counter('CovL', 'covenanter', 'linlithgow', {
          troop: 'lowland',
          dy: linlithgow.radius + boardOf([]).snapOptions.toleranceIn - inside,
        }),
      ]);
      expect(c(b, 'CovL').snap.status).toBe('placed');
      return path(b, 'Montrose', 'linlithgow').checks.find((x) => x.question === 'leaderIntoEnemy');
    };
    // 0.01 in inside the snap edge: the enemy may as well stand off the space.
    expect(leaderInto(0.01)).toMatchObject({ answer: 'borderline', lean: 'no' });
    expect(leaderInto(0.3)?.answer).toBe('no');
  });
  it('inactive Covenanter leaders do not move', () => {
    const b = boardOf(units);
    const v = path(b, 'Baillie', 'kelso');
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/inactive/);
  });
  it("displacement: to an adjoining space free of the displacing side's combat units", () => {
    const b = boardOf([
      counter('Urry', 'covenanter', 'glasgow', { troop: 'leader' }),
      counter('RL', 'royalist', 'stirling', { troop: 'lowland' }),
    ]);
    expect(displaceVerdict(b, c(b, 'Urry'), 'clydesdale').answer).toBe('yes');
    expect(displaceVerdict(b, c(b, 'Urry'), 'stirling').answer).toBe('no');
    expect(displaceVerdict(b, c(b, 'Urry'), 'edinburgh').answer).toBe('no'); // does not adjoin
  });
});

describe('allowances', () => {
  it('no route, no move; optional 18.9a adds 1 for a unit stacked with a leader', () => {
    const units = [
      counter('Montrose', 'royalist', 'perth', { troop: 'leader' }),
      counter('RL', 'royalist', 'perth', { troop: 'lowland' }),
    ];
    expect(path(boardOf(units), 'RL', 'edinburgh').answer).toBe('no');
    const five = ['tay-crossing', 'forfar', 'brechin', 'montrose', 'stonehaven'];
    expect(path(boardOf(units), 'RL', ...five)).toMatchObject({ answer: 'no', value: 5, limit: 4 });
    expect(path(boardOf(units, { leaderBonus189a: true }), 'RL', ...five)).toMatchObject({
      answer: 'yes',
      limit: 5,
    });
  });
  it('a counter just off a space, within its pose band, may be on it: a move from it is too close to call', () => {
    const linlithgow = map.byId.get('linlithgow') as Space;
    // Reported with a 1 mm sigma (band 2 mm = 0.079 in): 0.01 in beyond the snap edge (straight
    // up the map, clear of every route) is within it; 0.2 in beyond (0.18 in from any edge) is not.
    const moveFrom = (beyond: number) => {
      const spec = counter('X', 'royalist', 'linlithgow', {
        troop: 'lowland',
        dy: linlithgow.radius + boardOf([]).snapOptions.toleranceIn + beyond,
      });
      const b = sigmaBoard([spec]);
      expect(c(b, 'X').snap.status).toBe('unplaced');
      return moveToVerdict(b, c(b, 'X'), map.byId.get('edinburgh') as Space);
    };
    const near = moveFrom(0.01);
    expect(near.answer).toBe('borderline');
    expect(near.reasons[0]).toMatch(/set it squarely on one/);
    expect(moveFrom(0.2).answer).toBe('no');
  });
  it('a counter whose position is unclear cannot be moved until set on a space', () => {
    const b = boardOf([counter('X', 'royalist', 'stirling', { troop: 'lowland', dx: 0.45, dy: -0.3 })]);
    const snap = c(b, 'X').snap;
    expect(snap.status).toBe('unclear');
    expect(path(b, 'X', 'stirling', 'linlithgow').answer).not.toBe('yes');
  });
});

describe('the registered ruleset', () => {
  const state = tableOf([
    counter('Argyll', 'covenanter', 'inveraray', { troop: 'leader' }),
    counter('H1', 'covenanter', 'inveraray', { troop: 'highland' }),
    counter('Irish1', 'royalist', 'highland-nw-stirling', { troop: 'irish' }),
  ]);
  const mon = getRuleset('montrose');
  it('answers its own phrasing', () => {
    expect(mon.askText?.(state, "where is 'H1'?")?.facts.space).toBe('inveraray');
    const move = mon.askText?.(state, "can 'H1' move to 'Stirling'?", { forceMarch: true });
    expect(move?.answer).toBe('yes');
    expect(move?.facts.path).toBe('inveraray > highland-west > lennox > stirling');
    expect(mon.askText?.(state, "can 'H1' move to 'Stirling'?")?.answer).toBe('no');
    expect(
      mon.askText?.(state, "can 'H1' move to 'Stirling' via 'highland-west', 'highland-nw-stirling'?", {
        forceMarch: true,
      })?.answer,
    ).toBe('no');
    expect(mon.askText?.(state, "what is in 'Inveraray'?")?.facts.counters).toBe('Argyll, H1');
    expect(mon.askText?.(state, 'who wins?')).toBeUndefined();
  });
  it('measures distances in map inches and miles', () => {
    const v = mon.ask(state, parseQuestion("distance 'Inverness' 'Newcastle'"));
    expect(v.value).toBeCloseTo(12, 3);
    expect(v.facts.miles as number).toBeCloseTo(145, 1);
  });
});
