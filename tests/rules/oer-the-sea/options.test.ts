import { describe, expect, it } from 'vitest';
import { findUnit } from '../../../src/table/table-state.ts';
import { EXACT_POLICY, type ThresholdPolicy } from '../../../src/rules/engine/threshold.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import { driveDirection } from '../../../src/rules/oer-the-sea/charge.ts';
import { otsContext } from '../../../src/rules/oer-the-sea/context.ts';
import { seeCheck } from '../../../src/rules/oer-the-sea/fire.ts';
import { evadeVerdict } from '../../../src/rules/oer-the-sea/movement.ts';
import { area, CM, rect, table } from '../fixtures.ts';

/** O'er the Sea options read both ways (spec §3.6), positions in centimetres. */
type Opts = Record<string, OptionValue>;
const c = (o: Parameters<typeof rect>[5] = {}) => ({ scale: CM, ...o });
const ctxOf = (
  units: Parameters<typeof table>[0],
  o: Opts = {},
  terrain: Parameters<typeof table>[1] = [],
  policy: ThresholdPolicy = EXACT_POLICY,
) => otsContext(table(units, terrain, 'oer-the-sea'), o, policy);

describe('driveBackFrom (A-OTS-9)', () => {
  // T = [0,4]×[10,12] facing −y, fired on by F = [10,14]×[0,2].
  const units = [
    rect('T', 0, 4, 10, 12, c({ side: 'blue', headingDeg: 180, files: 1 })),
    rect('F', 10, 14, 0, 2, c({ side: 'red', files: 1 })),
  ];
  const dir = (o: Opts) => {
    const ctx = ctxOf(units, o);
    return driveDirection(ctx, findUnit(ctx.state, 'T'), findUnit(ctx.state, 'F'));
  };
  it('centres (12,1) → (2,11): along (−1,1); nearest points (10,2) → (4,10): (−6,8); straight back: +y', () => {
    const a = dir({});
    expect(a.x).toBeCloseTo(-Math.SQRT1_2, 9);
    expect(a.y).toBeCloseTo(Math.SQRT1_2, 9);
    const n = dir({ driveBackFrom: 'nearestPoints' });
    expect(n.x).toBeCloseTo(-0.6, 9);
    expect(n.y).toBeCloseTo(0.8, 9);
    const s = dir({ driveBackFrom: 'straightBack' });
    expect(s.x).toBeCloseTo(0, 9);
    expect(s.y).toBeCloseTo(1, 9);
  });
});

describe('sightBlockers (A-OTS-11)', () => {
  const S = () => rect('S', 0, 4, 0, 2, c({ side: 'red', files: 1 }));
  const T = () => rect('T', 0, 4, 20, 22, c({ side: 'blue', headingDeg: 180, files: 1 }));
  const see = (units: Parameters<typeof table>[0], o: Opts, terrain: Parameters<typeof table>[1] = []) => {
    const ctx = ctxOf(units, o, terrain);
    return seeCheck(ctx, findUnit(ctx.state, 'S'), findUnit(ctx.state, 'T')).answer;
  };
  it('a unit across the line hides T unless only terrain (or nothing) blocks', () => {
    const units = [S(), T(), rect('B', -4, 8, 10, 12, c({ side: 'blue', headingDeg: 180, files: 3 }))];
    expect(see(units, {})).toBe('no');
    expect(see(units, { sightBlockers: 'terrainOnly' })).toBe('yes');
    expect(see(units, { sightBlockers: 'nothing' })).toBe('yes');
  });
  it('a wood across the line hides T unless nothing blocks', () => {
    const wood = [area('w', 'wood', -4, 8, 10, 12, CM)];
    expect(see([S(), T()], {}, wood)).toBe('no');
    expect(see([S(), T()], { sightBlockers: 'terrainOnly' }, wood)).toBe('no');
    expect(see([S(), T()], { sightBlockers: 'nothing' }, wood)).toBe('yes');
  });
});

describe('evade direction (A-OTS-13)', () => {
  // C = [0,4]×[0,2] cavalry; E1 = [0,4]×[−7,−5] is the nearest enemy (directly away: +y); the
  // attacker A = [−44,−40]×[0,2] lies to the left (directly away from it: +x).
  const units = [
    rect('C', 0, 4, 0, 2, c({ side: 'red', type: 'cavalry', files: 1 })),
    rect('E1', 0, 4, -7, -5, c({ side: 'blue', files: 1 })),
    rect('A', -44, -40, 0, 2, c({ side: 'blue', headingDeg: 270, files: 1 })),
  ];
  const direction = (deg: number, o: Opts = {}, policy: ThresholdPolicy = EXACT_POLICY) => {
    const ctx = ctxOf(units, o, [], policy);
    const r = (deg * Math.PI) / 180;
    const move = { x: 300 * Math.sin(r), y: 300 * Math.cos(r) };
    return evadeVerdict(ctx, findUnit(ctx.state, 'C'), move, findUnit(ctx.state, 'A')).checks.find(
      (x) => x.question === 'evadeDirection',
    )!;
  };
  it('evadeFrom: straight up is directly away from the nearest enemy, 90° off away from the attacker', () => {
    expect(direction(0).answer).toBe('yes');
    const att = direction(0, { evadeFrom: 'attacker' });
    expect(att.value).toBeCloseTo(90, 9);
    expect(att.answer).toBe('no');
    expect(direction(90, { evadeFrom: 'attacker' }).answer).toBe('yes');
  });
  it('evadeAngleToleranceDeg: 20° off fails at 15°, passes at 25°', () => {
    expect(direction(20).answer).toBe('no');
    expect(direction(20, { evadeAngleToleranceDeg: 25 }).answer).toBe('yes');
  });
  it('an evade 0.1° past the tolerance is too close to call when the poses are uncertain', () => {
    const v = direction(15.1, {}, { floor: 0.5, sigmas: 2 });
    expect(v.value).toBeCloseTo(15.1, 9);
    expect(v.answer).toBe('borderline');
    expect(v.lean).toBe('no');
    expect(direction(15.1).answer).toBe('no');
  });
});
