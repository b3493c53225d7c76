import { describe, expect, it } from 'vitest';
import { findUnit } from '../../../src/table/table-state.ts';
import { EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import { getRuleset, parseQuestion } from '../../../src/rules/index.ts';
import { otsContext } from '../../../src/rules/oer-the-sea/context.ts';
import { aheadVerdict, artilleryVerdict, smallArmsVerdict } from '../../../src/rules/oer-the-sea/fire.ts';
import { meleeResult, standsInContact, supportingStands } from '../../../src/rules/oer-the-sea/charge.ts';
import { groupAllowance, groupVerdict, moveAllowance } from '../../../src/rules/oer-the-sea/movement.ts';
import { CM, rect, table } from '../fixtures.ts';

const c = (o: Parameters<typeof rect>[5] = {}) => ({ scale: CM, ...o });
const ctxOf = (units: Parameters<typeof table>[0], options: Record<string, OptionValue> = {}) =>
  otsContext(table(units, [], 'oer-the-sea'), options, EXACT_POLICY);

describe('"directly ahead" readings', () => {
  // A target to the right, overlapping the frontage strip by 2 cm but missing the centre line.
  const units = [
    rect('S', 0, 12, -2, 0, c({ side: 'red', files: 3 })),
    rect('T', 10, 22, 20, 24, c({ side: 'blue', headingDeg: 180, files: 3 })),
  ];
  it('corridor: yes; centre ray: no', () => {
    const ctx = ctxOf(units);
    const s = findUnit(ctx.state, 'S');
    const t = findUnit(ctx.state, 'T');
    expect(aheadVerdict(ctx, s, t, 'corridor').answer).toBe('yes');
    expect(aheadVerdict(ctx, s, t, 'centreRay').answer).toBe('no');
    expect(aheadVerdict(ctx, s, t, 'standCorridors').answer).toBe('yes');
  });
  it('stand corridors differ from the frontage strip when the stands are spread', () => {
    // Two stands 4 cm wide with a 6 cm gap; the target sits in the gap's strip only.
    const spread = [
      rect('A', 0, 4, -2, 0, c({ side: 'red', files: 1 })),
      rect('B', 10, 14, -2, 0, c({ side: 'red', files: 1 })),
    ];
    const state = table(
      [
        { ...spread[0]!, id: 'S', name: 'S', bases: [...spread[0]!.bases, ...spread[1]!.bases] },
        rect('T', 5, 9, 20, 24, c({ side: 'blue', headingDeg: 180, files: 1 })),
      ],
      [],
      'oer-the-sea',
    );
    const ctx = otsContext(state, {}, EXACT_POLICY);
    expect(aheadVerdict(ctx, findUnit(state, 'S'), findUnit(state, 'T'), 'corridor').answer).toBe('yes');
    expect(aheadVerdict(ctx, findUnit(state, 'S'), findUnit(state, 'T'), 'standCorridors').answer).toBe('no');
  });
});

describe('fire restrictions', () => {
  it('mounted units do not fire unless Light Horse', () => {
    const ctx = ctxOf([
      rect('K', 0, 12, -2, 0, c({ side: 'red', type: 'cavalry' })),
      rect('T', 0, 12, 10, 12, c({ side: 'blue', headingDeg: 180 })),
    ]);
    expect(smallArmsVerdict(ctx, findUnit(ctx.state, 'K'), findUnit(ctx.state, 'T')).answer).toBe('no');
    const lh = ctxOf([
      rect('K', 0, 12, -2, 0, c({ side: 'red', type: 'cavalry', troop: 'light horse' })),
      rect('T', 0, 12, 10, 12, c({ side: 'blue', headingDeg: 180 })),
    ]);
    expect(smallArmsVerdict(lh, findUnit(lh.state, 'K'), findUnit(lh.state, 'T')).answer).toBe('yes');
  });
  it('a gun must first engage a visible enemy within short range; siege guns never fire at units', () => {
    const units = [
      rect('G', 0, 4, -2, 0, c({ side: 'red', type: 'artillery', files: 1, weapon: 'light gun' })),
      rect('Near', 30, 42, 30, 34, c({ side: 'blue', headingDeg: 180 })),
      rect('Far', -10, 2, 90, 94, c({ side: 'blue', headingDeg: 180 })),
    ];
    const ctx = ctxOf(units);
    const g = findUnit(ctx.state, 'G');
    const far = artilleryVerdict(ctx, g, findUnit(ctx.state, 'Far'));
    expect(far.facts.band).toBe('long');
    expect(far.answer).toBe('no');
    expect(far.reasons.join(' ')).toMatch(/Near is within short range/);
    expect(artilleryVerdict(ctx, g, findUnit(ctx.state, 'Near')).answer).toBe('yes');
    const siege = ctxOf([
      rect('G', 0, 4, -2, 0, c({ side: 'red', type: 'artillery', files: 1, weapon: 'siege gun' })),
      units[1]!,
    ]);
    expect(artilleryVerdict(siege, findUnit(siege.state, 'G'), findUnit(siege.state, 'Near')).answer).toBe(
      'no',
    );
  });
  it('a mortar refuses a target under its minimum', () => {
    const ctx = ctxOf([
      rect('M', 0, 4, -2, 0, c({ side: 'red', type: 'artillery', files: 1, weapon: 'light mortar' })),
      rect('T', -4, 8, 18, 22, c({ side: 'blue', headingDeg: 180 })),
    ]);
    const v = artilleryVerdict(ctx, findUnit(ctx.state, 'M'), findUnit(ctx.state, 'T'));
    expect(v.facts.band).toBe('tooClose');
    expect(v.answer).toBe('no');
  });
});

describe('artillery options (A-OTS-3, A-OTS-6)', () => {
  // Near is within short range but off to the side; Far is straight ahead at long range.
  const units = [
    rect('G', 0, 4, -2, 0, c({ side: 'red', type: 'artillery', files: 1, weapon: 'light gun' })),
    rect('Near', 30, 42, 30, 34, c({ side: 'blue', headingDeg: 180 })),
    rect('Far', -10, 2, 90, 94, c({ side: 'blue', headingDeg: 180 })),
  ];
  it('artilleryArc=allRound: the side threat must be engaged first; ahead: only what is ahead counts', () => {
    const round = ctxOf(units);
    const ahead = ctxOf(units, { artilleryArc: 'ahead' });
    const shoot = (ctx: typeof round, t: string) =>
      artilleryVerdict(ctx, findUnit(ctx.state, 'G'), findUnit(ctx.state, t));
    expect(shoot(round, 'Far').answer).toBe('no');
    expect(shoot(round, 'Near').answer).toBe('yes');
    const far = shoot(ahead, 'Far');
    expect(far.answer).toBe('yes');
    expect(far.checks.find((k) => k.question === 'priority')?.reasons[0]).toMatch(/directly ahead/);
    const near = shoot(ahead, 'Near');
    expect(near.answer).toBe('no');
    expect(near.checks.find((k) => k.question === 'ahead')?.answer).toBe('no');
  });
  it('mortarMinimum: exactly 21 cm is allowed when inclusive, refused when exclusive', () => {
    const at21 = [
      rect('M', 0, 4, -2, 0, c({ side: 'red', type: 'artillery', files: 1, weapon: 'light mortar' })),
      rect('T', -4, 8, 21, 25, c({ side: 'blue', headingDeg: 180 })),
    ];
    const shoot = (o: Record<string, OptionValue>) => {
      const ctx = ctxOf(at21, o);
      return artilleryVerdict(ctx, findUnit(ctx.state, 'M'), findUnit(ctx.state, 'T'));
    };
    expect(shoot({}).answer).toBe('yes');
    expect(shoot({}).facts.band).toBe('short');
    expect(shoot({ mortarMinimum: 'exclusive' }).answer).toBe('no');
  });
});

describe('melee geometry', () => {
  it('counts stands in contact and supporting stands behind them', () => {
    const ctx = ctxOf([
      rect('J', 0, 12, 0, 4, c({ side: 'blue', files: 3, ranks: 2 })),
      rect('G', 0, 8, 4, 6, c({ side: 'red', headingDeg: 180, files: 2 })),
    ]);
    const j = findUnit(ctx.state, 'J');
    const g = findUnit(ctx.state, 'G');
    expect(standsInContact(j, g)).toBe(3);
    // Rear rank: the three stands behind touch engaged stands and not the enemy.
    expect(supportingStands(j, g)).toBe(3);
    expect(standsInContact(g, j)).toBe(2);
    expect(supportingStands(g, j)).toBe(0);
  });
  it('a draw sends both back by the hits each took', () => {
    expect(meleeResult({ hits: 4, supports: 1 }, { hits: 2, supports: 3 })).toEqual({
      winner: 'draw',
      driveA: 2,
      driveB: 4,
    });
  });
});

describe('movement and groups', () => {
  it('difficult ground: half rate, closed to artillery and cavalry except Light Horse; groups move at the slowest', () => {
    const ctx = ctxOf([
      rect('I', 0, 12, 0, 4, c({ side: 'red' })),
      rect('A', 12, 16, 0, 2, c({ side: 'red', type: 'artillery', files: 1 })),
      rect('K', 30, 42, 0, 4, c({ side: 'red', type: 'cavalry' })),
      rect('L', 50, 62, 0, 4, c({ side: 'red', type: 'cavalry', troop: 'light horse' })),
    ]);
    const u = (id: string) => findUnit(ctx.state, id);
    expect(moveAllowance(u('I'), { difficult: true })?.cm).toBe(10);
    expect(moveAllowance(u('A'), { difficult: true })).toBeUndefined();
    expect(moveAllowance(u('K'), { difficult: true })).toBeUndefined();
    expect(moveAllowance(u('L'), { difficult: true })?.cm).toBe(15);
    expect(groupAllowance([u('I'), u('A')])).toBe(10);
    expect(groupVerdict([u('I'), u('A')]).answer).toBe('yes');
    expect(groupVerdict([u('I'), u('K')]).answer).toBe('no');
  });
});

describe('the registered ruleset', () => {
  it('answers in centimetres', () => {
    const state = table(
      [
        rect('S', 0, 12, -2, 0, c({ side: 'red' })),
        rect('T', 0, 12, 10, 12, c({ side: 'blue', headingDeg: 180 })),
      ],
      [],
      'oer-the-sea',
    );
    const v = getRuleset('oer-the-sea').ask(state, parseQuestion("can 'S' shoot 'T'?"), {}, EXACT_POLICY);
    expect(v).toMatchObject({ ruleset: 'oer-the-sea', unit: 'cm', answer: 'yes', limit: 30 });
    expect(v.value).toBeCloseTo(10, 9);
    expect(v.facts.band).toBe('short');
  });
});
