import { describe, expect, it } from 'vitest';
import { assessShot, shootVerdict } from '../../../src/rules/black-powder/shooting.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { box, ctxOf, IN, rectPoly, shooterS, table } from './fixtures.ts';

const enemy = { side: 'blue', headingDeg: 180 as const };

describe('Black Powder shooting, rules-spec §5.16 worked examples', () => {
  it('BP-E1: a target square ahead at 15" is in range, wholly in the front quarter and clear', () => {
    const st = table([shooterS(), box('T1', -5, 5, 15, 16.5, enemy)]);
    const ctx = ctxOf(st);
    const v = shootVerdict(ctx, findUnit(st, 'S'), findUnit(st, 'T1'));
    expect(v.answer).toBe('yes');
    expect(v.value).toBeCloseTo(15.0, 6);
    expect(v.limit).toBe(18);
    expect(v.facts.frontShare).toBeCloseTo(1, 6);
    expect(v.facts.band).toBe('normal'); // > 6": no close-range bonus
    expect(v.facts.clear).toBe(true);
    expect(v.between?.[1].y).toBeCloseTo(15 * IN, 6);
  });

  it('BP-E2: 67.5% in the front quarter; 12.93" from the leader base, 13.45" from L, 10.77" from the footprint', () => {
    const units = [shooterS({ weapon: 'smoothbore carbine' }), box('T2', 9, 19, 10, 11.5, enemy)];
    const st = table(units);
    const S = findUnit(st, 'S');
    const T = findUnit(st, 'T2');
    // Front fraction and clear target: judged when the target could be in range (an 18" musket).
    const musket = table([shooterS(), box('T2', 9, 19, 10, 11.5, enemy)]);
    const inReach = assessShot(ctxOf(musket), findUnit(musket, 'S'), findUnit(musket, 'T2'));
    expect(inReach.frontShare).toBeCloseTo(0.675, 6);
    expect(inReach.clear).toBe(true);
    // The 12" carbine is out by the leader rule, whatever is seen: settled on the range alone.
    const byLeaderBase = assessShot(ctxOf(st), S, T);
    expect(byLeaderBase.settledEarly).toBe('outOfRange');
    expect(byLeaderBase.frontShare).toBeUndefined();
    expect(byLeaderBase.range!.mm / IN).toBeCloseTo(Math.hypot(8.2, 10), 6); // 12.93
    expect(byLeaderBase.range!.to.x / IN).toBeCloseTo(9, 6);
    const out = shootVerdict(ctxOf(st), S, T);
    expect(out.answer).toBe('no');
    expect(out.value).toBeCloseTo(Math.hypot(8.2, 10), 6);
    expect(out.checks.map((c) => c.question)).toEqual(['mayShoot', 'validTarget', 'range']);
    expect(out.reasons.join(' ')).toMatch(
      /12\.9 in from .*; smoothbore carbine reaches 12".*no part of T2 is within range, seen or not/,
    );
    expect(assessShot(ctxOf(st, { rangeFrom: 'leaderPoint' }), S, T).range!.mm / IN).toBeCloseTo(
      Math.hypot(9, 10),
      6,
    ); // 13.45
    const byFootprint = shootVerdict(ctxOf(st, { rangeFrom: 'footprint' }), S, T);
    expect(byFootprint.value).toBeCloseTo(Math.hypot(4, 10), 6); // 10.77
    expect(byFootprint.answer).toBe('yes');
  });

  it('BP-E3: 37.5% in the front quarter → may shoot but not a clear target; range 15.01"', () => {
    const st = table([shooterS(), box('T3', 12, 22, 10, 11.5, enemy)]);
    const v = shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T3'));
    expect(v.facts.frontShare).toBeCloseTo(0.375, 6);
    expect(v.answer).toBe('yes');
    expect(v.facts.clear).toBe(false);
    expect(String(v.facts.notClear)).toMatch(/less than half .* front quarter/);
    expect(v.value).toBeCloseTo(Math.hypot(11.2, 10), 6); // 15.01
  });

  it('BP-E3: the not-clear T3 may be passed over for a clear target beyond it, but not the reverse', () => {
    const st = table([shooterS(), box('T3', 12, 22, 10, 11.5, enemy), box('Far', -5, 5, 16, 17.5, enemy)]);
    const ctx = ctxOf(st);
    expect(shootVerdict(ctx, findUnit(st, 'S'), findUnit(st, 'Far')).answer).toBe('yes');
    const st2 = table([shooterS(), box('Near', -3, -1, 8, 9.5, enemy), box('Far', -2, 8, 14, 15.5, enemy)]);
    const v = shootVerdict(ctxOf(st2), findUnit(st2, 'S'), findUnit(st2, 'Far'));
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/Near is a closer target/);
  });

  it('BP-E4: a target wholly outside the front quarter cannot be shot despite being in range', () => {
    const st = table([shooterS(), box('T4', 15, 25, 8, 9.5, enemy)]);
    const v = shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T4'));
    expect(v.answer).toBe('no');
    expect(v.facts.frontShare).toBe(0);
    expect(v.reasons.join(' ')).toMatch(/no part of T4 is in S's front quarter/);
  });

  it('a unit in between blocks the sight line, and the verdict says where', () => {
    const st = table([
      shooterS(),
      box('T1', -5, 5, 15, 16.5, enemy),
      box('Wall of men', -8, 8, 7, 8.5, { side: 'red' }),
    ]);
    const v = shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T1'));
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/blocked by Wall of men between 7\.0 in and 8\.5 in/);
  });

  it('a wood between blocks; 1" of wood edge does not (woodsSightDepthIn)', () => {
    const wood = { id: 'w', name: 'Home Copse', kind: 'wood' as const, polygon: rectPoly(-10, 10, 6, 9) };
    const st = table([shooterS(), box('T1', -5, 5, 15, 16.5, enemy)], [wood]);
    expect(shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T1')).answer).toBe('no');
    const edge = { ...wood, polygon: rectPoly(-10, 10, 14.2, 16.5) };
    const st2 = table([shooterS(), box('T1', -5, 5, 15, 16.5, enemy)], [edge]);
    const v2 = shootVerdict(ctxOf(st2), findUnit(st2, 'S'), findUnit(st2, 'T1'));
    expect(v2.facts.visibleShare).toBeGreaterThan(0);
    expect(v2.facts.clear).toBe(false); // in the wood: cover
  });

  it('skirmishers and deployed artillery are never clear targets; units in combat are never targets', () => {
    const st = table([shooterS(), box('Sk', -5, 5, 10, 11.5, { ...enemy, formation: 'skirmish' })]);
    const v = shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'Sk'));
    expect(v.answer).toBe('yes');
    expect(String(v.facts.notClear)).toMatch(/skirmish order/);
    const st2 = table([shooterS(), box('Busy', -5, 5, 10, 11.5, { ...enemy, engaged: true })]);
    expect(shootVerdict(ctxOf(st2), findUnit(st2, 'S'), findUnit(st2, 'Busy')).answer).toBe('no');
  });

  it('close range (≤ 6") gives +1; a target at 17.9" is borderline under the default 0.25" band', () => {
    const st = table([shooterS(), box('T', -5, 5, 5, 6.5, enemy)]);
    const v = shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T'));
    expect(v.facts.band).toBe('close');
    expect(String(v.facts.modifiers)).toMatch(/\+1 close range/);
    const st2 = table([shooterS(), box('T', -5, 5, 17.9, 19.4, enemy)]);
    const b = shootVerdict(
      ctxOf(st2, {}, { floor: 0.25, sigmas: 2 }),
      findUnit(st2, 'S'),
      findUnit(st2, 'T'),
    );
    expect(b.answer).toBe('borderline');
    expect(b.lean).toBe('yes');
  });
});

describe('range to the nearest visible part (exact, not sampled)', () => {
  it('when a friend hides the nearest point, range runs to the corner of the part still seen', () => {
    // Friends at x ∈ [−8, 2], y ∈ [7, 8.5] hide T up to the sight line through their corner (2, 7).
    const st = table([
      shooterS(),
      box('T', -5, 5, 15, 16.5, enemy),
      box('F', -8, 2, 7, 8.5, { side: 'red' }),
    ]);
    const shot = assessShot(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T'));
    expect(shot.facts.rangeToVisiblePart).toBe(true);
    const corner = { x: (2 * 15) / 7, y: 15 }; // where the sight line through (2, 7) meets T's near edge
    expect(shot.range!.to.x / IN).toBeCloseTo(corner.x, 6);
    expect(shot.range!.to.y / IN).toBeCloseTo(corner.y, 6);
    expect(shot.range!.mm / IN).toBeCloseTo(Math.hypot(corner.x - 0.8, 15), 6); // from the leader base's corner (0.8, 0)
  });

  it('a building hides the nearest point: range to the nearest part seen around it', () => {
    const house = { id: 'h', name: 'the farm', kind: 'building' as const, polygon: rectPoly(-3, 1, 8, 10) };
    const st = table([shooterS(), box('T', -5, 5, 15, 16.5, enemy)], [house]);
    const shot = assessShot(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T'));
    expect(shot.facts.rangeToVisiblePart).toBe(true);
    // The sight line through the building's corner (1, 8) meets y = 15 at x = 15/8.
    expect(shot.range!.to.x / IN).toBeCloseTo(15 / 8, 6);
    expect(shot.range!.mm / IN).toBeCloseTo(Math.hypot(15 / 8 - 0.8, 15), 6);
  });
});
