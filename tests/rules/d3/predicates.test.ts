import { describe, expect, it } from 'vitest';
import { findUnit } from '../../../src/table/table-state.ts';
import { EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import { getRuleset, parseQuestion } from '../../../src/rules/index.ts';
import { d3Context } from '../../../src/rules/d3/context.ts';
import { musketVerdict } from '../../../src/rules/d3/fire.ts';
import { attackFaceVerdict, chargeVerdict } from '../../../src/rules/d3/charge.ts';
import { deploymentVerdict } from '../../../src/rules/d3/deployment.ts';
import { reachAlongPath } from '../../../src/rules/d3/movement.ts';
import { area, IN, rect, table } from '../fixtures.ts';

const ctxOf = (
  units: Parameters<typeof table>[0],
  terrain: Parameters<typeof table>[1] = [],
  options: Record<string, OptionValue> = {},
) => d3Context(table(units, terrain, 'd3'), options, EXACT_POLICY);

describe('deployment conventions', () => {
  const line = (id: string, x0: number, opts: Parameters<typeof rect>[5] = {}, y0 = 12) =>
    rect(id, x0, x0 + 6, y0, y0 + 2, { side: 'red', ...opts });
  it('a good deployment: cavalry on both ends, Highlanders on the right, guns in the first line', () => {
    const ctx = ctxOf([
      line('CavL', 0, { type: 'cavalry' }),
      line('Inf1', 8),
      line('Gun', 16, { type: 'artillery' }),
      line('Hld1', 24, { troop: 'highlander' }),
      line('Hld2', 32, { troop: 'highlander' }),
      line('CavR', 40, { type: 'cavalry' }),
      line('Res', 16, {}, 5),
    ]);
    const v = deploymentVerdict(ctx, 'red', 'south');
    expect(v.answer).toBe('yes');
    expect(v.facts.secondLine).toBe('Res');
  });
  it('cavalry inside a line, Highlanders on the left, a gun and a Highlander in the second line all fail', () => {
    const ctx = ctxOf([
      line('Hld1', 0, { troop: 'highlander' }),
      line('Cav', 8, { type: 'cavalry' }),
      line('Inf1', 16),
      line('Inf2', 24),
      line('Gun', 0, { type: 'artillery' }, 5),
      line('Hld2', 8, { troop: 'highlander' }, 5),
    ]);
    const v = deploymentVerdict(ctx, 'red', 'south');
    const failing = v.checks.filter((c) => c.answer === 'no').map((c) => c.question);
    expect(failing).toEqual(expect.arrayContaining(['artilleryFirst', 'cavalryEnds', 'highlanders']));
    expect(v.facts).toBeDefined();
    expect(v.checks.find((c) => c.question === 'highlanders')?.facts.sulky).toBe('Hld2');
  });
  it('"right" is seen facing the enemy: from the north edge the right is toward −x', () => {
    const d = 2000;
    const north = (id: string, x0: number, opts: Parameters<typeof rect>[5] = {}) =>
      rect(id, x0, x0 + 6, d - 14, d - 12, { side: 'red', headingDeg: 180, ...opts });
    const ok = ctxOf([north('Hld', 0, { troop: 'highlander' }), north('Inf', 8)]);
    expect(
      deploymentVerdict(ok, 'red', 'north').checks.find((c) => c.question === 'highlanders')?.answer,
    ).toBe('yes');
    const bad = ctxOf([north('Hld', 8, { troop: 'highlander' }), north('Inf', 0)]);
    expect(
      deploymentVerdict(bad, 'red', 'north').checks.find((c) => c.question === 'highlanders')?.answer,
    ).toBe('no');
  });
});

describe('musket details', () => {
  const S = (opts: Parameters<typeof rect>[5] = {}) =>
    rect('S', -2, 2, -1, 0, { side: 'red', files: 2, ...opts });
  const T = () => rect('T', -2, 2, 8, 10, { side: 'blue', headingDeg: 180, files: 2 });
  it('Highlanders and cavalry never shoot; a unit that moved may not', () => {
    const h = ctxOf([S({ troop: 'highlander' }), T()]);
    expect(musketVerdict(h, findUnit(h.state, 'S'), findUnit(h.state, 'T')).answer).toBe('no');
    const c = ctxOf([S({ type: 'cavalry' }), T()]);
    expect(musketVerdict(c, findUnit(c.state, 'S'), findUnit(c.state, 'T')).answer).toBe('no');
    const m = ctxOf([S(), T()]);
    expect(musketVerdict(m, findUnit(m.state, 'S'), findUnit(m.state, 'T'), true).answer).toBe('no');
    expect(musketVerdict(m, findUnit(m.state, 'S'), findUnit(m.state, 'T')).answer).toBe('yes');
  });
  it('buildings block sight; units do not unless the option says so', () => {
    const b = ctxOf([S(), T()], [area('house', 'building', -5, 5, 3, 5)]);
    expect(musketVerdict(b, findUnit(b.state, 'S'), findUnit(b.state, 'T')).answer).toBe('no');
    const u = ctxOf([S(), T(), rect('F', -5, 5, 3, 5, { side: 'red' })]);
    expect(musketVerdict(u, findUnit(u.state, 'S'), findUnit(u.state, 'T')).answer).toBe('yes');
    const u2 = d3Context(u.state, { sightBlockers: 'buildingsAndUnits' }, EXACT_POLICY);
    expect(musketVerdict(u2, findUnit(u.state, 'S'), findUnit(u.state, 'T')).answer).toBe('no');
  });
});

describe('charges and faces', () => {
  it('only cavalry and Highlanders charge; one attacker per defender', () => {
    const ctx = ctxOf([
      rect('Inf', -2, 2, -2, 0, { side: 'red' }),
      rect('Hld', 10, 14, -2, 0, { side: 'red', troop: 'highlander' }),
      rect('T', 4, 8, 6, 8, { side: 'blue', headingDeg: 180 }),
      rect('U', 10, 14, 6, 8, { side: 'blue', headingDeg: 180 }),
      rect('Friend', 10, 14, 8, 10, { side: 'red', headingDeg: 180 }),
    ]);
    expect(chargeVerdict(ctx, findUnit(ctx.state, 'Inf'), findUnit(ctx.state, 'T')).answer).toBe('no');
    expect(chargeVerdict(ctx, findUnit(ctx.state, 'Hld'), findUnit(ctx.state, 'T')).answer).toBe('yes');
    // U is already engaged by Friend (touching it).
    const v = chargeVerdict(ctx, findUnit(ctx.state, 'Hld'), findUnit(ctx.state, 'U'));
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/one attacker/);
  });
  it('flank and rear attacks earn +2 hits', () => {
    const ctx = ctxOf([
      rect('D', 0, 10, 0, 2, { side: 'blue' }),
      rect('A', -6, -4, 0, 2, { side: 'red', headingDeg: 270, type: 'cavalry' }),
    ]);
    expect(attackFaceVerdict(ctx, findUnit(ctx.state, 'A'), findUnit(ctx.state, 'D')).facts).toMatchObject({
      face: 'left',
      bonusHits: 2,
    });
  });
});

describe('rivers', () => {
  it('a river is crossed only at a ford or bridge, and crossing takes the whole move', () => {
    const terrain = [
      area('r', 'water', -50, 50, 5, 7, IN, { name: 'the burn' }),
      area('ford', 'road', -1, 1, 4, 8, IN, { name: 'the ford' }),
    ];
    const ctx = ctxOf([rect('S', -2, 2, -1, 0, { side: 'red' })], terrain);
    const s = findUnit(ctx.state, 'S');
    const away = reachAlongPath(ctx, s, [
      { x: 10 * IN, y: 0 },
      { x: 10 * IN, y: 10 * IN },
    ]);
    expect(away.stoppedBy).toMatch(/bridges and fords/);
    expect(away.reachIn).toBeCloseTo(5, 9);
    const atFord = reachAlongPath(ctx, s, [
      { x: 0, y: 5 * IN },
      { x: 0, y: 10 * IN },
    ]);
    expect(atFord.stoppedBy).toMatch(/whole move/);
  });
});

describe('the registered ruleset', () => {
  it('answers in inches with the field of fire as a check', () => {
    const state = table(
      [rect('S', -2, 2, -1, 0, { side: 'red' }), rect('T', 3, 9, 8, 10, { side: 'blue', headingDeg: 180 })],
      [],
      'd3',
    );
    const v = getRuleset('d3').ask(state, parseQuestion("can 'S' shoot 'T'?"), {}, EXACT_POLICY);
    expect(v).toMatchObject({ ruleset: 'd3', unit: 'in', answer: 'yes' });
    expect(v.checks.some((c) => c.question === 'fieldOfFire' && c.unit === 'deg')).toBe(true);
  });
});
