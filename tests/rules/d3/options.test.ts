import { describe, expect, it } from 'vitest';
import { findUnit } from '../../../src/table/table-state.ts';
import { EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import { d3Context } from '../../../src/rules/d3/context.ts';
import { artilleryVerdict, targetInCover } from '../../../src/rules/d3/fire.ts';
import { attackFaceVerdict, meleeRetreat } from '../../../src/rules/d3/charge.ts';
import { commanderPoseVerdict } from '../../../src/rules/d3/command.ts';
import { deploymentVerdict } from '../../../src/rules/d3/deployment.ts';
import { findByName } from '../../../src/table/table-state.ts';
import { reachAlongPath } from '../../../src/rules/d3/movement.ts';
import { area, commander, IN, rect, table } from '../fixtures.ts';

/**
 * Every D3 option read both ways (spec §2.6): each test puts a position where the two readings
 * give different answers, with the numbers worked by hand.
 */
const ctxOf = (
  units: Parameters<typeof table>[0],
  terrain: Parameters<typeof table>[1] = [],
  options: Record<string, OptionValue> = {},
) => d3Context(table(units, terrain, 'd3'), options, EXACT_POLICY);
const gun = (opts: Parameters<typeof rect>[5] = {}) =>
  rect('G', -1, 1, -1, 0, { side: 'red', type: 'artillery', files: 1, ...opts });
const T = (x0: number, x1: number, y0: number, y1: number) =>
  rect('T', x0, x1, y0, y1, { side: 'blue', headingDeg: 180, files: 2 });

describe('mortarMinimum (A-D3-14)', () => {
  const shoot = (y0: number, options: Record<string, OptionValue> = {}) => {
    const ctx = ctxOf([gun({ troop: 'mortar' }), T(-5, 5, y0, y0 + 2)], [], options);
    return artilleryVerdict(ctx, findUnit(ctx.state, 'G'), findUnit(ctx.state, 'T'));
  };
  it('exactly 18" is allowed by default and refused under beyondEighteen; 18.1" both allow', () => {
    expect(shoot(18).answer).toBe('yes');
    expect(shoot(18).facts.minimumRoll).toBe(3);
    const strict = shoot(18, { mortarMinimum: 'beyondEighteen' });
    expect(strict.answer).toBe('no');
    expect(strict.reasons.join(' ')).toMatch(/at or under 18"/);
    expect(shoot(18.1, { mortarMinimum: 'beyondEighteen' }).answer).toBe('yes');
  });
  it('under the minimum no roll hits: the lowest roll that reaches is none', () => {
    const v = shoot(15);
    expect(v.answer).toBe('no');
    expect(v.facts.minimumRoll).toBe('none');
    expect(shoot(18, { mortarMinimum: 'beyondEighteen' }).facts.minimumRoll).toBe('none');
  });
});

describe('artilleryFrom (A-D3-3)', () => {
  it('front centre (0,0) → (5,16) is 16.76"; the gun footprint (1,0) → (5,16) is 16.49"', () => {
    const at = (artilleryFrom: string) => {
      const ctx = ctxOf([gun(), T(5, 15, 16, 18)], [], { artilleryFrom });
      return artilleryVerdict(ctx, findUnit(ctx.state, 'G'), findUnit(ctx.state, 'T')).value;
    };
    expect(at('frontCentre')).toBeCloseTo(Math.hypot(5, 16), 6);
    expect(at('footprint')).toBeCloseTo(Math.hypot(4, 16), 6);
  });
});

describe('coverRule (A-D3-4)', () => {
  it('a target 30% inside a wood is in cover only under anyPart', () => {
    const wood = [area('w', 'wood', -8, -2, 14, 20)];
    const covered = (coverRule: string) => {
      const ctx = ctxOf([gun(), T(-5, 5, 16, 18)], wood, { coverRule });
      const c = targetInCover(ctx, findUnit(ctx.state, 'T'));
      expect(c.share).toBeCloseTo(0.3, 9);
      return c.covered;
    };
    expect(covered('half')).toBe(false);
    expect(covered('anyPart')).toBe(true);
  });
});

describe('difficultGround (A-D3-5)', () => {
  it('infantry (6") crossing 1" of bog: 5" per inch (2 + 1×2 + 2 left), 3" when the whole move halves', () => {
    const bog = [area('b', 'rough', -5, 5, 2, 3)];
    const reach = (difficultGround: string) => {
      const ctx = ctxOf([rect('I', -1, 1, -1, 0, { side: 'red', files: 1 })], bog, { difficultGround });
      const path = [
        { x: 0, y: 0 },
        { x: 0, y: 10 * IN },
      ];
      return reachAlongPath(ctx, findUnit(ctx.state, 'I'), path).reachIn;
    };
    expect(reach('perInch')).toBeCloseTo(5, 9);
    expect(reach('wholeMove')).toBeCloseTo(3, 9);
  });
});

describe('retreatDirection and columnRetreat (A-D3-8)', () => {
  const units = (formation?: 'attackColumn') => [
    rect('A', -2, 2, -1, 0, { side: 'red', files: 2, ...(formation ? { formation } : {}) }),
    rect('D', 10, 14, 4, 6, { side: 'blue', headingDeg: 180, files: 2 }),
  ];
  it('straight back moves along −y only; away from the target also moves left (−x)', () => {
    const at = (retreatDirection: string) => {
      const ctx = ctxOf(units(), [], { retreatDirection });
      return meleeRetreat(ctx, findUnit(ctx.state, 'A'), findUnit(ctx.state, 'D'));
    };
    const back = at('straightBack');
    expect(back.distanceIn).toBe(3);
    expect(back.move.x).toBeCloseTo(0, 9);
    expect(back.move.y).toBeCloseTo(-3 * IN, 9);
    const away = at('awayFromTarget');
    // Centres (0,−0.5) and (12,5): the retreat points along (−12,−5.5).
    expect(away.move.x / away.move.y).toBeCloseTo(12 / 5.5, 9);
    expect(Math.hypot(away.move.x, away.move.y)).toBeCloseTo(3 * IN, 9);
  });
  it('infantry in column retreats half of 6" (3") by default, half of 9" (4.5") under columnMove', () => {
    const at = (columnRetreat: string) => {
      const ctx = ctxOf(units('attackColumn'), [], { columnRetreat });
      return meleeRetreat(ctx, findUnit(ctx.state, 'A'), findUnit(ctx.state, 'D')).distanceIn;
    };
    expect(at('lineMove')).toBe(3);
    expect(at('columnMove')).toBe(4.5);
  });
});

describe('quarterReading (A-D3-2)', () => {
  it('an attacker whose front centre is 12" right and 3" ahead of a 10" × 1.5" line: flank by the bisectors, front by the diagonals', () => {
    const units = [
      rect('D', -5, 5, -1.5, 0, { side: 'red', files: 5 }),
      rect('A', 11, 13, 3, 5, { side: 'blue', type: 'cavalry', headingDeg: 180, files: 1 }),
    ];
    const face = (quarterReading: string) => {
      const ctx = ctxOf(units, [], { quarterReading });
      return attackFaceVerdict(ctx, findUnit(ctx.state, 'A'), findUnit(ctx.state, 'D')).facts;
    };
    expect(face('bisector')).toMatchObject({ face: 'right', bonusHits: 2 });
    expect(face('diagonal')).toMatchObject({ face: 'front', bonusHits: 0 });
  });
});

describe('deployMeasure and lineGapIn (A-D3-10)', () => {
  it('a unit from 13.5" to 15.5" off its edge: outside the first line by its front edge, inside by its rear', () => {
    const units = [rect('A', 0, 10, 13.5, 15.5, { side: 'red' })];
    const depth = (deployMeasure: string) =>
      deploymentVerdict(ctxOf(units, [], { deployMeasure }), 'red', 'south').checks.find(
        (c) => c.question === 'lineDepth',
      );
    const front = depth('frontEdge');
    expect(front?.answer).toBe('no');
    expect(front?.value).toBeCloseTo(15.5, 9);
    const rear = depth('rearEdge');
    expect(rear?.answer).toBe('yes');
    expect(rear?.value).toBeCloseTo(13.5, 9);
  });
  it('a front edge 15.1" out is over the 15" limit exactly, too close to call in the 0.25" band', () => {
    const st = table([rect('A', 0, 10, 13.1, 15.1, { side: 'red' })], [], 'd3');
    const depth = (policy: Parameters<typeof d3Context>[2]) =>
      deploymentVerdict(d3Context(st, {}, policy), 'red', 'south').checks.find(
        (c) => c.question === 'lineDepth',
      );
    expect(depth(EXACT_POLICY)?.answer).toBe('no');
    const banded = depth({ floor: 0.25, sigmas: 2 });
    expect(banded?.answer).toBe('borderline');
    expect(banded?.lean).toBe('no');
  });
  it('fronts at 14" and 12.5": one line when the split needs a 2" step; two lines (the second too far out) at 1"', () => {
    const units = [rect('A', 0, 10, 12, 14, { side: 'red' }), rect('B', 12, 22, 10.5, 12.5, { side: 'red' })];
    const v = (lineGapIn: number) => deploymentVerdict(ctxOf(units, [], { lineGapIn }), 'red', 'south');
    expect(v(2).facts.secondLine).toBe('');
    expect(v(2).answer).toBe('yes');
    expect(v(1).facts.secondLine).toBe('B');
    expect(v(1).answer).toBe('no');
  });
});

describe('attachWithinIn', () => {
  it('a commander 1.5" behind a friend and 11" from the enemy: unattached (must keep 12") at 1", joined at 2"', () => {
    const units = [
      rect('F', -5, 5, 0, 2, { side: 'red', files: 5 }),
      rect('E', -5, 5, 9.5, 11.5, { side: 'blue', headingDeg: 180, files: 5 }),
      commander('K', 0, -1.5, { side: 'red' }),
    ];
    const pose = (attachWithinIn: number) => {
      const ctx = ctxOf(units, [], { attachWithinIn });
      return commanderPoseVerdict(ctx, findByName(ctx.state.commanders, 'K'));
    };
    expect(pose(1).answer).toBe('no');
    expect(pose(1).value).toBeCloseTo(11, 9);
    expect(pose(2).answer).toBe('yes');
  });
});
