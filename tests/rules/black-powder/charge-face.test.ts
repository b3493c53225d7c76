import { describe, expect, it } from 'vitest';
import { chargeFaceVerdict } from '../../../src/rules/black-powder/charge.ts';
import type { MarkRecord, RecordedPose } from '../../../src/record/types.ts';
import type { UnitSpec } from '../../../src/table/scenario.ts';
import { turnStartPoses } from '../../../src/table/pose-history.ts';
import { buildTableState, findUnit } from '../../../src/table/table-state.ts';
import { twoSidedScenario } from '../fixtures.ts';
import { box, ctxOf, IN } from './fixtures.ts';

/**
 * BP-E6 from the recorded pose history: the face charged is the target's quarter holding the
 * charger's leader at the start of the turn (spec §5.9, A-BP-19). The history is a list of turn
 * marks and the poses recorded at each; the table at the last player turn mark is what the rules
 * read, not a scenario field.
 */
const blue = { side: 'blue', headingDeg: 0 as const };
const turnMark = (t: number, turn: number, source: MarkRecord['source'] = 'player'): MarkRecord => ({
  t,
  kind: 'turn',
  turn,
  phase: null,
  side: 'red',
  source,
  label: `turn ${turn}`,
});

/** The poses of a unit's bases when its leader stood at (x, y), facing +y (2" × 1.5" base). */
function posesAt(unit: UnitSpec, x: number, y: number): RecordedPose[] {
  const then = box('then', x - 1, x + 1, y - 1.5, y);
  return unit.bases.map((b, i) => {
    const p = then.bases[i]!.pose!;
    return {
      markerId: b.marker.id,
      x: p.x,
      y: p.y,
      headingDeg: p.headingDeg,
      sigmaMm: 0,
      sigmaHeadingDeg: 0,
    };
  });
}

/**
 * A table where the charger's leader stood at (x, y) at the turn mark (and at `earlier` before
 * t = 200) and stands at `now` (default 6" behind) on the table.
 */
function tableWithHistory(
  x: number,
  y: number,
  marks: readonly MarkRecord[],
  earlier?: [number, number],
  now: [number, number] = [x, y - 6],
) {
  const target = box('T', -5, 5, -1.5, 0, blue);
  const charger = box('C', now[0] - 1, now[0] + 1, now[1] - 1.5, now[1]);
  const scenario = twoSidedScenario('history', 'black-powder', { widthMm: 144 * IN, depthMm: 72 * IN }, [
    target,
    charger,
  ]);
  const fixed = target.bases.map((b) => ({
    markerId: b.marker.id,
    x: b.pose!.x,
    y: b.pose!.y,
    headingDeg: b.pose!.headingDeg,
    sigmaMm: 0,
    sigmaHeadingDeg: 0,
  }));
  const seek = (t: number): RecordedPose[] => [
    ...fixed,
    ...(earlier && t < 200 ? posesAt(charger, ...earlier) : posesAt(charger, x, y)),
  ];
  const poses = turnStartPoses(marks, 300, seek);
  return buildTableState(scenario, new Map(), poses ? { turnStartPoses: poses } : {});
}

describe('BP-E6 charge face from the recorded pose history', () => {
  it.each([
    [-12, -0.5, 'left'],
    [-8, 6, 'front'],
    [0, -5, 'rear'],
  ])('leader recorded at (%d,%d) at the turn mark → %s', (x, y, face) => {
    const st = tableWithHistory(x, y, [turnMark(250, 3)]);
    const v = chargeFaceVerdict(ctxOf(st), findUnit(st, 'C'), findUnit(st, 'T'));
    expect(v.facts.face).toBe(face);
    expect(v.facts.leaderFrom).toBe('history');
    expect(v.reasons[0]).toMatch(/at the start of the turn \(recorded\)/);
  });

  it('the last player turn mark counts, not an earlier one, nor a later inferred one', () => {
    // Before t = 200 the leader stood in the target's rear (0,−5); from 200 on, at (−12,−0.5).
    const marks = [turnMark(100, 1), turnMark(250, 2), turnMark(280, 2, 'inferred')];
    const st = tableWithHistory(-12, -0.5, marks, [0, -5]);
    expect(chargeFaceVerdict(ctxOf(st), findUnit(st, 'C'), findUnit(st, 'T')).facts.face).toBe('left');
    const onlyFirst = tableWithHistory(-12, -0.5, [turnMark(100, 1)], [0, -5]);
    expect(
      chargeFaceVerdict(ctxOf(onlyFirst), findUnit(onlyFirst, 'C'), findUnit(onlyFirst, 'T')).facts.face,
    ).toBe('rear');
  });

  it('chargeFaceFrom=current ignores the history; without a turn mark the current pose is used', () => {
    // Now the leader stands at (0, 7.5), in the target's front quarter (its left flank at turn start).
    const st = tableWithHistory(-12, -0.5, [turnMark(250, 3)], undefined, [0, 7.5]);
    expect(chargeFaceVerdict(ctxOf(st), findUnit(st, 'C'), findUnit(st, 'T')).facts.face).toBe('left');
    const now = chargeFaceVerdict(
      ctxOf(st, { chargeFaceFrom: 'current' }),
      findUnit(st, 'C'),
      findUnit(st, 'T'),
    );
    expect(now.facts.face).toBe('front');
    expect(now.facts.leaderFrom).toBe('now');
    const none = tableWithHistory(-12, -0.5, [], undefined, [0, 7.5]);
    expect(none.turnStart).toBeUndefined();
    const v = chargeFaceVerdict(ctxOf(none), findUnit(none, 'C'), findUnit(none, 'T'));
    expect(v.facts.leaderFrom).toBe('now');
    expect(v.facts.face).toBe('front');
  });
});
