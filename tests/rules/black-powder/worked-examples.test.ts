import { describe, expect, it } from 'vitest';
import { quarterOfLocalPoint } from '../../../src/geometry/quarters.ts';
import { arcShare, offAxisDeg } from '../../../src/rules/black-powder/artillery.ts';
import {
  chargeFaceVerdict,
  chargeVerdict,
  counterchargeMeetingPoint,
} from '../../../src/rules/black-powder/charge.ts';
import {
  brigadeCohesionVerdict,
  commandPenalty,
  effectiveStaff,
  orderVerdict,
} from '../../../src/rules/black-powder/command.ts';
import { enfiladeVerdict } from '../../../src/rules/black-powder/enfilade.ts';
import { pathCost, reachAlongPath } from '../../../src/rules/black-powder/movement.ts';
import { proximityMoveVerdict, squareMayMoveVerdict } from '../../../src/rules/black-powder/proximity.ts';
import { brigadeBroken, brokenMustRetireVerdict, evadeMove } from '../../../src/rules/black-powder/retire.ts';
import { assessShot, shootVerdict } from '../../../src/rules/black-powder/shooting.ts';
import {
  commanderSafeVerdict,
  coverSaveBonus,
  mixedOrderVerdict,
  rocketStray,
  skirmisherShots,
} from '../../../src/rules/black-powder/specials.ts';
import { supportTotal } from '../../../src/rules/black-powder/support-allocation.ts';
import { supportVerdict } from '../../../src/rules/black-powder/support.ts';
import { cannonBand, cannonBands, findWeapon } from '../../../src/rules/black-powder/tables.ts';
import { traverseVerdict } from '../../../src/rules/black-powder/traverse.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { box, ctxOf, IN, piece, poly, rectPoly, shooterS, table } from './fixtures.ts';

const blue = { side: 'blue' };
const P = (x: number, y: number) => ({ x: x * IN, y: y * IN });

describe('BP-E5 point quarters vs S (footprint [−5,5]×[−1.5,0])', () => {
  const S = { width: 10, depth: 1.5 };
  it.each([
    [8, 6, 'front', 'front'],
    [12, 3, 'right', 'front'],
    [0, -5, 'rear', 'rear'],
    [7, -4, 'rear', 'rear'],
  ])('(%d,%d) is %s by the bisector, %s by the diagonal reading', (x, y, bis, diag) => {
    expect(quarterOfLocalPoint(S, { x, y }, 'bisector').quarter).toBe(bis);
    expect(quarterOfLocalPoint(S, { x, y }, 'diagonal').quarter).toBe(diag);
  });
  it('(−8,3) lies on the bisector ray: boundary', () => {
    const q = quarterOfLocalPoint(S, { x: -8, y: 3 }, 'bisector', 1e-9);
    expect(q.onBoundary).toBe(true);
    expect([q.quarter, q.across].sort()).toEqual(['front', 'left']);
  });
});

describe('BP-E6 charge face from the leader at the start of the turn', () => {
  it.each([
    [-12, -0.5, 'left'],
    [-8, 6, 'front'],
    [0, -5, 'rear'],
  ])('leader at (%d,%d) → %s', (x, y, face) => {
    const st = table([
      box('T', -5, 5, -1.5, 0, blue),
      box('C', x - 1, x + 1, y - 8, y - 6, { leaderAtTurnStart: P(x, y) }),
    ]);
    const v = chargeFaceVerdict(ctxOf(st), findUnit(st, 'C'), findUnit(st, 'T'));
    expect(v.facts.face).toBe(face);
  });
});

describe('BP-E7 charge reach', () => {
  const target = box('E', -5, 5, 11, 12.5, { side: 'blue', headingDeg: 180 });
  it('11" → may charge; 12.5" → not with this move', () => {
    const st = table([shooterS(), target]);
    expect(chargeVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'E')).answer).toBe('yes');
    const st2 = table([shooterS(), box('E', -5, 5, 12.5, 14, { side: 'blue', headingDeg: 180 })]);
    const v = chargeVerdict(ctxOf(st2), findUnit(st2, 'S'), findUnit(st2, 'E'));
    expect(v.answer).toBe('no');
    expect(v.value).toBeCloseTo(12.5, 6);
  });
  it('behind a hedge at 6.5" → cannot (needs ≤ 6"); cavalry behind an obstacle needs ≤ 12"', () => {
    const hedge = {
      id: 'h',
      name: 'the hedge',
      kind: 'obstacle' as const,
      line: poly([-10, 6.3], [10, 6.3]),
      widthMm: 0.2 * IN,
    };
    const st = table([shooterS(), box('E', -5, 5, 6.5, 8, { side: 'blue', headingDeg: 180 })], [hedge]);
    const v = chargeVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'E'));
    expect(v.answer).toBe('no');
    expect(v.limit).toBe(6);
    const st2 = table(
      [shooterS({ type: 'cavalry' }), box('E', -5, 5, 11.5, 13, { side: 'blue', headingDeg: 180 })],
      [hedge],
    );
    const c = chargeVerdict(ctxOf(st2), findUnit(st2, 'S'), findUnit(st2, 'E'));
    expect(c.limit).toBe(12);
    expect(c.answer).toBe('yes');
  });
});

describe('BP-E8 command distance', () => {
  it('26" → −2, 38" → −3, 12.0" → 0 (or −1 under "each full 12"), 24" → −2 under both', () => {
    expect(commandPenalty(26, 'moreThan12')).toBe(2);
    expect(commandPenalty(38, 'moreThan12')).toBe(3);
    expect(commandPenalty(12, 'moreThan12')).toBe(0);
    expect(commandPenalty(12, 'eachFull12')).toBe(1);
    expect(commandPenalty(24, 'moreThan12')).toBe(2);
    expect(commandPenalty(24, 'eachFull12')).toBe(2);
    expect(commandPenalty(19, 'moreThan12')).toBe(1);
    expect(commandPenalty(48, 'moreThan12')).toBe(4);
  });
  it('staff 8 with −2 distance and −1 enemy close → 5, the floor', () => {
    const st = table([
      box('U', -5, 5, -1.5, 0),
      box('Foe', -5, 5, 10, 11.5, { side: 'blue', headingDeg: 180 }),
      piece('K', 0, -27.5, 1, 1, { type: 'commander', staffRating: 8 }),
    ]);
    const k = st.commanders[0]!;
    const v = orderVerdict(ctxOf(st), k, [findUnit(st, 'U')]);
    expect(v.value).toBeCloseTo(26.0, 6);
    expect(v.facts.distancePenalty).toBe(-2);
    expect(v.facts.enemyClose).toBe(-1);
    expect(v.facts.effectiveStaff).toBe(5);
    expect(effectiveStaff(8, -5)).toBe(5);
  });
});

describe('BP-E9 brigade 6" cohesion', () => {
  const units = [box('A', 0, 4, 0, 1.5), box('B', 9.5, 13.5, 0, 1.5), box('C', 19.5, 23.5, 0, 1.5)];
  it('gaps A–B 5.5, B–C 6.0, A–C 15.5: valid as a chain, invalid pairwise', () => {
    const st = table(units);
    const us = ['A', 'B', 'C'].map((n) => findUnit(st, n));
    const chain = brigadeCohesionVerdict(ctxOf(st), us);
    expect(chain.value).toBeCloseTo(6.0, 6);
    expect(chain.answer).toBe('yes');
    expect(brigadeCohesionVerdict(ctxOf(st, { brigadeCohesion: 'pairwise' }), us).answer).toBe('no');
  });
});

describe('BP-E10/E11/E26 artillery arcs and bands', () => {
  const gun = () =>
    piece('G', 0, -1, 1, 2, { type: 'artillery', weapon: 'smoothbore foot artillery', roles: ['gun'] });
  it.each([
    [20, 25, 32.02, 38.66, 'long', true],
    [30, 25, 39.05, 50.19, 'long', false],
    [10, 40, 41.23, 14.04, 'long', true],
    [3, 5, 5.83, 30.96, 'short', true],
  ])('nearest point (%d,%d): %f", %f°, %s, in arc %s', (x, y, d, bearing, band, inArc) => {
    const st = table([gun(), piece('T', x + 1, y + 0.5, 2, 1, { side: 'blue' })]);
    const g = findUnit(st, 'G');
    expect(Math.hypot(x, y)).toBeCloseTo(d, 2);
    expect(offAxisDeg(g, P(x, y))).toBeCloseTo(bearing, 1);
    expect(cannonBand(48, d)).toBe(band);
    expect(arcShare(g, findUnit(st, 'T')).any).toBe(inArc);
  });
  it('E26 band limits', () => {
    expect(cannonBands(findWeapon('light smoothbore artillery')!.max)).toEqual([6, 18, 36]);
    expect(cannonBands(findWeapon('smoothbore battalion gun')!.max)).toEqual([6, 12, 24]);
    expect(cannonBands(findWeapon('rifled foot artillery')!.max)).toEqual([6, 30, 60]);
    expect(cannonBands(findWeapon('rifled siege artillery')!.max)).toEqual([6, 36, 72]);
  });
  it('E11: an enemy within half range must be shot first; beyond half range, free choice', () => {
    const near = table([
      gun(),
      piece('Near', 0, 20.5, 2, 1, { side: 'blue' }),
      piece('Far', 14, 38, 2, 1, { side: 'blue' }),
    ]);
    expect(shootVerdict(ctxOf(near), findUnit(near, 'G'), findUnit(near, 'Far')).answer).toBe('no');
    const free = table([
      gun(),
      piece('Near', 0, 30.5, 2, 1, { side: 'blue' }),
      piece('Far', 14, 38, 2, 1, { side: 'blue' }),
    ]);
    expect(shootVerdict(ctxOf(free), findUnit(free, 'G'), findUnit(free, 'Far')).answer).toBe('yes');
  });
});

describe('BP-E12 overhead fire and 6" dead ground', () => {
  const hill = {
    id: 'hill',
    name: 'the knoll',
    kind: 'hill' as const,
    heightMm: 2 * IN,
    polygon: rectPoly(-4, 4, -4, 3),
  };
  const gun = piece('G', 0, -1, 1, 2, {
    type: 'artillery',
    weapon: 'smoothbore foot artillery',
    roles: ['gun'],
  });
  const target = box('T', -3, 3, 30, 31.5, { side: 'blue', headingDeg: 180 });
  it.each([
    [10, 12, 'yes'],
    [3, 5, 'no'],
    [25, 26, 'no'],
  ])('friend across y∈[%d,%d] → %s', (y0, y1, answer) => {
    const st = table([gun, target, box('F', -8, 8, y0, y1)], [hill]);
    const v = shootVerdict(ctxOf(st), findUnit(st, 'G'), findUnit(st, 'T'));
    expect(v.answer).toBe(answer);
    if (answer === 'yes') expect(String(v.facts.modifiers)).toMatch(/−1 firing overhead/);
  });
  it('without higher ground it may not fire over at all', () => {
    const st = table([gun, target, box('F', -8, 8, 10, 12)]);
    expect(shootVerdict(ctxOf(st), findUnit(st, 'G'), findUnit(st, 'T')).answer).toBe('no');
  });
});

describe('BP-E13 gaps', () => {
  const target = box('T', -5, 5, 14, 15.5, { side: 'blue', headingDeg: 180 });
  it('a 6" gap: S may fire through but the target is not clear (6 < frontage 10)', () => {
    const st = table([shooterS(), target, box('L', -10, -3, 6, 7.5), box('R', 3, 10, 6, 7.5)]);
    const v = shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T'));
    expect(v.answer).toBe('yes');
    expect(v.facts.gap).toBeCloseTo(6, 6);
    expect(v.facts.clear).toBe(false);
    expect(String(v.facts.notClear)).toMatch(/gap, narrower than S's 10\.0 in frontage/);
  });
  it('a 5" gap: S may not fire through; a cannon could (≥ 3")', () => {
    const st = table([shooterS(), target, box('L', -10, -2.5, 6, 7.5), box('R', 2.5, 10, 6, 7.5)]);
    expect(shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T')).answer).toBe('no');
    const st2 = table([
      piece('G', 0, -1, 1, 2, { type: 'artillery', weapon: 'smoothbore foot artillery', roles: ['gun'] }),
      target,
      box('L', -10, -2.5, 6, 7.5),
      box('R', 2.5, 10, 6, 7.5),
    ]);
    const g = shootVerdict(ctxOf(st2), findUnit(st2, 'G'), findUnit(st2, 'T'));
    // 5" is wider than both the cannon's 3" minimum and its own frontage: no gap restriction at all.
    expect(g.answer).toBe('yes');
    expect(g.checks.filter((c) => c.question === 'gap' && c.answer !== 'yes')).toEqual([]);
  });
});

describe('BP-E14 enfilade corridor', () => {
  const T = box('T', -5, 5, -1.5, 0, { side: 'blue', formation: 'line' });
  it('leader at (−15,−0.75) is inside the left corridor: enfiladed; at (−15,1.0) outside', () => {
    const inside = table([T, piece('S1', -15.5, -0.75, 1.5, 1, { headingDeg: 270 })]);
    const u = findUnit(inside, 'S1');
    expect(u.leader.x / IN).toBeCloseTo(-15, 6);
    expect(
      enfiladeVerdict(ctxOf(inside), u, findUnit(inside, 'T'), findWeapon('smoothbore musket')).answer,
    ).toBe('yes');
    const outside = table([T, piece('S2', -15.5, 1.0, 1.5, 1, { headingDeg: 270 })]);
    expect(
      enfiladeVerdict(
        ctxOf(outside),
        findUnit(outside, 'S2'),
        findUnit(outside, 'T'),
        findWeapon('smoothbore musket'),
      ).answer,
    ).toBe('no');
  });
});

describe('BP-E15 supports', () => {
  it('rear friend at 5.0" +1, rear friend at 6.5" no, left friend at 2.0" +1: total +2', () => {
    const st = table([
      box('E', -5, 5, -1.5, 0, { engaged: true }),
      box('R', -5, 5, -8, -6.5),
      box('R2', -5, 5, -9.5, -8),
      box('F', -12, -7, -1.5, 0),
    ]);
    const ctx = ctxOf(st);
    const E = findUnit(st, 'E');
    const r = supportVerdict(ctx, findUnit(st, 'R'), E);
    expect(r.answer).toBe('yes');
    expect(r.value).toBeCloseTo(5.0, 6);
    expect(r.facts.quarter).toBe('rear');
    expect(supportVerdict(ctx, findUnit(st, 'R2'), E).answer).toBe('no');
    const f = supportVerdict(ctx, findUnit(st, 'F'), E);
    expect(f.facts.quarter).toBe('left');
    expect(f.value).toBeCloseTo(2.0, 6);
    expect(supportTotal(ctx, E).total).toBe(2);
  });
});

describe('BP-E16 proximity rule', () => {
  const sidestep = (st: ReturnType<typeof table>) => {
    const u = findUnit(st, 'S');
    return u.bases.map((b) => ({
      ...b.footprint,
      center: { x: b.footprint.center.x + 4 * IN, y: b.footprint.center.y },
    }));
  };
  it('enemy 11.9" away: a 4" sidestep is illegal; at 12.5" it is legal', () => {
    const near = table([shooterS(), box('Foe', -5, 5, 11.9, 13.4, { side: 'blue', headingDeg: 180 })]);
    expect(proximityMoveVerdict(ctxOf(near), findUnit(near, 'S'), sidestep(near)).answer).toBe('no');
    const far = table([shooterS(), box('Foe', -5, 5, 12.5, 14, { side: 'blue', headingDeg: 180 })]);
    expect(proximityMoveVerdict(ctxOf(far), findUnit(far, 'S'), sidestep(far)).answer).toBe('yes');
  });
  it('a straight advance stays in the front quarter and is legal', () => {
    const near = table([shooterS(), box('Foe', -5, 5, 11.9, 13.4, { side: 'blue', headingDeg: 180 })]);
    const u = findUnit(near, 'S');
    const fwd = u.bases.map((b) => ({
      ...b.footprint,
      center: { x: b.footprint.center.x, y: b.footprint.center.y + 3 * IN },
    }));
    expect(proximityMoveVerdict(ctxOf(near), u, fwd).answer).toBe('yes');
  });
});

describe('BP-E17 traversing fire', () => {
  it('track (−8,9)→(3,9) covers 8" ≥ 5" at 9": may shoot; (2,9)→(10,9) covers 3": may not', () => {
    const st = table([shooterS()]);
    const S = findUnit(st, 'S');
    const yes = traverseVerdict(ctxOf(st), S, [P(-8, 9), P(3, 9)]);
    expect(yes.value).toBeCloseTo(8, 6);
    expect(yes.answer).toBe('yes');
    const no = traverseVerdict(ctxOf(st), S, [P(2, 9), P(10, 9)]);
    expect(no.value).toBeCloseTo(3, 6);
    expect(no.answer).toBe('no');
  });
});

describe('BP-E18 squares and cavalry', () => {
  it('cavalry halts 3" short of an ordered square; the square cannot move with cavalry within 12"', () => {
    const st = table([
      box('Sq', -2, 2, -2, 2, { side: 'blue', formation: 'square' }),
      box('Cav', -2, 2, 8, 10, { type: 'cavalry', headingDeg: 180 }),
    ]);
    const v = chargeVerdict(ctxOf(st), findUnit(st, 'Cav'), findUnit(st, 'Sq'));
    expect(v.answer).toBe('no');
    expect(v.facts.halted).toBe(true);
    expect(squareMayMoveVerdict(ctxOf(st), findUnit(st, 'Sq')).answer).toBe('no');
    const far = table([
      box('Sq', -2, 2, -2, 2, { side: 'blue', formation: 'square' }),
      box('Cav', -2, 2, 16, 18, { type: 'cavalry', headingDeg: 180 }),
    ]);
    expect(squareMayMoveVerdict(ctxOf(far), findUnit(far, 'Sq')).answer).toBe('yes');
  });
});

describe('BP-E19 mixed order', () => {
  const mixed = (ahead: number) =>
    box('M', -5, 5.5, -1.5, ahead + 1, {
      widths: [3, 3, 3],
      formation: 'mixed',
    });
  it('screen 5" ahead with skirmishers 1.5" apart → valid; 7" ahead → invalid', () => {
    const make = (ahead: number) => {
      const body = box('M', -5, 5, -1.5, 0, { formation: 'mixed' });
      const sk = [-3, -1.5 + 0.5, 1.5 + 0.5].map((x, i) => ({
        ...body.bases[0]!,
        widthMm: 0.5 * IN,
        depthMm: 0.5 * IN,
        marker: { ...body.bases[0]!.marker, id: 900 + i + ahead * 10 },
        pose: { x: (x - 0.25) * IN, y: (ahead - 0.25) * IN, headingDeg: 0 },
        role: 'skirmisher' as const,
      }));
      // skirmisher bases 0.5" wide at x = −3.25, −1.25, 1.75 → 1.5" apart edge to edge
      sk[0] = { ...sk[0]!, pose: { ...sk[0]!.pose!, x: -3.25 * IN } };
      sk[1] = { ...sk[1]!, pose: { ...sk[1]!.pose!, x: -1.25 * IN } };
      sk[2] = { ...sk[2]!, pose: { ...sk[2]!.pose!, x: 0.75 * IN } };
      return table([{ ...body, bases: [...body.bases, ...sk] }]);
    };
    void mixed;
    const ok = make(5);
    expect(mixedOrderVerdict(ctxOf(ok), findUnit(ok, 'M')).answer).toBe('yes');
    expect(mixedOrderVerdict(ctxOf(ok), findUnit(ok, 'M')).value).toBeCloseTo(5, 6);
    const bad = make(7);
    expect(mixedOrderVerdict(ctxOf(bad), findUnit(bad, 'M')).answer).toBe('no');
  });
});

describe('BP-E20 rocket stray', () => {
  it('lands 7" from the aim point; a unit there takes a hit; units within 3" test for disorder', () => {
    const st = table([box('Hit', -1, 1, 6, 8), box('Near', 3, 5, 6, 8), box('Far', 10, 12, 6, 8)]);
    const r = rocketStray(ctxOf(st), P(0, 0), 7, 0);
    expect(r.landing.y / IN).toBeCloseTo(7, 6);
    expect(r.hit).toBe('Hit');
    expect(r.disorderChecks.sort()).toEqual(['Hit', 'Near']);
  });
});

describe('BP-E21 howitzer minimum range', () => {
  const how = piece('H', 0, -1, 1, 2, {
    type: 'artillery',
    weapon: 'smoothbore field howitzer',
    roles: ['gun'],
  });
  it('5.5" illegal, 6.0" legal', () => {
    const a = table([how, box('T', -2, 2, 5.5, 7, { side: 'blue', headingDeg: 180 })]);
    expect(shootVerdict(ctxOf(a), findUnit(a, 'H'), findUnit(a, 'T')).answer).toBe('no');
    const b = table([how, box('T', -2, 2, 6, 7.5, { side: 'blue', headingDeg: 180 })]);
    expect(shootVerdict(ctxOf(b), findUnit(b, 'H'), findUnit(b, 'T')).answer).toBe('yes');
  });
});

describe('BP-E22 displaced mounted commander', () => {
  it('nearest friend 47" → joins; 49" → casualty', () => {
    const at = (d: number) =>
      table([box('U', -1, 1, d, d + 1.5), piece('K', 0, -0.5, 1, 1, { type: 'commander', mounted: true })]);
    expect(commanderSafeVerdict(ctxOf(at(47)), at(47).commanders[0]!).answer).toBe('yes');
    expect(commanderSafeVerdict(ctxOf(at(49)), at(49).commanders[0]!).answer).toBe('no');
  });
});

describe('BP-E23 countercharge', () => {
  it('leaders at (0,0) and (0,14) meet at (0,7)', () => {
    const st = table([
      box('A', -2, 2, -1.5, 0),
      box('B', -2, 2, 14, 15.5, { side: 'blue', headingDeg: 180 }),
    ]);
    const m = counterchargeMeetingPoint(findUnit(st, 'A'), findUnit(st, 'B'));
    expect(m.x / IN).toBeCloseTo(0, 6);
    expect(m.y / IN).toBeCloseTo(7, 6);
  });
});

describe('BP-E24 evade', () => {
  it('cavalry charged in the left flank evades 18" into its right quarter; in front, 18" to its rear', () => {
    const st = table([box('Cav', -2, 2, -2, 0, { type: 'cavalry' })]);
    const u = findUnit(st, 'Cav');
    const left = evadeMove(ctxOf(st), u, 'left')!;
    expect(left.quarter).toBe('right');
    expect(left.distanceIn).toBe(18);
    expect(left.vector.x / IN).toBeCloseTo(18, 6);
    const front = evadeMove(ctxOf(st), u, 'front')!;
    expect(front.vector.y / IN).toBeCloseTo(-18, 6);
    expect(evadeMove(ctxOf(st, { evadeFromRear: 'forbidden' }), u, 'rear')).toBeUndefined();
  });
});

describe('BP-E25 broken brigade', () => {
  it('11" from the enemy, unengaged, in the open: must retire; in a building or square: may hold', () => {
    const st = table([
      box('U', -5, 5, -1.5, 0),
      box('Foe', -5, 5, 11, 12.5, { side: 'blue', headingDeg: 180 }),
    ]);
    expect(brokenMustRetireVerdict(ctxOf(st), findUnit(st, 'U')).answer).toBe('yes');
    const house = { id: 'b', name: 'the farm', kind: 'building' as const, polygon: rectPoly(-6, 6, -3, 1) };
    const inHouse = table(
      [box('U', -5, 5, -1.5, 0), box('Foe', -5, 5, 11, 12.5, { side: 'blue', headingDeg: 180 })],
      [house],
    );
    expect(brokenMustRetireVerdict(ctxOf(inHouse), findUnit(inHouse, 'U')).answer).toBe('no');
    const sq = table([
      box('U', -2, 2, -2, 2, { formation: 'square' }),
      box('Foe', -5, 5, 11, 12.5, { side: 'blue', headingDeg: 180 }),
    ]);
    expect(brokenMustRetireVerdict(ctxOf(sq), findUnit(sq, 'U')).answer).toBe('no');
  });
});

describe('BP-E27 movement through terrain', () => {
  const rough = (kind: 'rough' | 'veryRough' | 'wood') => ({
    id: 'g',
    name: 'the ground',
    kind,
    polygon: rectPoly(-10, 10, 4, 40),
  });
  const path = [P(0, 0), P(0, 30)];
  it('infantry 4" from rough ground: 4" open + 4" inside = 12"', () => {
    const st = table([box('U', -1, 1, -1.5, 0)], [rough('rough')]);
    expect(reachAlongPath(ctxOf(st), path, findUnit(st, 'U'), 12).reachIn).toBeCloseTo(8, 6);
    expect(pathCost(ctxOf(st), [P(0, 0), P(0, 8)], findUnit(st, 'U')).costIn).toBeCloseTo(12, 6);
  });
  it('skirmishers in woods: identical; formed infantry may not enter', () => {
    const st = table(
      [box('Sk', -1, 1, -1.5, 0, { formation: 'skirmish' }), box('F', 20, 22, -1.5, 0)],
      [rough('wood')],
    );
    expect(reachAlongPath(ctxOf(st), path, findUnit(st, 'Sk'), 12).reachIn).toBeCloseTo(8, 6);
    expect(reachAlongPath(ctxOf(st), path, findUnit(st, 'F'), 12).reachIn).toBeCloseTo(4, 6);
  });
  it('very rough: 4" + 2.67" inside', () => {
    const st = table([box('U', -1, 1, -1.5, 0)], [rough('veryRough')]);
    expect(reachAlongPath(ctxOf(st), path, findUnit(st, 'U'), 12).reachIn).toBeCloseTo(4 + 8 / 3, 6);
  });
  it('a hedge 5" away: reach it (5), cross (6), 1" beyond', () => {
    const hedge = {
      id: 'h',
      name: 'the hedge',
      kind: 'obstacle' as const,
      line: poly([-10, 5], [10, 5]),
      widthMm: 0.001 * IN,
    };
    const st = table([box('U', -1, 1, -1.5, 0)], [hedge]);
    expect(reachAlongPath(ctxOf(st), path, findUnit(st, 'U'), 12).reachIn).toBeCloseTo(6, 2);
    expect(reachAlongPath(ctxOf(st), path, findUnit(st, 'U'), 10).reachIn).toBeCloseTo(5, 2); // < 6" left: halts in front
  });
});

describe('BP-E28 – E30 counts', () => {
  it('E28 skirmisher shots: 30% → 1, 60% → 2, 15% → 0', () => {
    expect(skirmisherShots(0.3)).toBe(1);
    expect(skirmisherShots(0.6)).toBe(2);
    expect(skirmisherShots(0.15)).toBe(0);
  });
  it('E29 cover: 50% behind a hedge → +1; 40% → nothing', () => {
    expect(coverSaveBonus(0.5, 'light')).toBe(1);
    expect(coverSaveBonus(0.4, 'light')).toBe(0);
  });
  it('E29 measured: a target half behind a hedge, seen from S, counts as in cover', () => {
    const hedge = {
      id: 'h',
      name: 'the hedge',
      kind: 'obstacle' as const,
      line: poly([0, 9], [10, 9]),
      widthMm: 0.1 * IN,
    };
    const st = table([shooterS(), box('T', -5, 5, 10, 11.5, { side: 'blue', headingDeg: 180 })], [hedge]);
    const a = assessShot(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T'));
    expect(a.facts.coverShare).toBeGreaterThanOrEqual(0.5);
    expect(a.facts.coverSave).toBe(1);
  });
  it('E30 brigade broken', () => {
    const inf = (lost: boolean) => ({ type: 'infantry' as const, lost });
    const cav = (lost: boolean) => ({ type: 'cavalry' as const, lost });
    const gun = (lost: boolean) => ({ type: 'artillery' as const, lost });
    expect(
      brigadeBroken([inf(true), inf(true), inf(false), cav(false), cav(false), gun(true), gun(true)]).broken,
    ).toBe(false);
    expect(
      brigadeBroken([inf(true), inf(true), inf(true), cav(false), cav(false), gun(false), gun(false)]).broken,
    ).toBe(true);
    expect(brigadeBroken([gun(true), gun(true), gun(false), gun(false), inf(true), inf(false)]).broken).toBe(
      true,
    );
    expect(brigadeBroken([gun(true), gun(true), gun(false), gun(false), inf(false), inf(false)]).needed).toBe(
      3,
    );
  });
});
