import { describe, expect, it } from 'vitest';
import { findUnit } from '../../../src/table/table-state.ts';
import { EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import { d3Context } from '../../../src/rules/d3/context.ts';
import { chargeVerdict, turnLimits } from '../../../src/rules/d3/charge.ts';
import { area, rect, table } from '../fixtures.ts';

/**
 * D3's charge turn may not sweep through units or ground the charger may not enter (spec §2.2:
 * "pivot may not sweep through units or impassable terrain"; only skirmishers pass through friends,
 * anyone through artillery). Charger C: cavalry 4" × 2", front edge from (−2,0) to (2,0), facing
 * +y; a left turn pivots on the front-left corner P = (−2,0). A unit whose lower-right corner is Q
 * = (1,2), lying up and to the left of Q, is first met by the swinging front edge when it points at
 * Q: at atan2(2, 3) = 33.69° (|PQ| = 3.61" < the 4" frontage).
 */
const LIMIT = (Math.atan2(2, 3) * 180) / Math.PI;
const C = () => rect('C', -2, 2, -2, 0, { side: 'red', type: 'cavalry', files: 2 });
// Target centre about 40° left of straight ahead, 8" from the front centre (as D3-E10).
const T = () => rect('T', -7.1, -3.1, 6.1, 8.1, { side: 'blue', headingDeg: 180, files: 2 });
const B = (opts: Parameters<typeof rect>[5] = {}) =>
  rect('B', -1, 1, 2, 4, { side: 'blue', files: 1, ...opts });

function charge(extra: Parameters<typeof table>[0], options: Record<string, OptionValue> = {}, terrain = []) {
  const st = table([C(), T(), ...extra], terrain, 'd3');
  const ctx = d3Context(st, options, EXACT_POLICY);
  const c = findUnit(st, 'C');
  const t = findUnit(st, 'T');
  return { limits: turnLimits(ctx, c, t), v: chargeVerdict(ctx, c, t) };
}

describe('D3 charge: the turn may not sweep through units', () => {
  it('with nothing in the way the best line turns the full 45°', () => {
    const { limits, v } = charge([]);
    expect(limits.left.deg).toBe(45);
    expect(limits.left.by).toBeUndefined();
    expect(v.facts.turnDeg).toBeCloseTo(45, 6);
  });

  it('an enemy unit in the swing stops the turn at 33.69°, and the charge says so', () => {
    const { limits, v } = charge([B()]);
    expect(limits.left.deg).toBeCloseTo(LIMIT, 9);
    expect(limits.left.by?.name).toBe('B');
    expect(v.reasons.join(' ')).toMatch(/turning left more than 33\.7° would sweep through B/);
    // At the limit B's corner Q touches the front edge, so B stands in every straight run that
    // the turn still allows (charge-run.test.ts): no line is left.
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/straight run would go through B/);
  });

  it('artillery and friendly skirmishers are swept through; enemy skirmishers are not', () => {
    expect(charge([B({ type: 'artillery' })]).limits.left.deg).toBe(45);
    expect(charge([B({ side: 'red', troop: 'skirmishers' })]).limits.left.deg).toBe(45);
    expect(charge([B({ troop: 'skirmishers' })]).limits.left.deg).toBeCloseTo(LIMIT, 9);
  });

  it('chargePivot=centre: the corners swing within √5" of the centre and never reach Q', () => {
    const { limits } = charge([B()], { chargePivot: 'centre' });
    expect(limits.left.deg).toBe(45);
  });

  it('ground closed to cavalry (bog) stops the swing like a unit', () => {
    const bog = [area('bog', 'rough', -1, 1, 2, 4)];
    const st = table([C(), T()], bog, 'd3');
    const ctx = d3Context(st, {}, EXACT_POLICY);
    const l = turnLimits(ctx, findUnit(st, 'C'), findUnit(st, 'T'));
    expect(l.left.deg).toBeCloseTo(LIMIT, 9);
    expect(l.left.by?.name).toMatch(/bog/);
  });

  it('a neighbour reported a hair into the charger’s flank stops only the turn into it', () => {
    // N overlaps C's right flank by 0.01". Turning left about (−2, 0) swings C's rear-right corner
    // further right, into N; turning right about (2, 0) swings it left, away from N.
    const { limits } = charge([rect('N', 1.99, 3.99, -1.9, -0.1, { side: 'red', files: 1 })]);
    expect(limits.left.deg).toBe(0);
    expect(limits.left.by?.name).toBe('N');
    expect(limits.right.deg).toBe(45);
    expect(limits.right.by).toBeUndefined();
  });
});

describe('D3 charge: a sweep that only grazes a blocker, or only just misses one', () => {
  // Turning left about P = (−2, 0), C's rear-right corner R = (2, −2) swings on a radius of √20"
  // (4.472"), the farthest of C from P. D's left edge stands `inside` inches within that radius,
  // square to the swing at (−2 + √20 − inside, 0): only R's arc clips it, `inside` deep, at the
  // turn where R passes that edge. A hair's move of D and the sweep misses it whole; the lever
  // (D's corner swinging on 4.47") never shows that: it moves the limit a hundredth of a degree.
  // The target stands 45° left, out of every straight run a turn short of about 30° allows.
  const POLICY = { floor: 0.25, sigmas: 2 };
  const far = () => rect('T', -10, -8, 8, 10, { side: 'blue', headingDeg: 180, files: 1 });
  const R = Math.sqrt(20);
  const at = (inside: number, dx = 0, dy = 0) => {
    const x0 = -2 + R - inside + dx;
    const st = table(
      [C(), far(), rect('D', x0, x0 + 2, -1 + dy, 1 + dy, { side: 'blue', files: 1 })],
      [],
      'd3',
    );
    const ctx = d3Context(st, {}, POLICY);
    const c = findUnit(st, 'C');
    const t = findUnit(st, 'T');
    const v = chargeVerdict(ctx, c, t);
    return { limits: turnLimits(ctx, c, t), reach: v.checks.find((k) => k.question === 'reach') };
  };
  // Where R crosses D's left edge, when only R's arc reaches it: cos(φ) = (√20 − inside) / √20
  // below P's horizontal, from R's start at atan(2 / 4) below it.
  const contactDeg = (inside: number) => (Math.atan2(2, 4) - Math.acos((R - inside) / R)) * (180 / Math.PI);

  it('is too close to call when R clips D by 0.005" (0.13 mm): D 0.01" aside, and C turns the full 45°', () => {
    const { limits, reach } = at(0.005);
    expect(limits.left.deg).toBeCloseTo(contactDeg(0.005), 6);
    expect(limits.left.by?.name).toBe('D');
    expect(reach?.lean).toBe('no');
    expect(reach?.answer).toBe('borderline');
    expect(reach?.reasons.join(' ')).toMatch(/too close to call: where D stops the turn/);
    expect(reach?.moveMm as number).toBeLessThan(0.01 * 25.4);
    // Brute force: D 0.01" to the right and the turn is free, and a line reaches T.
    const moved = at(0.005, 0.01);
    expect(moved.limits.left.deg).toBe(45);
    expect(moved.reach?.lean).toBe('yes');
  });

  it('is too close to call when R misses D by 0.005": D 0.01" closer stops the turn at 23.9°', () => {
    const { limits, reach } = at(-0.005);
    expect(limits.left.deg).toBe(45);
    expect(limits.left.by).toBeUndefined();
    expect(reach?.lean).toBe('yes');
    expect(reach?.answer).toBe('borderline');
    expect(limits.left.near.map((o) => o.name)).toEqual(['D']);
    expect(reach?.reasons.join(' ')).toMatch(/too close to call: where D would stop the turn a hair closer/);
    expect(reach?.moveMm as number).toBeLessThan(0.01 * 25.4);
    // Brute force: D 0.01" to the left, and it stops the turn where no line reaches T.
    const moved = at(-0.005, -0.01);
    expect(moved.limits.left.deg).toBeCloseTo(contactDeg(0.005), 6);
    expect(moved.reach?.lean).toBe('no');
  });

  it('is firm when R misses D by 0.3": D moved up to the band any of eight ways leaves the turn free', () => {
    const { limits, reach } = at(-0.3);
    expect(limits.left.deg).toBe(45);
    expect(reach?.answer).toBe('yes');
    for (let k = 0; k < 8; k++)
      for (const d of [0.1, 0.2, 0.25]) {
        const a = (k * Math.PI) / 4;
        expect(at(-0.3, d * Math.cos(a), d * Math.sin(a)).reach?.lean).toBe('yes');
      }
  });

  it('is firm when C cuts D 0.3" deep: D moved up to the band any of eight ways still stops the turn short', () => {
    // (C's right flank meets D's corner first, at 7.7°.)
    const { limits, reach } = at(0.3);
    expect(limits.left.by?.name).toBe('D');
    expect(limits.left.deg).toBeLessThan(10);
    expect(reach?.answer).toBe('no');
    for (let k = 0; k < 8; k++)
      for (const d of [0.1, 0.2, 0.25]) {
        const a = (k * Math.PI) / 4;
        expect(at(0.3, d * Math.cos(a), d * Math.sin(a)).reach?.lean).toBe('no');
      }
  });
});
