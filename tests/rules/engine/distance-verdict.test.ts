import { describe, expect, it } from 'vitest';
import { getRuleset, parseQuestion } from '../../../src/rules/index.ts';
import type { Scenario } from '../../../src/table/scenario.ts';
import { buildTableState, type BasePose } from '../../../src/table/table-state.ts';
import { IN, rect, twoSidedScenario } from '../fixtures.ts';

/**
 * "is 'A' within 12 in of 'B'?" with bases of unequal certainty (D3 plain 8224: the nearest base
 * of a column, ± 0.9 mm, shared a corner with the next, ± 2.9 mm, and that one moved within its
 * sigma took 12.12" to 11.99"). A has two 2" × 1" bases, A1 (± 0.1 mm) and A2; B stands 12.1"
 * ahead of A's front, 0.1" short of 12. Side by side, A1 and A2 are equally near B, and the
 * distance is no surer than the less sure of them; in a column, A2 stands 1" further back and
 * its certainty does not matter.
 */
const POLICY = { floor: 0, sigmas: 2 };

function tableWith(a2SigmaMm: number, a2Shift: { x: number; y: number } = { x: 0, y: 0 }, side = false) {
  // Side by side (`side`): A1 at x 0–2, A2 at x 2–4, both y 0–1; B 12.1" ahead of both.
  const a1 = side ? rect('A1', 0, 2, 0, 1, { files: 1 }) : rect('A1', 0, 2, 1, 2, { files: 1 });
  const a2 = side ? rect('A2', 2, 4, 0, 1, { files: 1 }) : rect('A2', 0, 2, 0, 1, { files: 1 });
  const frontY = side ? 1 : 2;
  const b = rect('B', -1, 5, frontY + 12.1, frontY + 13.1, { side: 'blue', headingDeg: 180, files: 1 });
  const a = { ...a1, id: 'A', name: 'A', bases: [...a1.bases, ...a2.bases] };
  const scenario: Scenario = twoSidedScenario('test', 'd3', { widthMm: 200 * IN, depthMm: 200 * IN }, [a, b]);
  const poses = new Map<number, BasePose>();
  const a2Marker = a2.bases[0]!.marker.id;
  for (const u of scenario.units)
    for (const base of u.bases) {
      const p = base.pose!;
      const moved = base.marker.id === a2Marker ? { x: p.x + a2Shift.x, y: p.y + a2Shift.y } : {};
      poses.set(base.marker.id, {
        ...p,
        ...moved,
        sigmaMm: base.marker.id === a2Marker ? a2SigmaMm : 0.1,
        sigmaHeadingDeg: 0,
      });
    }
  return buildTableState(scenario, poses, { fallBackToFilePoses: false });
}

const within12 = (st: ReturnType<typeof tableWith>) =>
  getRuleset('d3').ask(st, parseQuestion("is 'A' within 12 in of 'B'?"), {}, POLICY);

describe('distance against a limit, with another pair of bases about as near', () => {
  it('is too close to call side by side when the other base, as near, is placed ± 3 mm', () => {
    const v = within12(tableWith(3, undefined, true));
    expect(v.value).toBeCloseTo(12.1, 9);
    expect(v.lean).toBe('no');
    expect(v.answer).toBe('borderline');
    expect(v.reasons.join(' ')).toMatch(/another pair of bases is about as near, and less surely placed/);
    // Brute force: A2 3 mm nearer B (within its sigma) and A is within 12".
    expect(within12(tableWith(3, { x: 0, y: 3 }, true)).lean).toBe('yes');
  });

  it('is firm when that base is placed ± 0.5 mm, or stands 1" further back', () => {
    expect(within12(tableWith(0.5, undefined, true)).answer).toBe('no');
    // Brute force: A2 0.5 mm nearer still leaves 12.08".
    expect(within12(tableWith(0.5, { x: 0, y: 0.5 }, true)).lean).toBe('no');
    // Behind A1, A2 ± 3 mm can never be the nearest: 1" further.
    expect(within12(tableWith(3)).answer).toBe('no');
    expect(within12(tableWith(3, { x: 0, y: 3 })).lean).toBe('no');
  });
});
