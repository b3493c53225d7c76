import { describe, expect, it } from 'vitest';
import { EXACT_POLICY } from '../../src/rules/engine/threshold.ts';
import { getRuleset, parseQuestion } from '../../src/rules/index.ts';
import { rect, table } from './fixtures.ts';

/**
 * One table, four tabletop rulesets, one question: "can 'A' shoot 'B'?". A is an infantry line
 * [0,10]×[0,2] in facing +y (five bases; front centre (5,2); leader base [4,6]×[0,2]); B faces it.
 * Expected numbers are worked by hand from the geometry:
 *
 * Scene 1, B = [12,22]×[9,11]:
 * - Prestonpans: edge to edge (10,2)→(12,9) = √53 = 7.28 in ≤ 12; B lies above the 45° ray from
 *   (10,2) (front quarter) → yes, long range (hits on 6).
 * - D3: from the front centre (5,2) to (12,9) = √98 = 9.90 in ≤ 12; smallest bearing, at (12,11),
 *   atan(7/9) = 37.9° ≤ 45° → yes.
 * - O'er the Sea: 7.28 in = 18.49 cm ≤ 30, but B is wholly right of the frontage strip x ∈ [0,10]:
 *   not directly ahead → no.
 * - Black Powder: from the leader base (6,2) to (12,9) = √85 = 9.22 in ≤ 18; 60% of B in the front
 *   quarter (x ≤ y + 8 over y ∈ [9,11]: area 12 of 20) → yes, a clear target.
 *
 * Scene 2, B = [12,22]×[4.5,6.5]:
 * - Prestonpans: (10,2)→(12,4.5) = √10.25 = 3.20 in; B's corner (12,4.5) is above the ray (y = 4
 *   at x = 12) → yes, short range (5–6).
 * - D3: 7.43 in to (12,4.5), but the smallest bearing from (5,2), at (12,6.5), is atan(7/4.5) =
 *   57.3° > 45° → no.
 * - O'er the Sea: not ahead → no.
 * - Black Powder: 15% of B in the front quarter (x ≤ y + 8 over y ∈ [4.5,6.5]: area 3 of 20) → may
 *   shoot but not clear; from the leader base (6,2)→(12,4.5) = √42.25 = 6.5 in → yes.
 */
const scene = (b: [number, number, number, number]) => {
  const k = 25.4;
  return table([
    rect('A', 0, 10, 0, 2, { side: 'red', files: 5, scale: k }),
    rect('B', b[0], b[1], b[2], b[3], { side: 'blue', headingDeg: 180, files: 5, scale: k }),
  ]);
};

interface Row {
  readonly ruleset: string;
  readonly unit: string;
  readonly answer: 'yes' | 'no';
  readonly value: number;
  readonly limit: number;
  readonly fact?: readonly [string, string | number | boolean];
}

const cases: ReadonlyArray<{ scene: [number, number, number, number]; rows: readonly Row[] }> = [
  {
    scene: [12, 22, 9, 11],
    rows: [
      {
        ruleset: 'prestonpans',
        unit: 'in',
        answer: 'yes',
        value: Math.sqrt(53),
        limit: 12,
        fact: ['band', 'long'],
      },
      { ruleset: 'd3', unit: 'in', answer: 'yes', value: Math.sqrt(98), limit: 12 },
      { ruleset: 'oer-the-sea', unit: 'cm', answer: 'no', value: Math.sqrt(53) * 2.54, limit: 30 },
      {
        ruleset: 'black-powder',
        unit: 'in',
        answer: 'yes',
        value: Math.sqrt(85),
        limit: 18,
        fact: ['clear', true],
      },
    ],
  },
  {
    scene: [12, 22, 4.5, 6.5],
    rows: [
      {
        ruleset: 'prestonpans',
        unit: 'in',
        answer: 'yes',
        value: Math.sqrt(10.25),
        limit: 12,
        fact: ['band', 'short'],
      },
      { ruleset: 'd3', unit: 'in', answer: 'no', value: Math.sqrt(55.25), limit: 12 },
      { ruleset: 'oer-the-sea', unit: 'cm', answer: 'no', value: Math.sqrt(10.25) * 2.54, limit: 30 },
      { ruleset: 'black-powder', unit: 'in', answer: 'yes', value: 6.5, limit: 18, fact: ['clear', false] },
    ],
  },
];

describe('the same two units under four rulesets', () => {
  for (const { scene: s, rows } of cases)
    it.each(rows)(`B = [${s.join(', ')}]: $ruleset answers $answer in $unit`, (row) => {
      const v = getRuleset(row.ruleset).ask(scene(s), parseQuestion("can 'A' shoot 'B'?"), {}, EXACT_POLICY);
      expect(v.ruleset).toBe(row.ruleset);
      expect(v.unit).toBe(row.unit);
      expect(v.answer).toBe(row.answer);
      expect(v.value).toBeCloseTo(row.value, 6);
      expect(v.limit).toBe(row.limit);
      if (row.fact) expect(v.facts[row.fact[0]]).toBe(row.fact[1]);
    });
  it('D3 rejects scene 2 on its field of fire (57.3°), not on range', () => {
    const v = getRuleset('d3').ask(
      scene([12, 22, 4.5, 6.5]),
      parseQuestion("can 'A' shoot 'B'?"),
      {},
      EXACT_POLICY,
    );
    const f = v.checks.find((c) => c.question === 'fieldOfFire');
    expect(f?.answer).toBe('no');
    expect(f?.value).toBeCloseTo((Math.atan(7 / 4.5) * 180) / Math.PI, 6);
    expect(v.checks.find((c) => c.question === 'range')?.answer).toBe('yes');
  });
  it('a target corner exactly on a quarter ray does not break the Jacobite rulesets', () => {
    // B = [12,22]×[4,6]: its corner (12,4) lies on the 45° ray from A's front-right corner.
    const state = scene([12, 22, 4, 6]);
    const pp = getRuleset('prestonpans').ask(state, parseQuestion("can 'A' shoot 'B'?"), {}, EXACT_POLICY);
    expect(pp.answer).toBe('yes');
    expect(pp.value).toBeCloseTo(Math.sqrt(8), 9);
    expect(
      getRuleset('d3')
        .ask(state, parseQuestion("can 'A' shoot 'B'?"), { arcApex: 'frontCorners' }, EXACT_POLICY)
        .checks.find((c) => c.question === 'fieldOfFire')?.answer,
    ).toBe('yes');
  });
});
