import { describe, expect, it } from 'vitest';
import { findUnit } from '../../../src/table/table-state.ts';
import { EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import { getRuleset, parseQuestion } from '../../../src/rules/index.ts';
import { ppContext } from '../../../src/rules/prestonpans/context.ts';
import { approachVerdict } from '../../../src/rules/prestonpans/movement.ts';
import { attackFaceVerdict, pursuitVerdict } from '../../../src/rules/prestonpans/charge.ts';
import {
  cannonVerdict,
  frontRankBases,
  musketBand,
  musketVerdict,
} from '../../../src/rules/prestonpans/shooting.ts';
import { leadershipVerdict } from '../../../src/rules/prestonpans/command.ts';
import { commander, IN, rect, table } from '../fixtures.ts';

const H = () => rect('H', 0, 10, 0, 2, { side: 'red', files: 5 });

describe('the 1" approach rule', () => {
  const ctx = ppContext(
    table([H(), rect('J', 0, 10, 10, 12, { side: 'blue', headingDeg: 180 })]),
    {},
    EXACT_POLICY,
  );
  const j = findUnit(ctx.state, 'J');
  it('a normal move ending 1.0" away is legal, 0.9" is not; a charge may close', () => {
    expect(approachVerdict(ctx, j, { x: 0, y: -7 * IN }).answer).toBe('yes');
    expect(approachVerdict(ctx, j, { x: 0, y: -7.1 * IN }).answer).toBe('no');
    expect(approachVerdict(ctx, j, { x: 0, y: -8 * IN }, true).answer).toBe('yes');
  });
  it('wholePath catches a move that passes the enemy and ends clear', () => {
    // Slide sideways past H's front at 0.5" then away: end is clear, the path is not.
    const c2 = ppContext(
      table([H(), rect('K', -12, -2, 2.5, 4.5, { side: 'blue', headingDeg: 180 })]),
      { approachCheck: 'wholePath' },
      EXACT_POLICY,
    );
    const k = findUnit(c2.state, 'K');
    expect(approachVerdict(ppContext(c2.state, {}, EXACT_POLICY), k, { x: 24 * IN, y: 0 }).answer).toBe(
      'yes',
    );
    expect(approachVerdict(c2, k, { x: 24 * IN, y: 0 }).answer).toBe('no');
  });
});

describe('flank and rear charges', () => {
  it('front → all bases; flank → 2 bases; rear → none', () => {
    const mk = (x0: number, x1: number, y0: number, y1: number, h: 0 | 90 | 180 | 270) => {
      const ctx = ppContext(
        table([H(), rect('C', x0, x1, y0, y1, { side: 'blue', headingDeg: h, files: 2 })]),
        {},
        EXACT_POLICY,
      );
      return attackFaceVerdict(ctx, findUnit(ctx.state, 'C'), findUnit(ctx.state, 'H')).facts;
    };
    expect(mk(2, 8, 6, 8, 180)).toMatchObject({ face: 'front', fightingBasesFirstRound: 5 });
    expect(mk(-8, -6, 0, 2, 270)).toMatchObject({ face: 'left', fightingBasesFirstRound: 2 });
    expect(mk(2, 8, -6, -4, 0)).toMatchObject({ face: 'rear', fightingBasesFirstRound: 0 });
  });
});

describe('shooting details', () => {
  it('stand-and-shoot opens the 3" close band (4+ by default, 5+ by option)', () => {
    const ctx = ppContext(table([H()]), {}, EXACT_POLICY);
    expect(musketBand(ctx, 2.5, true)).toEqual({ band: 'close', hitOn: 4 });
    expect(musketBand(ctx, 2.5, false)).toEqual({ band: 'short', hitOn: 5 });
    expect(musketBand(ppContext(ctx.state, { closeHitOn: 5 }), 2.5, true).hitOn).toBe(5);
    expect(musketBand(ppContext(ctx.state, { rangeBands: 'sheetOnly' }), 2.5, true)).toEqual({
      band: 'long',
      hitOn: 6,
    });
    expect(musketBand(ctx, 12.01)).toEqual({ band: 'out' });
  });
  it('dice come from the front rank: a 2-rank line of 10 bases has 5 front bases, 10 dice', () => {
    const ctx = ppContext(
      table([
        rect('H2', 0, 10, 0, 4, { side: 'red', files: 5, ranks: 2 }),
        rect('J', 0, 10, 10, 12, { side: 'blue', headingDeg: 180 }),
      ]),
      {},
      EXACT_POLICY,
    );
    expect(frontRankBases(findUnit(ctx.state, 'H2'))).toBe(5);
    expect(musketVerdict(ctx, findUnit(ctx.state, 'H2'), findUnit(ctx.state, 'J')).facts.dice).toBe(10);
  });
  it('cavalry do not shoot; units in melee neither shoot nor are shot', () => {
    const ctx = ppContext(
      table([
        rect('Cav', 0, 10, 0, 2, { side: 'red', type: 'cavalry' }),
        rect('J', 0, 10, 6, 8, { side: 'blue', headingDeg: 180, engaged: true }),
      ]),
      {},
      EXACT_POLICY,
    );
    const v = musketVerdict(ctx, findUnit(ctx.state, 'Cav'), findUnit(ctx.state, 'J'));
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/no muskets/);
    expect(v.reasons.join(' ')).toMatch(/melee/);
  });
  it('a cannon may not fire over any unit (or only friends, by option)', () => {
    const units = [
      rect('gun', -1, 1, -1, 0, { side: 'red', type: 'artillery', files: 1 }),
      rect('E', -3, 3, 10, 12, { side: 'blue', headingDeg: 180, files: 3 }),
      rect('T', -5, 5, 30, 32, { side: 'blue', headingDeg: 180 }),
    ];
    const ctx = ppContext(table(units), {}, EXACT_POLICY);
    expect(cannonVerdict(ctx, findUnit(ctx.state, 'gun'), findUnit(ctx.state, 'T')).answer).toBe('no');
    const friendsOnly = ppContext(ctx.state, { cannonBlockedBy: 'friendsOnly' }, EXACT_POLICY);
    expect(cannonVerdict(friendsOnly, findUnit(ctx.state, 'gun'), findUnit(ctx.state, 'T')).answer).toBe(
      'yes',
    );
  });
  it('fire does not slip through the crack between two bases of a unit in contact', () => {
    // E's two bases meet on the line of fire; then they stand 1 mm apart, the line of fire
    // through the crack (what a camera's pose noise reports of bases in contact). Either way
    // the line passes over E.
    for (const crackMm of [0, 1]) {
      const e = rect('E', -2, 2, 10, 12, { side: 'blue', headingDeg: 180, files: 2 });
      const bases = e.bases.map((b, i) =>
        b.pose ? { ...b, pose: { ...b.pose, x: b.pose.x + (i === 0 ? -crackMm : crackMm) / 2 } } : b,
      );
      const units = [
        rect('gun', -1, 1, -1, 0, { side: 'red', type: 'artillery', files: 1 }),
        { ...e, bases },
        rect('T', -5, 5, 30, 32, { side: 'blue', headingDeg: 180 }),
      ];
      const ctx = ppContext(table(units), {}, EXACT_POLICY);
      const v = cannonVerdict(ctx, findUnit(ctx.state, 'gun'), findUnit(ctx.state, 'T'));
      const over = v.checks.find((c) => c.question === 'overUnits');
      expect(over?.answer).toBe('no');
      // Clear of E only by shifting the line of fire past either end of it, 2" away.
      expect(over?.moveMm).toBeGreaterThan(1.9 * IN);
    }
  });
  it('frontCentre measuring changes the range', () => {
    const units = [H(), rect('J', 12, 22, 6, 8, { side: 'blue', headingDeg: 180 })];
    const ctx = ppContext(table(units), {}, EXACT_POLICY);
    const edge = musketVerdict(ctx, findUnit(ctx.state, 'H'), findUnit(ctx.state, 'J')).value as number;
    const fc = musketVerdict(
      ppContext(ctx.state, { measureFrom: 'frontCentre' }, EXACT_POLICY),
      findUnit(ctx.state, 'H'),
      findUnit(ctx.state, 'J'),
    ).value as number;
    expect(edge).toBeCloseTo(Math.hypot(2, 4), 9);
    expect(fc).toBeCloseTo(Math.hypot(7, 4), 9);
  });
});

describe('leadership and pursuit options', () => {
  it('a commander in contact gives +1; any commander counts as General by option', () => {
    const ctx = ppContext(table([H(), commander('Gardiner', 11, 1, { side: 'red' })]), {}, EXACT_POLICY);
    const v = leadershipVerdict(ctx, findUnit(ctx.state, 'H'));
    expect(v.facts).toMatchObject({ attachedBonus: 1, generalBonus: 0 });
    const any = leadershipVerdict(
      ppContext(ctx.state, { generalIs: 'anyCommander' }, EXACT_POLICY),
      findUnit(ctx.state, 'H'),
    );
    expect(any.facts).toMatchObject({ attachedBonus: 1, generalBonus: 2, bonus: 3 });
  });
  it('gap reading of pursuit compares the roll with the real gap', () => {
    const ctx = ppContext(table([H()]), { pursuitCatch: 'gap' }, EXACT_POLICY);
    expect(pursuitVerdict(ctx, 7, 7, 6.5).answer).toBe('yes');
    expect(pursuitVerdict(ctx, 7, 9, 9.5).answer).toBe('no');
  });
});

describe('the registered ruleset', () => {
  const state = table([H(), rect('Camerons', 0, 10, 12, 14, { side: 'blue', headingDeg: 180 })]);
  const pp = getRuleset('prestonpans');
  it('withholds the charge distance until the charge is declared', () => {
    const asked = pp.ask(state, parseQuestion("can 'Camerons' charge 'H'?"), {}, EXACT_POLICY);
    expect(asked.hiddenUntilDeclared).toBe(true);
    expect(asked.value).toBeUndefined();
    const declared = pp.ask(state, parseQuestion("'Camerons' declares a charge on 'H'"), {}, EXACT_POLICY);
    expect(declared.hiddenUntilDeclared).toBeUndefined();
    expect(declared.value).toBeCloseTo(10, 9);
    expect(declared.answer).toBe('yes');
  });
  it('answers shooting in inches', () => {
    const v = pp.ask(state, parseQuestion("can 'H' shoot 'Camerons'?"), {}, EXACT_POLICY);
    expect(v).toMatchObject({ ruleset: 'prestonpans', unit: 'in', answer: 'yes' });
    expect(v.value).toBeCloseTo(10, 9);
  });
});
