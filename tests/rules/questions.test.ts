import { describe, expect, it } from 'vitest';
import { EXACT_POLICY } from '../../src/rules/engine/threshold.ts';
import { getRuleset, parseQuestion } from '../../src/rules/index.ts';
import { formatVerdict } from '../../src/rules/engine/verdict.ts';
import { CM, IN, rect, twoSidedTable } from './fixtures.ts';

/**
 * Questions carry their thresholds (issue 14, point 4), in every ruleset whose rules ask them:
 * a distance with an optional limit, an overhang with its value, "directly ahead" with its width,
 * a gap with its width. Each answer gives the measured value, the limit and the margin in the
 * ruleset's own unit.
 */
const ask = (ruleset: string, units: Parameters<typeof twoSidedTable>[3], q: string, size = 72 * IN) =>
  getRuleset(ruleset).ask(
    twoSidedTable('q', ruleset, { widthMm: size, depthMm: size }, units),
    parseQuestion(q),
    {},
    EXACT_POLICY,
  );

describe('distance with an optional limit', () => {
  // A and B 11.5 units apart (inches, or cm for O'er the Sea).
  const pair = (scale: number) => [
    rect('A', 10, 14, 10, 12, { scale, files: 2 }),
    rect('B', 10, 14, 23.5, 25.5, { scale, side: 'blue', headingDeg: 180, files: 2 }),
  ];
  it.each([
    ['black-powder', IN, 'in'],
    ['prestonpans', IN, 'in'],
    ['d3', IN, 'in'],
    ['oer-the-sea', CM, 'cm'],
  ] as const)(
    '%s: within 12 → yes, 0.5 to spare; more than 12 → no; no limit → the bare distance',
    (id, scale, unit) => {
      const within = ask(id, pair(scale), `is 'A' within 12 ${unit} of 'B'?`);
      expect(within).toMatchObject({ answer: 'yes', limit: 12, unit });
      expect(within.value).toBeCloseTo(11.5, 9);
      expect(within.margin).toBeCloseTo(-0.5, 9);
      expect(formatVerdict(within)).toMatch(new RegExp(`0\\.50 ${unit} to spare`));
      const more = ask(id, pair(scale), `is 'A' more than 12 ${unit} from 'B'?`);
      expect(more).toMatchObject({ answer: 'no', limit: 12 });
      const bare = ask(id, pair(scale), "distance 'A' 'B'");
      expect(bare.answer).toBe('yes');
      expect(bare.limit).toBeUndefined();
      expect(bare.value).toBeCloseTo(11.5, 9);
    },
  );
  it("a limit in another unit is converted to the ruleset's: 29 cm in Black Powder is 11.42 in", () => {
    const v = ask('black-powder', pair(IN), "is 'A' within 29 cm of 'B'?");
    expect(v.limit).toBeCloseTo(290 / 25.4, 9);
    expect(v.answer).toBe('no');
    expect(v.margin).toBeCloseTo(11.5 - 290 / 25.4, 9);
  });
});

describe('overhang with its value', () => {
  it("Black Powder: a base 0.5 in over the edge; O'er the Sea: a stand 0.5 cm over, in cm", () => {
    const bp = ask('black-powder', [rect('A', 10, 12, 70.5, 72.5, { files: 1 })], "has 'A' left the table?");
    expect(bp).toMatchObject({ answer: 'yes', unit: 'in', limit: 0 });
    expect(bp.value).toBeCloseTo(0.5, 9);
    const inside = ask(
      'oer-the-sea',
      [rect('A', 10, 14, 180, 182, { scale: CM, files: 1 })],
      "has 'A' left the table?",
      1830,
    );
    expect(inside).toMatchObject({ answer: 'no', unit: 'cm', limit: 0 });
    expect(inside.value).toBeCloseTo(-1, 9);
    const over = ask(
      'oer-the-sea',
      [rect('A', 10, 14, 181.5, 183.5, { scale: CM, files: 1 })],
      "has 'A' left the table?",
      1830,
    );
    expect(over).toMatchObject({ answer: 'yes', unit: 'cm' });
    expect(over.value).toBeCloseTo(0.5, 9);
    expect(over.reasons[0]).toMatch(/0\.5 cm past the table edge/);
  });
});

describe('"directly ahead" with its width (O\'er the Sea)', () => {
  it('a target reaching 2 cm into the 12 cm strip ahead: width 2 cm', () => {
    const v = ask(
      'oer-the-sea',
      [
        rect('S', 0, 12, -2, 0, { scale: CM, files: 3 }),
        rect('T', 10, 22, 20, 24, { scale: CM, side: 'blue', headingDeg: 180, files: 3 }),
      ],
      "is 'T' directly ahead of 'S'?",
      3000,
    );
    expect(v).toMatchObject({ answer: 'yes', unit: 'cm' });
    expect(v.value).toBeCloseTo(2, 9);
    expect(v.facts.widthCm).toBeCloseTo(2, 9);
  });
});

describe('gaps with their width', () => {
  it('Black Powder: the line of fire through a 5" gap between two friends (BP-E13) says 5.00 in, 6" needed', () => {
    const units = [
      rect('S', 25, 35, 10.5, 12, { files: 5, weapon: 'smoothbore musket' }),
      rect('L', 20, 27.5, 18, 19.5, { files: 3 }),
      rect('R', 32.5, 40, 18, 19.5, { files: 3 }),
      rect('T', 25, 35, 25, 26.5, { side: 'blue', headingDeg: 180, files: 5 }),
    ];
    const v = ask('black-powder', units, "can 'S' shoot 'T'?");
    const gap = v.checks.find((c) => c.question === 'gap');
    expect(gap).toMatchObject({ answer: 'no', unit: 'in', limit: 6 });
    expect(gap?.value).toBeCloseTo(5, 9);
    expect(v.answer).toBe('no');
  });
});
