import { describe, expect, it } from 'vitest';
import { clipToConvex } from '../../../src/geometry/convex-clip.ts';
import { signedArea } from '../../../src/geometry/polygon.ts';
import type { Polygon } from '../../../src/geometry/polygon.ts';
import { sweepContact } from '../../../src/geometry/sweep.ts';
import type { Vec2 } from '../../../src/geometry/vec.ts';
import { chargeVerdict } from '../../../src/rules/d3/charge.ts';
import { d3Context } from '../../../src/rules/d3/context.ts';
import { DEFAULT_POLICY, EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import type { Verdict } from '../../../src/rules/engine/verdict.ts';
import { findUnit, type TableState } from '../../../src/table/table-state.ts';
import { IN, rect, table } from '../fixtures.ts';

/**
 * D3's charge runs "straight ahead" after its one turn (spec §2.2), and only skirmishers pass
 * through friends (and friends through them) while anyone may pass through artillery: a unit
 * standing in the strip the frontage sweeps before the target is met takes that line away.
 * Charger C: cavalry 4" × 2", front edge (−2,0)–(2,0), facing +y; target T 4" × 2" at y 8–10,
 * straight ahead, facing it.
 */
const C = () => rect('C', -2, 2, -2, 0, { side: 'red', type: 'cavalry', files: 2 });
const T = () => rect('T', -2, 2, 8, 10, { side: 'blue', headingDeg: 180, files: 2 });

function charge(extra: Parameters<typeof table>[0], policy = EXACT_POLICY) {
  const st = table([C(), T(), ...extra], [], 'd3');
  const v = chargeVerdict(d3Context(st, {}, policy), findUnit(st, 'C'), findUnit(st, 'T'));
  return { st, v, reach: v.checks.find((c) => c.question === 'reach') as Verdict };
}

const rot = (p: Vec2, c: Vec2, t: number): Vec2 => ({
  x: c.x + (p.x - c.x) * Math.cos(t) - (p.y - c.y) * Math.sin(t),
  y: c.y + (p.x - c.x) * Math.sin(t) + (p.y - c.y) * Math.cos(t),
});

/**
 * Brute force, independent of the code under test's run check: every turn on a 0.005° grid about
 * the corner turned toward; the target distance straight ahead; the run blocked when the region
 * the charger covers on the way (its box stretched forward by that distance, 1 mm in from each
 * flank) overlaps a blocker with positive area.
 */
function bruteShortest(st: TableState, blockers: readonly string[]): number {
  const t = findUnit(st, 'T');
  const walls: Polygon[] = blockers.flatMap((id) => findUnit(st, id).allPolygons);
  const [rl, rr, fr, fl] = [
    { x: -2 * IN + 1, y: -2 * IN },
    { x: 2 * IN - 1, y: -2 * IN },
    { x: 2 * IN - 1, y: 0 },
    { x: -2 * IN + 1, y: 0 },
  ];
  let best = Infinity;
  for (let deg = -45; deg <= 45 + 1e-9; deg += 0.005) {
    const th = (deg * Math.PI) / 180;
    const pivot = deg >= 0 ? { x: -2 * IN, y: 0 } : { x: 2 * IN, y: 0 };
    const f = { x: -Math.sin(th), y: Math.cos(th) };
    const box = {
      frame: { origin: rot({ x: 0, y: 0 }, pivot, th), front: f, right: { x: f.y, y: -f.x } },
      width: 4 * IN,
      depth: 2 * IN,
    };
    const hit = sweepContact(box as Parameters<typeof sweepContact>[0], t.bodyPolygons);
    if (!hit) continue;
    const ahead = (p: Vec2) => ({ x: p.x + f.x * hit.distance, y: p.y + f.y * hit.distance });
    const region = [rl, rr, fr, fl].map((p) => rot(p, pivot, th));
    const swept = [region[0]!, region[1]!, ahead(region[2]!), ahead(region[3]!)];
    if (walls.some((w) => Math.abs(signedArea(clipToConvex(w, swept))) > 1e-9)) continue;
    best = Math.min(best, hit.distance);
  }
  return best / IN;
}

/** Free of blockers, the shortest line turns ±30° (the far front corner swings 2" forward). */
const FREE = (() => {
  const { v } = charge([]);
  return { deg: Math.abs(v.facts.turnDeg as number), dist: v.facts.straightIn as number };
})();

/**
 * A point in the frame of the free line turned left (x right, y ahead of its front edge,
 * inches), and its mirror for the line turned right.
 */
function onFreeRun(x: number, y: number): [Vec2, Vec2] {
  const th = (FREE.deg * Math.PI) / 180;
  const o = rot({ x: 0, y: 0 }, { x: -2, y: 0 }, th);
  const f = { x: -Math.sin(th), y: Math.cos(th) };
  const p = { x: o.x + f.y * x + f.x * y, y: o.y - f.x * x + f.y * y };
  return [p, { x: -p.x, y: p.y }];
}
/** A 1" square per side, its upper-right (left line) / upper-left (mirror) corner at the point. */
const squares = (x: number, y: number, opts: Parameters<typeof rect>[5] = {}) => {
  const [p, q] = onFreeRun(x, y);
  return [
    rect('B', p.x - 1, p.x, p.y - 1, p.y, { side: 'blue', files: 1, ...opts }),
    rect('B2', q.x, q.x + 1, q.y - 1, q.y, { side: 'blue', files: 1, ...opts }),
  ];
};

describe('D3 charge: the straight run after the turn may not pass through units', () => {
  it('free of blockers the shortest line turns 30° (brute force agrees)', () => {
    expect(FREE.deg).toBeCloseTo(30, 3);
    const { st } = charge([]);
    expect(FREE.dist).toBeLessThanOrEqual(bruteShortest(st, []) + 1e-6);
    expect(FREE.dist).toBeGreaterThan(bruteShortest(st, []) - 0.01);
  });

  it('enemies in the way of both shortest lines: the charge takes another, as short as brute force finds', () => {
    const { st, v, reach } = charge(squares(0, 4));
    const truth = bruteShortest(st, ['B', 'B2']);

    expect(truth).toBeGreaterThan(FREE.dist + 0.1);
    expect(v.answer).toBe('yes');
    // Exact search against a 0.005° grid: the exact one is never longer, and at most a grid step shorter.
    expect(v.facts.straightIn as number).toBeLessThanOrEqual(truth + 1e-6);
    expect(v.facts.straightIn as number).toBeGreaterThan(truth - 0.01);
    expect(reach.reasons.join(' ')).toMatch(/straight run would go through B/);
  });

  it('a line of enemies across the whole front leaves no line: the charge is refused, naming it', () => {
    const wall = rect('W', -12, 12, 4, 5, { side: 'blue', files: 12 });
    const { st, v } = charge([wall]);
    expect(bruteShortest(st, ['W'])).toBe(Infinity);
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/go through W/);
  });

  it('artillery and friendly skirmishers are passed through; a friendly formed unit is not', () => {
    const at = (opts: Parameters<typeof rect>[5]) => charge(squares(0, 4, opts));
    expect(at({ type: 'artillery' }).v.facts.straightIn).toBeCloseTo(FREE.dist, 9);
    expect(at({ side: 'red', troop: 'skirmishers' }).v.facts.straightIn).toBeCloseTo(FREE.dist, 9);
    const formed = at({ side: 'red' });
    expect(formed.v.facts.straightIn as number).toBeGreaterThan(FREE.dist + 0.1);
    expect(formed.v.facts.straightIn as number).toBeLessThanOrEqual(
      bruteShortest(formed.st, ['B', 'B2']) + 1e-6,
    );
  });

  it('a unit touching the charger’s flank is not in the way', () => {
    const beside = charge([rect('N', 2, 4, -2, 0, { side: 'red', files: 1 })]);
    expect(beside.v.facts.straightIn).toBeCloseTo(FREE.dist, 9);
  });

  it('a blocker a hair beside the strip is too close to call; well clear it is firm', () => {
    // Just outside the strip (the frontage less 1 mm contact each side), halfway along the run.
    const near = (gapMm: number) => charge(squares(-2 - (gapMm - 1) / IN, FREE.dist / 2), DEFAULT_POLICY);
    const hair = near(0.2);

    expect(hair.v.facts.straightIn).toBeCloseTo(FREE.dist, 9);
    expect(hair.reach.answer).toBe('borderline');
    expect(hair.reach.reasons.join(' ')).toMatch(/B2? stands by the straight run/);
    const clear = near(20);
    expect(clear.v.facts.straightIn).toBeCloseTo(FREE.dist, 9);
    expect(clear.reach.answer).toBe('yes');
  });

  it('a run that passes between two units by less than the band is too close to call; narrower, firm', () => {
    // Two walls of enemies either side of the straight run, each reaching `inMm` into the strip
    // (the frontage less 1 mm contact each side): no turn gives a clear run, but the walls standing
    // `inMm` further apart would. Turning only makes the strip cross the gap more widely.
    const walls = (inMm: number) => {
      const edge = 2 - (1 + inMm) / IN;
      return [
        rect('W1', -12, -edge, 4, 5, { side: 'blue', files: 10 }),
        rect('W2', edge, 12, 4, 5, { side: 'blue', files: 10 }),
      ];
    };
    const hair = charge(walls(0.1), DEFAULT_POLICY);
    expect(bruteShortest(hair.st, ['W1', 'W2'])).toBe(Infinity);
    // Brute force on the walls moved 0.15 mm further apart each: a straight run opens.
    const apart = charge(walls(-0.05), DEFAULT_POLICY);
    expect(bruteShortest(apart.st, ['W1', 'W2'])).toBeLessThan(8.01);
    expect(hair.reach.answer).toBe('borderline');
    expect(hair.reach.lean).toBe('no');
    expect(hair.reach.reasons.join(' ')).toMatch(/straight run passes W[12] within/);
    expect(hair.reach.moveMm as number).toBeGreaterThanOrEqual(0.1);
    expect(hair.reach.moveMm as number).toBeLessThanOrEqual(hair.reach.bandMm as number);

    const narrow = charge(walls(12), DEFAULT_POLICY);
    expect(narrow.reach.answer).toBe('no');
  });

  it('a target only just inside the run at the full 45° turn is too close to call', () => {
    // Turning 45° left about (−2, 0), the strip's left edge runs through the points whose
    // coordinate across it, (x + y)/√2 less that of its centre, is −2. T (2" × 2") stands far to
    // the left, its upper-right corner reaching `o` inches into the strip; no smaller turn reaches it.
    const charge45 = (o: number) => {
      const xr = (-2 + o) / Math.SQRT1_2 - 5.172;
      const st = table(
        [C(), rect('T', xr - 2, xr, 4, 6, { side: 'blue', headingDeg: 180, files: 1 })],
        [],
        'd3',
      );
      const v = chargeVerdict(d3Context(st, {}, DEFAULT_POLICY), findUnit(st, 'C'), findUnit(st, 'T'));
      return { st, reach: v.checks.find((c) => c.question === 'reach') as Verdict };
    };
    const hair = charge45(0.05);
    // Brute force: a line at 45° exists; with T 0.1" further out there is none.
    expect(bruteShortest(hair.st, [])).toBeLessThan(Infinity);
    expect(bruteShortest(charge45(-0.05).st, [])).toBe(Infinity);
    expect(hair.reach.lean).toBe('yes');
    expect(hair.reach.answer).toBe('borderline');
    expect(hair.reach.reasons.join(' ')).toMatch(/at the full 45.0° turn T only just reaches into C's path/);
    expect(hair.reach.moveMm as number).toBeCloseTo(0.05 * IN, 0);

    expect(charge45(1).reach.answer).toBe('yes');

    // The other way: T a hair outside the strip at the full turn. No line (brute force above), but
    // a step round and one reaches: too close to call, with the step under the hair's width.
    const outside = charge45(-0.05).reach;
    expect(outside.lean).toBe('no');
    expect(outside.answer).toBe('borderline');
    expect(outside.reasons.join(' ')).toMatch(
      /T 0\.\d\d in further round would be in reach, turning 45\.0° left/,
    );
    expect(outside.moveMm as number).toBeLessThanOrEqual(0.05 * IN);
    expect(charge45(-1).reach.answer).toBe('no');
  });

  it('at the full 45° turn a target met on a slant is too close to call when a step across reaches', () => {
    // Turned 45° left about (−2, 0): (u, v) across and ahead of the turned front's centre. T, 4" × 2",
    // has its long edge at α to the path, entering the strip at its left edge (u = −2) `run` inches
    // ahead, its corner 0.5" outside it. A step δ across brings the contact δ·cot α nearer.
    const at = (u: number, v: number) => ({
      x: -2 + 2 * Math.SQRT1_2 + (u - v) * Math.SQRT1_2,
      y: 2 * Math.SQRT1_2 + (u + v) * Math.SQRT1_2,
    });
    const slanted = (alphaDeg: number, run: number, acrossIn = 0) => {
      const a = (alphaDeg * Math.PI) / 180;
      const e1 = { u: Math.sin(a), v: Math.cos(a) };
      const e2 = { u: -Math.cos(a), v: Math.sin(a) };
      const pu = -2.5 + acrossIn;
      const pv = run - 0.5 / Math.tan(a);
      const c = at(pu + 2 * e1.u + e2.u, pv + 2 * e1.v + e2.v);
      const o = at(0, 0);
      const d = at(e1.u, e1.v);
      const headingDeg = (Math.atan2(d.y - o.y, d.x - o.x) * 180) / Math.PI;
      const t = rect('T', -2, 2, -1, 1, { side: 'blue', files: 1 });
      const bases = t.bases.map((b) => ({ ...b, pose: { x: c.x * IN, y: c.y * IN, headingDeg } }));
      const st = table([C(), { ...t, bases }], [], 'd3');
      const v = chargeVerdict(d3Context(st, {}, DEFAULT_POLICY), findUnit(st, 'C'), findUnit(st, 'T'));
      return { st, reach: v.checks.find((c) => c.question === 'reach') as Verdict };
    };
    // 0.3" beyond the move: a firm no as a length (the band is 0.25"), but 0.11" across (0.3 · tan 20°)
    // and it reaches, brute force says.
    const slant = slanted(20, 12.3);
    expect(bruteShortest(slant.st, [])).toBeCloseTo(12.3, 2);
    expect(bruteShortest(slanted(20, 12.3, 0.115).st, [])).toBeLessThan(12);
    expect(slant.reach.lean).toBe('no');
    expect(slant.reach.answer).toBe('borderline');
    expect(slant.reach.reasons.join(' ')).toMatch(/C's path meets T on a slant: 0\.11 in across/);
    expect(slant.reach.moveMm as number).toBeCloseTo(0.3 * Math.tan((20 * Math.PI) / 180) * IN, 0);
    // Square to the path the same 0.3" beyond is firm: a step across changes nothing.
    const square = slanted(89.9, 12.3);
    expect(bruteShortest(slanted(89.9, 12.3, 0.2).st, [])).toBeGreaterThan(12.25);
    expect(square.reach.answer).toBe('no');
  });
});
