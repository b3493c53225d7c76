import { describe, expect, it } from 'vitest';
import { enfiladeVerdict } from '../../../src/rules/black-powder/enfilade.ts';
import { proximityMoveVerdict } from '../../../src/rules/black-powder/proximity.ts';
import { assessShot, shootVerdict } from '../../../src/rules/black-powder/shooting.ts';
import { leftTableVerdict, mixedOrderVerdict } from '../../../src/rules/black-powder/specials.ts';
import { supportVerdict } from '../../../src/rules/black-powder/support.ts';
import { findWeapon } from '../../../src/rules/black-powder/tables.ts';
import { traverseVerdict } from '../../../src/rules/black-powder/traverse.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { IN as INCH, rect, twoSidedTable } from '../fixtures.ts';
import { box, ctxOf, IN, piece, rectPoly, shooterS, table } from './fixtures.ts';

/**
 * Every Black Powder option read both ways (spec §5.15): a position where the default and the
 * other reading disagree, with the numbers worked by hand. S is the standard 10" × 1.5" line
 * facing +y (front quarter y ≥ |x| − 5), its leader base [−0.8, 0.8] × [−1.5, 0].
 */
const enemy = { side: 'blue', headingDeg: 180 as const };
const P = (x: number, y: number) => ({ x: x * IN, y: y * IN });
type Opts = Record<string, OptionValue>;

describe('leftTable (A-BP-25)', () => {
  it('a base 0.5" over the edge has left under anyOverhang; its centre 0.5" inside has not under centrePast', () => {
    const u = rect('U', 10, 12, 46.5, 48.5, { files: 1 });
    const state = twoSidedTable('edge', 'black-powder', { widthMm: 72 * INCH, depthMm: 48 * INCH }, [u]);
    const ask = (o: Opts) => leftTableVerdict(ctxOf(state, o), findUnit(state, 'U'));
    expect(ask({}).answer).toBe('yes');
    expect(ask({}).value).toBeCloseTo(0.5, 9);
    const c = ask({ leftTable: 'centrePast' });
    expect(c.answer).toBe('no');
    expect(c.value).toBeCloseTo(-0.5, 9);
  });
});

describe('halfMeasure (A-BP-4): the front-quarter half', () => {
  // T = [8,12]×[2,12] facing −y: 70% of its area is in S's front quarter, none of its front edge (y = 2, x ≤ 7 needed).
  it('area 70% → clear; frontage 0% → not clear', () => {
    const st = table([shooterS(), box('T', 8, 12, 2, 12, enemy)]);
    const area = assessShot(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'T'));
    expect(area.frontShare).toBeCloseTo(0.7, 9);
    expect(area.clear).toBe(true);
    const front = shootVerdict(ctxOf(st, { halfMeasure: 'frontage' }), findUnit(st, 'S'), findUnit(st, 'T'));
    expect(front.facts.clear).toBe(false);
    expect(String(front.facts.notClear)).toMatch(/front quarter/);
  });
});

describe('gapReading (A-BP-5)', () => {
  // Friends with inner edges at x = −2.8 and x = 2.8, staggered 3" in depth, on the line of fire.
  const st = table([
    shooterS(),
    box('FL', -10, -2.8, 8, 9.5),
    box('FR', 2.8, 10, 12.5, 14),
    box('T', -5, 5, 16, 17.5, enemy),
  ]);
  // Measured from the leader point, the line of fire runs straight up x = 0 to (0,16).
  const gap = (o: Opts) =>
    shootVerdict(
      ctxOf(st, { rangeFrom: 'leaderPoint', ...o }),
      findUnit(st, 'S'),
      findUnit(st, 'T'),
    ).checks.find((c) => c.question === 'gap');
  it('closest approach √(5.6² + 3²) = 6.35" ≥ 6: may fire through; square to the line 5.6": may not', () => {
    const a = gap({});
    expect(a?.facts.gapIn).toBeCloseTo(Math.hypot(5.6, 3), 6);
    expect(a?.answer).toBe('yes');
    const p = gap({ gapReading: 'perpendicular' });
    expect(p?.facts.gapIn).toBeCloseTo(5.6, 6);
    expect(p?.answer).toBe('no');
  });
});

describe('rangeToFrontQuarterPart (A-BP-3)', () => {
  // T = [6,16]×[0.5,2]: its nearest point (6,0.5) is in S's right flank; the nearest part in the
  // front quarter is (6,1). From the leader base corner (0.8,0): 5.224" and 5.295".
  it('to the nearest part anywhere, or only to the part in the front quarter', () => {
    const st = table([shooterS(), box('T', 6, 16, 0.5, 2, enemy)]);
    const r = (o: Opts) => assessShot(ctxOf(st, o), findUnit(st, 'S'), findUnit(st, 'T')).range!.mm / IN;
    expect(r({})).toBeCloseTo(Math.hypot(5.2, 0.5), 6);
    expect(r({ rangeToFrontQuarterPart: true })).toBeCloseTo(Math.hypot(5.2, 1), 6);
  });
});

describe('enfiladeCorridor (A-BP-11)', () => {
  it('a leader 0.3" beyond the 1.5"-deep corridor is inside once it is widened to 3"', () => {
    const T = box('T', -5, 5, -1.5, 0, { side: 'blue', formation: 'line' });
    const st = table([T, piece('S', -15.5, 0.3, 1.5, 1, { headingDeg: 270 })]);
    const ask = (o: Opts) =>
      enfiladeVerdict(ctxOf(st, o), findUnit(st, 'S'), findUnit(st, 'T'), findWeapon('smoothbore musket'))
        .answer;
    expect(ask({})).toBe('no');
    expect(ask({ enfiladeCorridor: 'minimumDepth', enfiladeMinDepthIn: 2 })).toBe('no'); // [−1.75, 0.25]
    expect(ask({ enfiladeCorridor: 'minimumDepth', enfiladeMinDepthIn: 3 })).toBe('yes'); // [−2.25, 0.75]
  });
});

describe('supportPoint (A-BP-8)', () => {
  const E = () => box('E', -5, 5, -1.5, 0, { engaged: true });
  const ask = (f: ReturnType<typeof box>, o: Opts) => {
    const st = table([E(), f]);
    return supportVerdict(ctxOf(st, o), findUnit(st, 'F'), findUnit(st, 'E')).answer;
  };
  it('leader in the front quarter, two thirds of the supporter in the left flank', () => {
    // F = [−9,−6]×[−1.5,4.5]: leader (−7.5,4.5) is in front (4.5 ≥ 2.5); 12 of its 18 sq in are flank.
    const F = box('F', -9, -6, -1.5, 4.5, { formation: 'line' });
    expect(ask(F, {})).toBe('no');
    expect(ask(F, { supportPoint: 'majority' })).toBe('yes');
    expect(ask(F, { supportPoint: 'anyPart' })).toBe('yes');
  });
  it('a quarter of the supporter in the flank: any part yes, majority no', () => {
    // F = [−8,−6]×[0.5,6]: 3 of its 11 sq in lie below the ray y = −x − 5.
    const F = box('F', -8, -6, 0.5, 6, { formation: 'line' });
    expect(ask(F, { supportPoint: 'anyPart' })).toBe('yes');
    expect(ask(F, { supportPoint: 'majority' })).toBe('no');
  });
});

describe('proximityCheck (A-BP-9)', () => {
  it('BP-E16 sidestep 4" right with an enemy at 11.9": illegal by the footprint, legal by the leader', () => {
    const st = table([shooterS(), box('Foe', -5, 5, 11.9, 13.4, enemy)]);
    const u = findUnit(st, 'S');
    const moved = u.bases.map((b) => ({
      ...b.footprint,
      center: { x: b.footprint.center.x + 4 * IN, y: b.footprint.center.y },
    }));
    expect(proximityMoveVerdict(ctxOf(st), u, moved).answer).toBe('no');
    expect(proximityMoveVerdict(ctxOf(st, { proximityCheck: 'leaderOnly' }), u, moved).answer).toBe('yes');
  });
});

describe('traverseTrack (A-BP-12)', () => {
  it('BP-E17 track (2,9)→(10,9) covers 3" by the leader, 5.5" with a 5" frontage swept', () => {
    const st = table([shooterS()]);
    const S = findUnit(st, 'S');
    const lead = traverseVerdict(ctxOf(st), S, [P(2, 9), P(10, 9)], 5 * IN);
    expect(lead.value).toBeCloseTo(3, 9);
    expect(lead.answer).toBe('no');
    const swept = traverseVerdict(ctxOf(st, { traverseTrack: 'footprint' }), S, [P(2, 9), P(10, 9)], 5 * IN);
    expect(swept.value).toBeCloseTo(5.5, 9);
    expect(swept.answer).toBe('yes');
  });
});

describe('artillery options (A-BP-13, A-BP-14, A-BP-15)', () => {
  const gun = (weapon = 'smoothbore foot artillery') =>
    piece('G', 0, -1, 1, 2, { type: 'artillery', weapon, roles: ['gun'] });
  it('artilleryArcHalfRule: a target a third inside the arc is not clear; without the rule it is', () => {
    // The arc from the barrel tip (0,0) up +y, on the right: x ≤ y. Two thirds of [14,20]×[17,19]
    // lie inside (∫ (y − 14) dy from 17 to 19 = 8 of 12): clear either way.
    const st = table([gun(), box('T', 14, 20, 17, 19, enemy)]);
    const twoThirds = assessShot(ctxOf(st), findUnit(st, 'G'), findUnit(st, 'T'));
    expect(twoThirds.frontShare).toBeCloseTo(8 / 12, 9);
    expect(twoThirds.clear).toBe(true);
    const st2 = table([gun(), box('T', 16, 22, 17, 19, enemy)]);
    // [16,22]×[17,19]: ∫ (y − 16) = (9 − 1)/2 = 4 of 12 → a third.
    const third = assessShot(ctxOf(st2), findUnit(st2, 'G'), findUnit(st2, 'T'));
    expect(third.frontShare).toBeCloseTo(1 / 3, 9);
    expect(third.clear).toBe(false);
    const off = assessShot(
      ctxOf(st2, { artilleryArcHalfRule: false }),
      findUnit(st2, 'G'),
      findUnit(st2, 'T'),
    );
    expect(off.clear).toBe(true);
  });
  it('overheadNeedsHeight: on the flat a gun may not fire over a friend 10" out; without the need it may', () => {
    const target = box('T', -3, 3, 30, 31.5, enemy);
    const st = table([gun(), target, box('F', -8, 8, 10, 12)]);
    expect(shootVerdict(ctxOf(st), findUnit(st, 'G'), findUnit(st, 'T')).answer).toBe('no');
    const v = shootVerdict(ctxOf(st, { overheadNeedsHeight: false }), findUnit(st, 'G'), findUnit(st, 'T'));
    expect(v.answer).toBe('yes');
    expect(String(v.facts.modifiers)).toMatch(/−1 firing overhead/);
  });
  it('howitzerCloseAtSix: a target at exactly 6.0" is legal by default, not when the minimum is exclusive', () => {
    const st = table([gun('smoothbore field howitzer'), box('T', -2, 2, 6, 7.5, enemy)]);
    expect(shootVerdict(ctxOf(st), findUnit(st, 'G'), findUnit(st, 'T')).answer).toBe('yes');
    expect(
      shootVerdict(ctxOf(st, { howitzerCloseAtSix: false }), findUnit(st, 'G'), findUnit(st, 'T')).answer,
    ).toBe('no');
  });
});

describe('mixedSpacing (A-BP-27)', () => {
  // A line [−5,5]×[−1.5,0] with three 0.5" skirmisher bases 1.5" apart, their near edge `gap` ahead.
  const mixed = (gap: number) => {
    const body = box('M', -5, 5, -1.5, 0, { formation: 'mixed' });
    const sk = [-3.25, -1.25, 0.75].map((x, i) => ({
      ...body.bases[0]!,
      widthMm: 0.5 * IN,
      depthMm: 0.5 * IN,
      marker: { ...body.bases[0]!.marker, id: 950 + i + gap * 10 },
      pose: { x: x * IN, y: (gap + 0.25) * IN, headingDeg: 0 },
      role: 'skirmisher' as const,
    }));
    return table([{ ...body, bases: [...body.bases, ...sk] }]);
  };
  it('screen 4.5" ahead: valid by the Advanced rules (each within 2" of another, ≤ 6" ahead), not by Formations (body ≤ 2" behind)', () => {
    const st = mixed(4.5);
    expect(mixedOrderVerdict(ctxOf(st), findUnit(st, 'M')).answer).toBe('yes');
    expect(mixedOrderVerdict(ctxOf(st, { mixedSpacing: 'formations' }), findUnit(st, 'M')).answer).toBe('no');
    const close = mixed(1.5);
    expect(mixedOrderVerdict(ctxOf(close), findUnit(close, 'M')).answer).toBe('yes');
    expect(mixedOrderVerdict(ctxOf(close, { mixedSpacing: 'formations' }), findUnit(close, 'M')).answer).toBe(
      'yes',
    );
    // The screen's far edge 6.05" ahead: over the 6" limit, within the 0.25" band of the default policy.
    const edge = mixed(5.55);
    const exact = mixedOrderVerdict(ctxOf(edge), findUnit(edge, 'M'));
    expect(exact.answer).toBe('no');
    expect(exact.value).toBeCloseTo(6.05, 9);
    expect(exact.limit).toBe(6);
    const banded = mixedOrderVerdict(ctxOf(edge, {}, { floor: 0.25, sigmas: 2 }), findUnit(edge, 'M'));
    expect(banded.answer).toBe('borderline');
    expect(banded.lean).toBe('no');
    const mid = mixed(2.5);
    expect(mixedOrderVerdict(ctxOf(mid, { mixedSpacing: 'formations' }), findUnit(mid, 'M')).answer).toBe(
      'no',
    );
  });
});

describe('woodsSightDepthIn (A-BP-16)', () => {
  const wood = (y0: number, y1: number) => ({
    id: 'w',
    name: 'Copse',
    kind: 'wood' as const,
    polygon: rectPoly(-10, 10, y0, y1),
  });
  const shoot = (targetY: number, w: ReturnType<typeof wood>, o: Opts) => {
    const st = table([shooterS(), box('T', -5, 5, targetY, targetY + 1.5, enemy)], [w]);
    return shootVerdict(ctxOf(st, o), findUnit(st, 'S'), findUnit(st, 'T'));
  };
  it('a target whose front edge is 0.5" inside a wood is seen; 1.5" inside, only when sight reaches 2"', () => {
    // The wood starts at y = 14; sight lines to T's front edge run (y − 14) inside it.
    expect(shoot(14.5, wood(14, 30), {}).answer).toBe('yes');
    expect(shoot(15.5, wood(14, 30), {}).answer).toBe('no');
    const deeper = shoot(15.5, wood(14, 30), { woodsSightDepthIn: 2 });
    expect(deeper.answer).toBe('yes');
    expect(deeper.value).toBeCloseTo(15.5, 6);
  });
  it('a shooter standing 2" deep in a wood sees out only when sight reaches more than 2"', () => {
    expect(shoot(10, wood(-10, 2), {}).answer).toBe('no');
    expect(shoot(10, wood(-10, 2), { woodsSightDepthIn: 4 }).answer).toBe('yes');
  });
});
