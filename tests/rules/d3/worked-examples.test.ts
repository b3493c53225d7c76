import { describe, expect, it } from 'vitest';
import { findByName, findUnit } from '../../../src/table/table-state.ts';
import { EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import { d3Context } from '../../../src/rules/d3/context.ts';
import { artilleryVerdict, fieldOfFireVerdict, musketVerdict } from '../../../src/rules/d3/fire.ts';
import { chargeVerdict, meleeRetreat } from '../../../src/rules/d3/charge.ts';
import { commanderPoseVerdict, joinVerdict } from '../../../src/rules/d3/command.ts';
import { deploymentVerdict } from '../../../src/rules/d3/deployment.ts';
import { moveVerdict, reachAlongPath } from '../../../src/rules/d3/movement.ts';
import { area, commander, IN, rect, table } from '../fixtures.ts';

/** Spec §2.7: the shooter's front centre F = (0,0), facing +y. */
const S = (opts: Parameters<typeof rect>[5] = {}) =>
  rect('S', -2, 2, -1, 0, { side: 'red', files: 2, ...opts });
const T = (x0: number, x1: number, y0: number, y1: number, opts: Parameters<typeof rect>[5] = {}) =>
  rect('T', x0, x1, y0, y1, { side: 'blue', headingDeg: 180, files: 2, ...opts });
const ctxOf = (
  units: Parameters<typeof table>[0],
  terrain: Parameters<typeof table>[1] = [],
  options: Record<string, OptionValue> = {},
) => d3Context(table(units, terrain, 'd3'), options, EXACT_POLICY);
const deg = (r: number) => (r * 180) / Math.PI;

describe('D3-E1…E4: musket field of fire and range from the front centre', () => {
  const shot = (
    x0: number,
    x1: number,
    y0: number,
    y1: number,
    options: Record<string, OptionValue> = {},
  ) => {
    const ctx = ctxOf([S(), T(x0, x1, y0, y1)], [], options);
    return {
      v: musketVerdict(ctx, findUnit(ctx.state, 'S'), findUnit(ctx.state, 'T')),
      f: fieldOfFireVerdict(ctx, findUnit(ctx.state, 'S'), findUnit(ctx.state, 'T')),
    };
  };
  it('D3-E1: 8.54" to (3,8); nearest bearing 20.6°, minimum 16.7° → eligible under ±45° and ±22.5°', () => {
    const { v, f } = shot(3, 9, 8, 10);
    expect(v.value).toBeCloseTo(Math.hypot(3, 8), 9);
    expect(f.facts.nearestBearingDeg as number).toBeCloseTo(deg(Math.atan(3 / 8)), 6);
    expect(f.facts.minBearingDeg as number).toBeCloseTo(deg(Math.atan(3 / 10)), 6);
    expect(v.answer).toBe('yes');
    expect(shot(3, 9, 8, 10, { arc: 'total45' }).v.answer).toBe('yes');
  });
  it('D3-E2: 11.66" but minimum bearing 51.3° → not eligible under any reading', () => {
    const { v, f } = shot(10, 16, 6, 8);
    expect(v.value).toBeCloseTo(Math.hypot(10, 6), 9);
    expect(f.value).toBeCloseTo(deg(Math.atan(10 / 8)), 6);
    expect(v.answer).toBe('no');
    expect(shot(10, 16, 6, 8, { arcApex: 'frontCorners' }).v.answer).toBe('no');
    expect(shot(10, 16, 6, 8, { arcPart: 'nearestPoint' }).v.answer).toBe('no');
  });
  it('D3-E3: 9.43", minimum bearing 26.6° → eligible under ±45°, not under ±22.5°', () => {
    const { v, f } = shot(5, 9, 8, 10);
    expect(v.value).toBeCloseTo(Math.hypot(5, 8), 9);
    expect(f.value).toBeCloseTo(deg(Math.atan(5 / 10)), 6);
    expect(v.answer).toBe('yes');
    expect(shot(5, 9, 8, 10, { arc: 'total45' }).v.answer).toBe('no');
  });
  it('D3-E4: 10.20", bearings 9.5°–11.3° → eligible under every reading', () => {
    for (const o of [
      {},
      { arc: 'total45' },
      { arcPart: 'nearestPoint' },
      { arcPart: 'wholeUnit' },
      { arcApex: 'frontCorners' },
    ] as Record<string, OptionValue>[]) {
      const { v } = shot(2, 6, 10, 12, o);
      expect(v.value).toBeCloseTo(Math.hypot(2, 10), 9);
      expect(v.answer).toBe('yes');
    }
    const { f } = shot(2, 6, 10, 12);
    expect(f.facts.minBearingDeg as number).toBeCloseTo(deg(Math.atan(2 / 12)), 6);
  });
});

describe('D3-E5 / D3-E6: artillery and mortars', () => {
  const gun = (opts: Parameters<typeof rect>[5] = {}) =>
    rect('G', -1, 1, -1, 0, { side: 'red', type: 'artillery', files: 1, ...opts });
  const target = () => T(-5, 5, 16, 18);
  it('D3-E5: D6 = 3 at 16" in the open → 18" reach → hit (1 unseasoned, 2 seasoned)', () => {
    const ctx = ctxOf([gun(), target()]);
    const v = artilleryVerdict(ctx, findUnit(ctx.state, 'G'), findUnit(ctx.state, 'T'), 3);
    expect(v.answer).toBe('yes');
    expect(v.limit).toBe(18);
    expect(v.facts.hits).toBe(1);
    const seasoned = ctxOf([gun({ quality: 'seasoned' }), target()]);
    expect(
      artilleryVerdict(seasoned, findUnit(seasoned.state, 'G'), findUnit(seasoned.state, 'T'), 3).facts.hits,
    ).toBe(2);
  });
  it('D3-E5: the same target in woods → reach 6" → miss; D6 = 2 against cover → reach 0', () => {
    const ctx = ctxOf([gun(), target()], [area('w', 'wood', -8, 8, 15, 20)]);
    const v = artilleryVerdict(ctx, findUnit(ctx.state, 'G'), findUnit(ctx.state, 'T'), 3);
    expect(v.facts.inCover).toBe(true);
    expect(v.facts.reachIn).toBe(6);
    expect(v.answer).toBe('no');
    expect(artilleryVerdict(ctx, findUnit(ctx.state, 'G'), findUnit(ctx.state, 'T'), 2).facts.reachIn).toBe(
      0,
    );
  });
  it('D3-E6: a mortar may not fire at 15"; at 20" in woods a 4 reaches 24" (no cover penalty) → hit', () => {
    const near = ctxOf([gun({ troop: 'mortar' }), T(-5, 5, 15, 17)]);
    const v = artilleryVerdict(near, findUnit(near.state, 'G'), findUnit(near.state, 'T'), 6);
    expect(v.answer).toBe('no');
    expect(v.checks.find((c) => c.question === 'mortarMinimum')?.answer).toBe('no');
    const far = ctxOf([gun({ troop: 'mortar' }), T(-5, 5, 20, 22)], [area('w', 'wood', -8, 8, 19, 24)]);
    const m = artilleryVerdict(far, findUnit(far.state, 'G'), findUnit(far.state, 'T'), 4);
    expect(m.facts.inCover).toBe(true);
    expect(m.facts.reachIn).toBe(24);
    expect(m.answer).toBe('yes');
  });
});

describe('D3-E7 / D3-E8: commanders', () => {
  it('D3-E7: unattached 11.5" from an enemy unit → illegal; 12.0" → legal', () => {
    const a = ctxOf([T(-5, 5, 0, 2), commander('K', 0, -11.5, { side: 'red' })]);
    expect(commanderPoseVerdict(a, findByName(a.state.commanders, 'K')).answer).toBe('no');
    const b = ctxOf([T(-5, 5, 0, 2), commander('K', 0, -12, { side: 'red' })]);
    expect(commanderPoseVerdict(b, findByName(b.state.commanders, 'K')).answer).toBe('yes');
  });
  it('D3-E8: 12.0" from a unit → may join and rally; 12.5" → may not', () => {
    const a = ctxOf([S(), commander('K', 0, -13, { side: 'red' })]);
    const v = joinVerdict(a, findByName(a.state.commanders, 'K'), findUnit(a.state, 'S'));
    expect(v.value).toBeCloseTo(12, 9);
    expect(v.answer).toBe('yes');
    const b = ctxOf([S(), commander('K', 0, -13.5, { side: 'red' })]);
    expect(joinVerdict(b, findByName(b.state.commanders, 'K'), findUnit(b.state, 'S')).answer).toBe('no');
  });
});

describe('D3-E9: deployment lines', () => {
  it('first line 14" from the base edge is fine; a second-line unit at 10" breaks the 9" limit', () => {
    const units = [
      rect('A', 0, 10, 12, 14, { side: 'red' }),
      rect('B', 12, 22, 12, 14, { side: 'red' }),
      rect('C', 24, 34, 12, 14, { side: 'red' }),
      rect('D', 12, 22, 8, 10, { side: 'red' }),
    ];
    const ctx = ctxOf(units);
    const v = deploymentVerdict(ctx, 'red', 'south');
    const depth = v.checks.filter((c) => c.question === 'lineDepth');
    expect(depth.find((c) => c.asked.startsWith('is A'))?.answer).toBe('yes');
    expect(depth.find((c) => c.asked.startsWith('is D'))).toMatchObject({
      answer: 'no',
      value: 10,
      limit: 9,
    });
    expect(v.answer).toBe('no');
    expect(v.facts.secondLine).toBe('D');
  });
});

describe('D3-E10: charge with one turn of up to 45°', () => {
  // Cavalry 4" wide, 2" deep, front centre at the origin, facing +y; a 1" square target whose
  // centre is 10" from the front centre. Bearing 40°: turning 40° right about the front-right
  // corner (2,0) puts the target centre 0.47" off the new axis, 8.7" ahead: contact within 12".
  // Bearing 60°: even turned the full 45° the target centre is 3.17" right of the axis; the square
  // (0.71" half-extent at 45°) starts at 2.47", beyond the 2" half-frontage: no straight charge.
  const cav = () => rect('Cav', -2, 2, -2, 0, { side: 'red', type: 'cavalry', files: 2 });
  const square = (b: number) => {
    const r = (b * Math.PI) / 180;
    const cx = 10 * Math.sin(r);
    const cy = 10 * Math.cos(r);
    return T(cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5, { files: 1 });
  };
  it('target centre at bearing 40° → legal (turn 40°, then straight)', () => {
    const ctx = ctxOf([cav(), square(40)]);
    const v = chargeVerdict(ctx, findUnit(ctx.state, 'Cav'), findUnit(ctx.state, 'T'));
    expect(v.answer).toBe('yes');
    expect(Math.abs(v.facts.turnDeg as number)).toBeLessThanOrEqual(45);
    expect(v.value as number).toBeLessThanOrEqual(12);
  });
  it('target centre at bearing 60° → cannot charge this move', () => {
    const ctx = ctxOf([cav(), square(60)]);
    expect(chargeVerdict(ctx, findUnit(ctx.state, 'Cav'), findUnit(ctx.state, 'T')).answer).toBe('no');
  });
});

describe('D3-E11: retreat after a melee that did not rout', () => {
  it('cavalry 6", infantry and Highlanders 3", ending facing the target', () => {
    const ctx = ctxOf([
      rect('Cav', -2, 2, -2, 0, { side: 'red', type: 'cavalry' }),
      rect('Inf', 10, 14, -2, 0, { side: 'red' }),
      rect('Hld', 20, 24, -2, 0, { side: 'red', troop: 'highlander' }),
      T(-30, 30, 0, 2),
    ]);
    const t = findUnit(ctx.state, 'T');
    expect(meleeRetreat(ctx, findUnit(ctx.state, 'Cav'), t).distanceIn).toBe(6);
    expect(meleeRetreat(ctx, findUnit(ctx.state, 'Inf'), t).distanceIn).toBe(3);
    const h = meleeRetreat(ctx, findUnit(ctx.state, 'Hld'), t);
    expect(h.distanceIn).toBe(3);
    expect(h.move.y).toBeCloseTo(-3 * IN, 9);
    expect(h.facing.y).toBeGreaterThan(0);
  });
});

describe('D3-E12: bog', () => {
  const bog = [area('bog', 'rough', -20, 20, -5, 30, IN, { name: 'the bog' })];
  it('infantry: a whole 6" move in bog makes 3"; cavalry cannot enter', () => {
    const ctx = ctxOf([S(), rect('Cav', 10, 14, -2, 0, { side: 'red', type: 'cavalry' })], bog);
    const path = [
      { x: 0, y: 0 },
      { x: 0, y: 10 * IN },
    ];
    expect(reachAlongPath(ctx, findUnit(ctx.state, 'S'), path).reachIn).toBeCloseTo(3, 9);
    const cav = reachAlongPath(ctx, findUnit(ctx.state, 'Cav'), [
      { x: 12 * IN, y: 0 },
      { x: 12 * IN, y: 10 * IN },
    ]);
    expect(cav.reachIn).toBe(0);
    expect(cav.stoppedBy).toMatch(/cavalry/);
    expect(
      moveVerdict(ctx, findUnit(ctx.state, 'S'), [
        { x: 0, y: 0 },
        { x: 0, y: 3 * IN },
      ]).answer,
    ).toBe('yes');
    expect(
      moveVerdict(ctx, findUnit(ctx.state, 'S'), [
        { x: 0, y: 0 },
        { x: 0, y: 3.5 * IN },
      ]).answer,
    ).toBe('no');
  });
});
