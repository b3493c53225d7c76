import { describe, expect, it } from 'vitest';
import { attackFaceVerdict, awayDirection } from '../../../src/rules/prestonpans/charge.ts';
import { leadershipVerdict } from '../../../src/rules/prestonpans/command.ts';
import { ppContext } from '../../../src/rules/prestonpans/context.ts';
import { musketVerdict } from '../../../src/rules/prestonpans/shooting.ts';
import { EXACT_POLICY } from '../../../src/rules/engine/threshold.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import type { BasePose } from '../../../src/table/table-state.ts';
import { buildTableState, findUnit } from '../../../src/table/table-state.ts';
import { commander, IN, rect, table, twoSidedScenario } from '../fixtures.ts';

/**
 * Prestonpans options read both ways (spec §1.6), each on a position where the readings disagree.
 * H: a 10" × 2" line [0,10]×[0,2] facing +y; its front centre (5,2).
 */
type Opts = Record<string, OptionValue>;
const H = () => rect('H', 0, 10, 0, 2, { side: 'red', files: 5 });
const ctxOf = (units: Parameters<typeof table>[0], o: Opts = {}) => ppContext(table(units), o, EXACT_POLICY);

describe('inFront (A-PP2) as the shot reads it', () => {
  // PP-E3's J3 = [14,24]×[4,6]: beyond H's front edge line, outside its corridor and its cone.
  const units = () => [H(), rect('J3', 14, 24, 4, 6, { side: 'blue', headingDeg: 180 })];
  it('corridor and cone: may not shoot; half-plane: may', () => {
    const shoot = (o: Opts) => {
      const ctx = ctxOf(units(), o);
      return musketVerdict(ctx, findUnit(ctx.state, 'H'), findUnit(ctx.state, 'J3')).answer;
    };
    expect(shoot({ inFront: 'corridor' })).toBe('no');
    expect(shoot({ inFront: 'cone' })).toBe('no');
    expect(shoot({ inFront: 'halfPlane' })).toBe('yes');
  });
});

describe('quarterReading (A-PP8)', () => {
  it('a charger whose leader is 12" right and 3" ahead of the front centre: right flank by the bisectors, front by the diagonals', () => {
    const units = () => [
      H(),
      rect('C', 16, 18, 5, 7, { side: 'blue', type: 'cavalry', headingDeg: 180, files: 1 }),
    ];
    const face = (o: Opts) => {
      const ctx = ctxOf(units(), o);
      return attackFaceVerdict(ctx, findUnit(ctx.state, 'C'), findUnit(ctx.state, 'H')).facts.face;
    };
    expect(face({})).toBe('right');
    expect(face({ quarterReading: 'diagonal' })).toBe('front');
  });
});

describe('faceFrom (A-PP8), at the start of the turn', () => {
  // At turn start C = [10,14]×[3.5,9.5] facing −y: leader (12,3.5) → 7" right, 1.5" ahead: right
  // flank (1.5 < 7 − 5); centre (12,6.5) → 4.5" ahead: front. Now C stands at [−8,−4]×[0,6], in
  // H's left flank whichever point is used.
  const C = (x0: number, y0: number, extra = {}) =>
    rect('C', x0, x0 + 4, y0, y0 + 6, { side: 'blue', type: 'cavalry', headingDeg: 180, files: 2, ...extra });
  it('with the recorded history: leader → right, centroid → front (the centre at turn start)', () => {
    const h = H();
    const now = C(-8, 0);
    const then = C(10, 3.5);
    const poses = new Map<number, BasePose>();
    for (const [spec, at] of [
      [h, h],
      [now, then],
    ] as const)
      spec.bases.forEach((b, i) => {
        const p = at.bases[i]!.pose!;
        poses.set(b.marker.id, { ...p, sigmaMm: 0, sigmaHeadingDeg: 0 });
      });
    const scenario = twoSidedScenario('t', 'prestonpans', { widthMm: 2000 * IN, depthMm: 2000 * IN }, [
      h,
      now,
    ]);
    const state = buildTableState(scenario, new Map(), { turnStartPoses: poses });
    const face = (o: Opts) =>
      attackFaceVerdict(ppContext(state, o, EXACT_POLICY), findUnit(state, 'C'), findUnit(state, 'H')).facts
        .face;
    expect(face({})).toBe('right');
    expect(face({ faceFrom: 'centroid' })).toBe('front');
  });
  it("with the scenario's leaderAtTurnStart: the centre moves with the leader", () => {
    const units = () => [H(), C(-8, 0, { leaderAtTurnStart: { x: 12 * IN, y: 3.5 * IN } })];
    const face = (o: Opts) => {
      const ctx = ctxOf(units(), o);
      return attackFaceVerdict(ctx, findUnit(ctx.state, 'C'), findUnit(ctx.state, 'H')).facts.face;
    };
    expect(face({})).toBe('right');
    expect(face({ faceFrom: 'centroid' })).toBe('front');
  });
});

describe('fleeDirection (A-PP7)', () => {
  it('E = [0,10]×[0,2], fleeing F = [12,16]×[6,8]: away along the centres (9,6) or the nearest points (2,4)', () => {
    const units = () => [H(), rect('F', 12, 16, 6, 8, { side: 'blue', files: 2 })];
    const dir = (o: Opts) => {
      const ctx = ctxOf(units(), o);
      return awayDirection(ctx, findUnit(ctx.state, 'H'), findUnit(ctx.state, 'F'));
    };
    const c = dir({});
    expect(c.y / c.x).toBeCloseTo(6 / 9, 9);
    const n = dir({ fleeDirection: 'nearestPoints' });
    expect(n.y / n.x).toBeCloseTo(4 / 2, 9);
  });
});

describe('attachWithinIn', () => {
  it('a commander 1.5" from the unit is with it only when the limit is 2"', () => {
    const units = () => [H(), commander('K', 5, 3.5, { side: 'red' })];
    const bonus = (o: Opts) => {
      const ctx = ctxOf(units(), o);
      return leadershipVerdict(ctx, findUnit(ctx.state, 'H')).facts.attachedBonus;
    };
    expect(bonus({})).toBe(0);
    expect(bonus({ attachWithinIn: 2 })).toBe(1);
  });
});
