import { describe, expect, it } from 'vitest';
import { findSpace, groundDistance } from '../../../src/board/board-map.ts';
import {
  englandWinVerdict,
  forceMarchDisband,
  winterEndVerdict,
} from '../../../src/rules/montrose/campaign.ts';
import { moveVerdict, resolvePath } from '../../../src/rules/montrose/movement.ts';
import { retreatTargets, retreatVerdict } from '../../../src/rules/montrose/retreat.ts';
import { boardOf, c, counter, map } from './fixtures.ts';

const path = (b: ReturnType<typeof boardOf>, id: string, ...spaces: string[]) =>
  moveVerdict(b, c(b, id), resolvePath(b, c(b, id), spaces));

describe("MON-E1: Argyll's Highlanders march on Stirling (2 mountain + 1 land)", () => {
  // Example of play 2: MacColla and the Irish hold the Highland space north-west of Stirling, so the march avoids it.
  const units = [
    counter('Argyll', 'covenanter', 'inveraray', { troop: 'leader' }),
    counter('H1', 'covenanter', 'inveraray', { troop: 'highland' }),
    counter('MacColla', 'royalist', 'highland-nw-stirling', { troop: 'leader' }),
    counter('Irish1', 'royalist', 'highland-nw-stirling', { troop: 'irish' }),
  ];
  const route = ['highland-west', 'lennox', 'stirling'];
  it('costs 2 + 2 + 1 = 5 MP > 4: illegal without Force March', () => {
    const v = path(boardOf(units), 'H1', ...route);
    expect(v.value).toBe(5);
    expect(v.limit).toBe(4);
    expect(v.answer).toBe('no');
  });
  it('legal with Force March, each Highlander then rolls to disband at −2: 1, 2, 6 → −1, 0, 4 → one disbands', () => {
    const v = path(boardOf(units, { forceMarch: true }), 'H1', ...route);
    expect(v.answer).toBe('yes');
    expect(v.facts.forceMarchDisband).toBe(true);
    expect(forceMarchDisband([1, 2, 6])).toEqual({ modified: [-1, 0, 4], disbanded: 1 });
  });
  it('the path through the occupied Highland space would have stopped there', () => {
    const v = path(
      boardOf(units, { forceMarch: true }),
      'H1',
      'highland-west',
      'highland-nw-stirling',
      'stirling',
    );
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/ends the move there/);
  });
});

describe("MON-E2: Urry's cavalry Edinburgh → Linlithgow → Stirling", () => {
  it('2 MP ≤ 6: legal, no Force March needed', () => {
    const b = boardOf([counter('Cav', 'covenanter', 'edinburgh', { troop: 'cavalry' })], {
      forceMarch: true,
    });
    const v = path(b, 'Cav', 'linlithgow', 'stirling');
    expect(v).toMatchObject({ answer: 'yes', value: 2, limit: 6 });
    expect(v.facts.forceMarchDisband).toBe(false);
  });
});

describe('MON-E3 / MON-E4: from the Highland space north-west of Stirling', () => {
  const b = boardOf(
    [
      counter('Irish1', 'royalist', 'highland-nw-stirling', { troop: 'irish' }),
      counter('RH', 'royalist', 'highland-nw-stirling', { troop: 'highland' }),
    ],
    { defeatedBurghs: 'Inveraray, Inverlochy' },
  );
  it('MON-E3: Irish to Perth, 1 MP: legal', () => {
    expect(path(b, 'Irish1', 'perth')).toMatchObject({ answer: 'yes', value: 1 });
  });
  it('MON-E4: a Royalist Highlander through Perth and Forfar to Brechin: 4 land routes = 4 MP', () => {
    const v = path(b, 'RH', 'perth', 'tay-crossing', 'forfar', 'brechin');
    expect(v).toMatchObject({ answer: 'yes', value: 4, limit: 4 });
  });
});

describe('MON-E5: Burleigh and two Lowlanders, Aberdeen → Burgh of Montrose', () => {
  it('2 land routes south: 2 MP ≤ 4', () => {
    const b = boardOf([counter('L1', 'covenanter', 'aberdeen', { troop: 'lowland' })]);
    const v = path(b, 'L1', 'stonehaven', 'Burgh of Montrose');
    expect(v).toMatchObject({ answer: 'yes', value: 2 });
    expect(map.byId.get('montrose')!.y).toBeLessThan(map.byId.get('aberdeen')!.y);
  });
});

describe('MON-E6: the Royalist Limit', () => {
  const units = [counter('Irish1', 'royalist', 'stirling', { troop: 'irish' })];
  it('Irish into Linlithgow with only Inveraray defeated: illegal; with Inverlochy too: legal', () => {
    const one = path(boardOf(units, { defeatedBurghs: 'Inveraray' }), 'Irish1', 'linlithgow');
    expect(one.answer).toBe('no');
    expect(one.reasons.join(' ')).toMatch(/Royalist Limit/);
    expect(
      path(boardOf(units, { defeatedBurghs: 'Inveraray,Inverlochry' }), 'Irish1', 'linlithgow').answer,
    ).toBe('yes');
  });
});

describe('MON-E7: England', () => {
  it('a Covenanter Highlander may not enter Newcastle, unless optional 18.2', () => {
    const units = [counter('CH', 'covenanter', 'edinburgh', { troop: 'highland' })];
    expect(path(boardOf(units), 'CH', 'kelso', 'newcastle').answer).toBe('no');
    expect(path(boardOf(units, { highlandersIntoEngland182: true }), 'CH', 'kelso', 'newcastle').answer).toBe(
      'yes',
    );
  });
});

describe('MON-E8: winter', () => {
  const units = [
    counter('RL', 'royalist', 'tay-crossing', { troop: 'lowland' }),
    counter('Montrose', 'royalist', 'tay-crossing', { troop: 'leader' }),
    counter('R2', 'royalist', 'perth', { troop: 'lowland' }),
  ];
  it('Dec/Jan: a combat unit in an unnamed space goes to the pool; a leader there is eliminated', () => {
    const v = winterEndVerdict(boardOf(units, { turn: 3 }), 'royalist');
    expect(v.answer).toBe('no');
    expect(v.facts).toMatchObject({ removedToPool: 'RL', eliminated: 'Montrose' });
  });
  it('optional 18.8 spares the leader; not a winter turn, nothing happens', () => {
    expect(
      winterEndVerdict(boardOf(units, { turn: 9, leadersExemptInWinter188: true }), 'royalist').facts,
    ).toMatchObject({ removedToPool: 'RL', eliminated: '' });
    expect(winterEndVerdict(boardOf(units, { turn: 4 }), 'royalist').answer).toBe('yes');
  });
  it('a move ending in an unnamed space in winter is flagged', () => {
    const b = boardOf([counter('R2', 'royalist', 'perth', { troop: 'lowland' })], { turn: 3 });
    expect(path(b, 'R2', 'tay-crossing').answer).toBe('no');
    expect(path(b, 'R2', 'tay-crossing', 'forfar').answer).toBe('yes');
  });
});

describe('MON-E9: scale', () => {
  it('3.0 map inches ≈ 36.25 miles ≈ 58.3 km; the 230 km reading gives 57.5 km', () => {
    const g = groundDistance(map, 3.0);
    expect(g.miles).toBeCloseTo(36.25, 9);
    expect(g.km).toBeCloseTo(58.34, 2);
    expect(groundDistance(map, 3.0, 'km').km).toBeCloseTo(57.5, 9);
  });
  it('the sample is laid out at the stated scale: Inverness to Newcastle is 12 in', () => {
    const a = findSpace(map, 'Inverness');
    const b = findSpace(map, 'Newcastle');
    expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeCloseTo(12, 3);
  });
});

describe('MON-E10: the Royalist win in England', () => {
  it('Montrose + 2 Lowland + 2 cavalry in Newcastle: win; Montrose + 3 Lowland: no', () => {
    const win = boardOf([
      counter('Montrose', 'royalist', 'newcastle', { troop: 'leader' }),
      counter('L1', 'royalist', 'newcastle', { troop: 'lowland' }),
      counter('L2', 'royalist', 'newcastle', { troop: 'lowland' }),
      counter('C1', 'royalist', 'newcastle', { troop: 'cavalry' }),
      counter('C2', 'royalist', 'newcastle', { troop: 'cavalry' }),
    ]);
    expect(englandWinVerdict(win).answer).toBe('yes');
    const short = boardOf([
      counter('Montrose', 'royalist', 'newcastle', { troop: 'leader' }),
      counter('L1', 'royalist', 'newcastle', { troop: 'lowland' }),
      counter('L2', 'royalist', 'newcastle', { troop: 'lowland' }),
      counter('L3', 'royalist', 'newcastle', { troop: 'lowland' }),
    ]);
    expect(englandWinVerdict(short).answer).toBe('no');
  });
});

describe('MON-E11: retreat from Stirling', () => {
  const units = (defeated: string) =>
    boardOf(
      [
        counter('Montrose', 'royalist', 'stirling', { troop: 'leader' }),
        counter('RL', 'royalist', 'stirling', { troop: 'lowland' }),
        counter('Irish1', 'royalist', 'stirling', { troop: 'irish' }),
        counter('Urry', 'covenanter', 'stirling', { troop: 'leader' }),
        counter('CovCav', 'covenanter', 'stirling', { troop: 'cavalry' }),
        counter('CovH', 'covenanter', 'highland-nw-stirling', { troop: 'highland' }),
      ],
      { defeatedBurghs: defeated },
    );
  it('Linlithgow (empty) is open to Lowlanders and leaders; the occupied Highland space is not', () => {
    const b = units('');
    expect(retreatVerdict(b, c(b, 'RL'), 'linlithgow').answer).toBe('yes');
    expect(retreatVerdict(b, c(b, 'Montrose'), 'linlithgow').answer).toBe('yes');
    expect(retreatVerdict(b, c(b, 'RL'), 'highland-nw-stirling').answer).toBe('no');
  });
  it('the Irish may use Linlithgow only after both Burghs fall', () => {
    const before = units('Inveraray');
    expect(retreatVerdict(before, c(before, 'Irish1'), 'linlithgow').answer).toBe('no');
    const after = units('Inveraray, Inverlochy');
    expect(retreatVerdict(after, c(after, 'Irish1'), 'linlithgow').answer).toBe('yes');
  });
  it('with no legal space the unit is eliminated', () => {
    // Irish at Stirling, Burghs standing: Linlithgow and Glasgow are south of the Limit, the others hold Covenanters.
    const b = boardOf([
      counter('Irish1', 'royalist', 'stirling', { troop: 'irish' }),
      counter('A', 'covenanter', 'highland-nw-stirling', { troop: 'lowland' }),
      counter('B', 'covenanter', 'perth', { troop: 'lowland' }),
      counter('D', 'covenanter', 'lennox', { troop: 'lowland' }),
    ]);
    expect(retreatTargets(b, c(b, 'Irish1'))).toEqual([]);
    expect(retreatVerdict(b, c(b, 'Irish1'), 'perth').facts.eliminatedIfNone).toBe(true);
  });
});

describe('MON-E12: snapping a counter to a space', () => {
  // Newcastle's only route leaves to the north-west; a counter 0.05 in outside its circle to the south-east is far from anything else.
  const nc = map.byId.get('newcastle')!;
  const off = (nc.radius + 0.05) / Math.SQRT2;
  const units = [counter('X', 'royalist', { x: nc.x + off, y: nc.y - off }, { troop: 'lowland' })];
  it('snaps when the tolerance is at least 0.05 in, otherwise not placed', () => {
    const yes = c(boardOf(units, { snapToleranceIn: 0.05 }), 'X').snap;
    expect(yes.status).toBe('placed');
    expect(yes.status === 'placed' && yes.space.id).toBe('newcastle');
    expect(c(boardOf(units, { snapToleranceIn: 0.04 }), 'X').snap.status).toBe('unplaced');
  });
});
