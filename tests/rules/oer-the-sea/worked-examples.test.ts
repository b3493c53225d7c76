import { describe, expect, it } from 'vitest';
import { findUnit } from '../../../src/table/table-state.ts';
import { EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import { otsContext } from '../../../src/rules/oer-the-sea/context.ts';
import {
  chargeContacts,
  chargeVerdict,
  driveBack,
  meleeResult,
} from '../../../src/rules/oer-the-sea/charge.ts';
import { smallArmsVerdict } from '../../../src/rules/oer-the-sea/fire.ts';
import { initiativeVerdict } from '../../../src/rules/oer-the-sea/initiative.ts';
import {
  evadeVerdict,
  independentCompanyVerdict,
  moveAllowance,
} from '../../../src/rules/oer-the-sea/movement.ts';
import { findGun, gunBand, musketBand, type GunSpec } from '../../../src/rules/oer-the-sea/tables.ts';
import { area, CM, rect, table } from '../fixtures.ts';

const c = (o: Parameters<typeof rect>[5] = {}) => ({ scale: CM, ...o });
const ctxOf = (
  units: Parameters<typeof table>[0],
  terrain: Parameters<typeof table>[1] = [],
  options: Record<string, OptionValue> = {},
) => otsContext(table(units, terrain, 'oer-the-sea'), options, EXACT_POLICY);
const gun = (t: string): GunSpec => findGun(t) as GunSpec;

describe('OTS-E1: charge contact with drive-back', () => {
  it('18 cm + 0–2 hits ≤ 20 → contact; 3 hits → 21 > 20 → none', () => {
    expect([0, 1, 2, 3].map((h) => chargeContacts(18, h, 20))).toEqual([true, true, true, false]);
    const ctx = ctxOf([
      rect('J', 0, 12, 0, 4, c({ side: 'blue', files: 3 })),
      rect('G', 0, 12, 22, 26, c({ side: 'red', headingDeg: 180, files: 3 })),
    ]);
    const j = findUnit(ctx.state, 'J');
    const g = findUnit(ctx.state, 'G');
    const two = chargeVerdict(ctx, j, g, 2);
    expect(two.value).toBeCloseTo(20, 9);
    expect(two.answer).toBe('yes');
    const three = chargeVerdict(ctx, j, g, 3);
    expect(three.value).toBeCloseTo(21, 9);
    expect(three.answer).toBe('no');
  });
});

describe('OTS-E2 … OTS-E5: range tables', () => {
  it('OTS-E2: musket at 12 / 15.0 / 22 / 31 cm → short / short / long / out', () => {
    expect([12, 15.0, 22, 31].map(musketBand)).toEqual(['short', 'short', 'long', 'out']);
  });
  it('OTS-E3: light gun at 40 / 41 / 85 / 125 → short / medium / long / out', () => {
    expect([40, 41, 85, 125].map((d) => gunBand(gun('light gun'), d))).toEqual([
      'short',
      'medium',
      'long',
      'out',
    ]);
  });
  it('OTS-E4: medium gun at 125 → long; heavy gun at 61 → medium, 185 → out', () => {
    expect(gunBand(gun('medium gun'), 125)).toBe('long');
    expect(gunBand(gun('heavy gun'), 61)).toBe('medium');
    expect(gunBand(gun('heavy gun'), 185)).toBe('out');
  });
  it('OTS-E5: light mortar 18 illegal / 30 short; heavy mortar 28 illegal / 45 short', () => {
    expect(gunBand(gun('light mortar'), 18)).toBe('tooClose');
    expect(gunBand(gun('light mortar'), 30)).toBe('short');
    expect(gunBand(gun('heavy mortar'), 28)).toBe('tooClose');
    expect(gunBand(gun('heavy mortar'), 45)).toBe('short');
  });
});

describe('OTS-E6: drive-back from fire', () => {
  const ctx = ctxOf([
    rect('F', 0, 12, 0, 4, c({ side: 'red', files: 3 })),
    rect('U', 0, 12, 20, 24, c({ side: 'blue', headingDeg: 180, files: 3, strength: 3 })),
  ]);
  const f = findUnit(ctx.state, 'F');
  const u = findUnit(ctx.state, 'U');
  it('Strength 3, 4 hits → 4 cm away from the firer, confused, no morale test', () => {
    const d = driveBack(ctx, u, f, 4);
    expect(d.cm).toBe(4);
    expect(d.move.y).toBeCloseTo(40, 9);
    expect(d.move.x).toBeCloseTo(0, 9);
    expect(d).toMatchObject({ confused: true, moraleTest: false });
  });
  it('7 hits → 7 cm, confused and a morale test', () => {
    expect(driveBack(ctx, u, f, 7)).toMatchObject({ cm: 7, confused: true, moraleTest: true });
  });
});

describe('OTS-E7: initiative needs sight within 30 cm', () => {
  const me = () => rect('U', 0, 12, 0, 4, c({ side: 'red', files: 3 }));
  const enemyAt = (gap: number) =>
    rect('E', 0, 12, 4 + gap, 8 + gap, c({ side: 'blue', headingDeg: 180, files: 3 }));
  it('29.5 cm visible → yes; 30.5 → no', () => {
    const a = ctxOf([me(), enemyAt(29.5)]);
    expect(initiativeVerdict(a, findUnit(a.state, 'U')).answer).toBe('yes');
    const b = ctxOf([me(), enemyAt(30.5)]);
    expect(initiativeVerdict(b, findUnit(b.state, 'U')).answer).toBe('no');
  });
  it('20 cm but hidden behind a building → no', () => {
    const ctx = ctxOf([me(), enemyAt(20)], [area('house', 'building', -20, 32, 10, 16, CM)]);
    const v = initiativeVerdict(ctx, findUnit(ctx.state, 'U'));
    expect(v.answer).toBe('no');
  });
});

describe('OTS-E8: nearest target and "directly ahead"', () => {
  const units = [
    rect('S', 0, 12, -2, 0, c({ side: 'red', files: 3 })),
    rect('T1', 14, 26, 20, 24, c({ side: 'blue', headingDeg: 180, files: 3 })),
    rect('T2', 4, 16, 25, 29, c({ side: 'blue', headingDeg: 180, files: 3 })),
  ];
  it('H1 (default): fire at T2, long range; T1 is nearer (20.1 cm) but not ahead', () => {
    const ctx = ctxOf(units);
    const s = findUnit(ctx.state, 'S');
    const v = smallArmsVerdict(ctx, s, findUnit(ctx.state, 'T2'));
    expect(v.answer).toBe('yes');
    expect(v.value).toBeCloseTo(25.0, 9);
    expect(v.facts.band).toBe('long');
    const t1 = smallArmsVerdict(ctx, s, findUnit(ctx.state, 'T1'));
    expect(t1.answer).toBe('no');
    expect(t1.value).toBeCloseTo(Math.hypot(2, 20), 9);
  });
  it('H2: the nearest visible enemy is T1, not ahead → no fire at all', () => {
    const ctx = ctxOf(units, [], { targetChoice: 'nearestVisible' });
    const s = findUnit(ctx.state, 'S');
    expect(smallArmsVerdict(ctx, s, findUnit(ctx.state, 'T2')).answer).toBe('no');
    expect(smallArmsVerdict(ctx, s, findUnit(ctx.state, 'T1')).answer).toBe('no');
  });
});

describe('OTS-E9: columns on a road', () => {
  it('infantry 30, cavalry 45, artillery 15 cm per order', () => {
    const ctx = ctxOf([
      rect('I', 0, 4, 0, 12, c({ side: 'red', files: 1, ranks: 3, formation: 'marchColumn' })),
      rect(
        'K',
        10,
        14,
        0,
        12,
        c({ side: 'red', type: 'cavalry', files: 1, ranks: 3, formation: 'marchColumn' }),
      ),
      rect(
        'A',
        20,
        24,
        0,
        12,
        c({ side: 'red', type: 'artillery', files: 1, ranks: 3, formation: 'marchColumn' }),
      ),
    ]);
    expect(['I', 'K', 'A'].map((id) => moveAllowance(findUnit(ctx.state, id), { road: true })?.cm)).toEqual([
      30, 45, 15,
    ]);
  });
});

describe('OTS-E10: melee result', () => {
  it('Jacobites 5 hits + 3 supports = 8; Government 3 + 2 = 5 → Government driven back 3 cm', () => {
    expect(meleeResult({ hits: 5, supports: 3 }, { hits: 3, supports: 2 })).toEqual({
      winner: 'a',
      driveA: 0,
      driveB: 3,
    });
  });
});

describe('OTS-E11: evade', () => {
  it('cavalry evading 30 cm from E1, ending 35 cm from E1 and 12 cm from E2 → illegal', () => {
    const ctx = ctxOf([
      rect('C', 0, 4, 0, 2, c({ side: 'red', type: 'cavalry', files: 1 })),
      rect('E1', 0, 4, -7, -5, c({ side: 'blue', files: 1 })),
      rect('E2', 0, 4, 44, 46, c({ side: 'blue', headingDeg: 180, files: 1 })),
    ]);
    const v = evadeVerdict(ctx, findUnit(ctx.state, 'C'), { x: 0, y: 300 }, findUnit(ctx.state, 'E1'));
    expect(v.answer).toBe('no');
    const end = v.checks.find((x) => x.question === 'evadeEnd');
    expect(end?.answer).toBe('no');
    expect(end?.reasons[0]).toMatch(/12\.0 cm from E2 but 35\.0 cm from E1/);
    expect(v.checks.find((x) => x.question === 'evadeLength')?.answer).toBe('yes');
    expect(v.checks.find((x) => x.question === 'evadeDirection')?.answer).toBe('yes');
  });
});

describe('OTS-E12: independent companies', () => {
  it('nearest-neighbour gaps 4.5, 5.0, 5.2 cm → the third stand breaks the 5 cm rule', () => {
    // Stands 4 × 2 cm in a row: A [0,4], B [8.5,12.5] (4.5 from A), C [17.5,21.5] (5.0 from B), D [26.7,30.7] (5.2 from C).
    const stand = (id: string, x0: number) => rect(id, x0, x0 + 4, 0, 2, c({ side: 'red', files: 1 }));
    const ok = ctxOf([stand('A', 0), stand('B', 8.5), stand('C', 17.5)]);
    const v1 = independentCompanyVerdict(ok, ok.state.units);
    expect(v1.answer).toBe('yes');
    expect(v1.value).toBeCloseTo(5.0, 9);
    const bad = ctxOf([stand('A', 0), stand('B', 8.5), stand('C', 17.5), stand('D', 26.7)]);
    const v2 = independentCompanyVerdict(bad, bad.state.units);
    expect(v2.answer).toBe('no');
    expect(v2.value).toBeCloseTo(5.2, 9);
    expect(v2.facts.loneliest).toMatch(/^D/);
  });
});
