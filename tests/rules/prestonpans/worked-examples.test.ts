import { describe, expect, it } from 'vitest';
import { findUnit } from '../../../src/table/table-state.ts';
import { EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import { ppContext } from '../../../src/rules/prestonpans/context.ts';
import { inFrontVerdict } from '../../../src/rules/prestonpans/front.ts';
import { deploymentVerdict, marchVerdict, moveAllowance } from '../../../src/rules/prestonpans/movement.ts';
import {
  chargeVerdict,
  fleeFromChargeVerdict,
  pursuitVerdict,
} from '../../../src/rules/prestonpans/charge.ts';
import {
  cannonVerdict,
  fireDiscipline,
  musketVerdict,
  shootingMoraleTest,
} from '../../../src/rules/prestonpans/shooting.ts';
import { leadershipVerdict } from '../../../src/rules/prestonpans/command.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import { commander, rect, table } from '../fixtures.ts';

/** Spec §1.7: Hanoverian infantry H = [0,10]×[0,2] facing +y; Jacobites opposite, facing −y. */
const H = () => rect('H', 0, 10, 0, 2, { side: 'red', files: 5 });
const J = (id: string, x0: number, x1: number, y0: number, y1: number) =>
  rect(id, x0, x1, y0, y1, { side: 'blue', headingDeg: 180, files: 5 });
const ctxOf = (units: Parameters<typeof table>[0], options: Record<string, OptionValue> = {}) =>
  ppContext(table(units), options, EXACT_POLICY);

describe('PP-E1 / PP-E2: musket bands', () => {
  it('PP-E1: J1 7.0" away, in front under every reading, long range (hits on 6)', () => {
    const ctx = ctxOf([H(), J('J1', 2, 12, 9, 11)]);
    const v = musketVerdict(ctx, findUnit(ctx.state, 'H'), findUnit(ctx.state, 'J1'));
    expect(v.answer).toBe('yes');
    expect(v.value).toBeCloseTo(7.0, 9);
    expect(v.facts).toMatchObject({ band: 'long', hitOn: 6 });
    for (const reading of ['corridor', 'quarter', 'cone', 'halfPlane'] as const)
      expect(inFrontVerdict(ctx, findUnit(ctx.state, 'H'), findUnit(ctx.state, 'J1'), reading).answer).toBe(
        'yes',
      );
  });
  it('PP-E2: J2 4.5" away: short range, 5–6', () => {
    const ctx = ctxOf([H(), J('J2', 2, 12, 6.5, 8.5)]);
    const v = musketVerdict(ctx, findUnit(ctx.state, 'H'), findUnit(ctx.state, 'J2'));
    expect(v.value).toBeCloseTo(4.5, 9);
    expect(v.facts).toMatchObject({ band: 'short', hitOn: 5 });
  });
});

describe('PP-E3: the four readings of "in front" disagree', () => {
  const ctx = ctxOf([H(), J('J3', 14, 24, 4, 6)]);
  const h = findUnit(ctx.state, 'H');
  const j = findUnit(ctx.state, 'J3');
  it('is 4.47" away (corner (10,2) to (14,4))', () => {
    expect(musketVerdict(ctx, h, j).value).toBeCloseTo(Math.hypot(4, 2), 9);
  });
  it('F1 corridor: not in front', () => expect(inFrontVerdict(ctx, h, j, 'corridor').answer).toBe('no'));
  it('F2 BP quarter: only the corner (14,6) touches the 45° ray → borderline, leaning no', () => {
    const v = inFrontVerdict(ctx, h, j, 'quarter');
    expect(v.answer).toBe('borderline');
    expect(v.lean).toBe('no');
  });
  it('F3 cone from the front centre: minimum bearing 66.0° → not in front', () => {
    const v = inFrontVerdict(ctx, h, j, 'cone');
    expect(v.answer).toBe('no');
    expect(v.facts.minBearingDeg as number).toBeCloseTo(66.04, 1);
  });
  it('F4 half-plane: in front', () => expect(inFrontVerdict(ctx, h, j, 'halfPlane').answer).toBe('yes'));
});

describe('PP-E4: march move and the 8" rule', () => {
  it('nearest enemy at 8.0" → no march; 8.1" → march, infantry 12"', () => {
    const at8 = ctxOf([H(), J('J', 0, 10, 10, 12)]);
    expect(marchVerdict(at8, findUnit(at8.state, 'J')).answer).toBe('no');
    const at81 = ctxOf([H(), J('J', 0, 10, 10.1, 12.1)]);
    const v = marchVerdict(at81, findUnit(at81.state, 'J'));
    expect(v.answer).toBe('yes');
    expect(v.facts.allowanceIn).toBe(12);
    expect(moveAllowance(at81, findUnit(at81.state, 'J'), 'march')).toBe(12);
  });
});

describe('PP-E5: charge reach under the two movement tables, hidden until declared', () => {
  const units = [H(), J('J', 0, 10, 12, 14)]; // 10.0" gap
  it('before the charge is declared the distance is withheld', () => {
    const ctx = ctxOf(units);
    const v = chargeVerdict(ctx, findUnit(ctx.state, 'J'), findUnit(ctx.state, 'H'));
    expect(v.hiddenUntilDeclared).toBe(true);
    expect(v.value).toBeUndefined();
    expect(v.margin).toBeUndefined();
    expect(v.between).toBeUndefined();
    expect(v.answer).toBe('yes'); // may declare
  });
  it('table A (charge 12"): reaches', () => {
    const ctx = ctxOf(units);
    const v = chargeVerdict(ctx, findUnit(ctx.state, 'J'), findUnit(ctx.state, 'H'), true);
    expect(v.hiddenUntilDeclared).toBeUndefined();
    expect(v.answer).toBe('yes');
    expect(v.value).toBeCloseTo(10, 9);
    expect(v.limit).toBe(12);
  });
  it('table B (charge 6"): fails → normal 6" move, ends 4.0" away', () => {
    const ctx = ctxOf(units, { movementTable: 'sheet' });
    const v = chargeVerdict(ctx, findUnit(ctx.state, 'J'), findUnit(ctx.state, 'H'), true);
    expect(v.answer).toBe('no');
    expect(v.limit).toBe(6);
    expect(v.facts.failedMoveIn).toBe(6);
    expect(v.facts.failedEndGapIn as number).toBeCloseTo(4.0, 9);
  });
});

describe('PP-E6: flee from a charge', () => {
  const units = [H(), J('J', 0, 10, 10, 12)]; // chargers J 8" from H
  it('flee 5 → gap 13" > 12" → failed charge', () => {
    const ctx = ctxOf(units);
    const v = fleeFromChargeVerdict(ctx, findUnit(ctx.state, 'J'), findUnit(ctx.state, 'H'), 5);
    expect(v.value).toBeCloseTo(13, 9);
    expect(v.answer).toBe('no');
    expect(v.facts.destroyed).toBe(false);
  });
  it('flee 3 → gap 11" ≤ 12" → the fleeing unit is destroyed', () => {
    const ctx = ctxOf(units);
    const v = fleeFromChargeVerdict(ctx, findUnit(ctx.state, 'J'), findUnit(ctx.state, 'H'), 3);
    expect(v.value).toBeCloseTo(11, 9);
    expect(v.facts.destroyed).toBe(true);
  });
});

describe('PP-E7: pursuit', () => {
  const ctx = ctxOf([H()]);
  it('fled 7, pursuit 9 → caught; pursuit 7 → not caught ("greater than")', () => {
    expect(pursuitVerdict(ctx, 7, 9).answer).toBe('yes');
    expect(pursuitVerdict(ctx, 7, 7).answer).toBe('no');
  });
});

describe('PP-E8: cannon between friendly units', () => {
  const scene = (gap: number) => [
    rect('gun', -1, 1, -1, 0, { side: 'red', type: 'artillery', files: 1 }),
    rect('L', -12, -gap / 2, 4, 6, { side: 'red', files: 3 }),
    rect('R', gap / 2, 12, 4, 6, { side: 'red', files: 3 }),
    J('T', -5, 5, 30, 32),
  ];
  it('2.5" gap → forbidden', () => {
    const ctx = ctxOf(scene(2.5));
    const v = cannonVerdict(ctx, findUnit(ctx.state, 'gun'), findUnit(ctx.state, 'T'));
    expect(v.answer).toBe('no');
    expect(v.facts.gapIn as number).toBeCloseTo(2.5, 9);
  });
  it('3.0" gap → allowed', () => {
    const ctx = ctxOf(scene(3.0));
    const v = cannonVerdict(ctx, findUnit(ctx.state, 'gun'), findUnit(ctx.state, 'T'));
    expect(v.answer).toBe('yes');
    expect(v.facts.gapIn as number).toBeCloseTo(3.0, 9);
  });
});

describe('PP-E9: fire discipline', () => {
  it('10 bases: 1–3 close, 4 normal, 5–6 none', () => {
    expect([1, 2, 3, 4, 5, 6].map((d) => fireDiscipline(d, 10).result)).toEqual([
      'close',
      'close',
      'close',
      'normal',
      'none',
      'none',
    ]);
    expect(fireDiscipline(1, 10).hitOn).toBe(5);
    expect(fireDiscipline(4, 10).hitOn).toBe(6);
  });
  it('7 bases: 1 normal, 2+ none', () => {
    expect([1, 2, 6].map((d) => fireDiscipline(d, 7).result)).toEqual(['normal', 'none', 'none']);
  });
});

describe('PP-E10: deployment 18"', () => {
  it('17.5" → violation; 18.0" → OK', () => {
    const a = ctxOf([H(), J('J', 0, 10, 19.5, 21.5)]);
    expect(deploymentVerdict(a, 'blue').answer).toBe('no');
    expect(deploymentVerdict(a, 'blue').value).toBeCloseTo(17.5, 9);
    const b = ctxOf([H(), J('J', 0, 10, 20, 22)]);
    expect(deploymentVerdict(b, 'red').answer).toBe('yes');
  });
});

describe('PP-E11: the General within 6"', () => {
  it('5.9" → +2; 6.1" → +0', () => {
    const near = ctxOf([H(), commander('Cope', 5, 2 + 5.9 + 0, { side: 'red', general: true })]);
    // The commander's base centre is the measuring point: 5.9" beyond the front edge.
    const v = leadershipVerdict(near, findUnit(near.state, 'H'));
    expect(v.value).toBeCloseTo(5.9, 9);
    expect(v.facts.generalBonus).toBe(2);
    const far = ctxOf([H(), commander('Cope', 5, 2 + 6.1, { side: 'red', general: true })]);
    expect(leadershipVerdict(far, findUnit(far.state, 'H')).facts.generalBonus).toBe(0);
  });
});

describe('PP-E12: shooting morale test at 25%', () => {
  it('20 models losing 5 → test; losing 4 → none', () => {
    expect(shootingMoraleTest(5, 20)).toBe(true);
    expect(shootingMoraleTest(4, 20)).toBe(false);
  });
});
