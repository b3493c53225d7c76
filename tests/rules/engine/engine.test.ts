import { describe, expect, it } from 'vitest';
import { marginWords, measureLine, possessive } from '../../../src/rules/engine/words.ts';
import { parseQuestion, QuestionError } from '../../../src/rules/engine/question.ts';
import { compareLength } from '../../../src/rules/engine/threshold.ts';
import { OptionError, resolveOptions } from '../../../src/rules/engine/options.ts';
import { BP_OPTION_SPECS } from '../../../src/rules/black-powder/options.ts';
import { getRuleset } from '../../../src/rules/index.ts';

describe('question parser', () => {
  it.each([
    ["can 'Lee's' shoot 'Camerons'?", 'shoot', "Lee's", 'Camerons'],
    ['can "Lee\'s" fire at "Camerons"', 'shoot', "Lee's", 'Camerons'],
    ["can 'Camerons' charge 'Lee's'?", 'charge', 'Camerons', "Lee's"],
    ["does 'Lee's' see 'Camerons'?", 'see', "Lee's", 'Camerons'],
    ["distance 'Lee's' 'Camerons'", 'distance', "Lee's", 'Camerons'],
    ["which quarter of 'Camerons' is 'Lee's' in?", 'quarter', "Lee's", 'Camerons'],
  ])('%s', (text, kind, subject, object) => {
    expect(parseQuestion(text)).toMatchObject({ kind, subject, object });
  });
  it('refuses nonsense with examples', () => {
    expect(() => parseQuestion('who wins?')).toThrow(QuestionError);
  });
});

describe('distance questions carry their threshold', () => {
  it('within / more than / less than / at least, with or without a unit', () => {
    expect(parseQuestion("is 'A' within 12 in of 'B'?").limit).toEqual({
      value: 12,
      unit: 'in',
      comparison: 'atMost',
    });
    expect(parseQuestion("is 'A' more than 8\" from 'B'?").limit).toEqual({
      value: 8,
      unit: 'in',
      comparison: 'moreThan',
    });
    expect(parseQuestion("is 'A' less than 30 cm from 'B'?").limit).toEqual({
      value: 30,
      unit: 'cm',
      comparison: 'lessThan',
    });
    expect(parseQuestion("is 'A' at least 6 of 'B'?").limit).toEqual({ value: 6, comparison: 'atLeast' });
  });
});

describe('threshold policy', () => {
  it('within = ≤, more than = >, borderline inside the band', () => {
    const compare = (
      v: number,
      c: 'atMost' | 'moreThan',
      l: number,
      s: number,
      p: { floor: number; sigmas: number },
    ) => compareLength(v, c, l, s, p, 25.4);
    expect(compare(12, 'atMost', 12, 0, { floor: 0, sigmas: 0 }).answer).toBe('yes');
    expect(compare(12, 'moreThan', 12, 0, { floor: 0, sigmas: 0 }).answer).toBe('no');
    const b = compare(12.1, 'atMost', 12, 0, { floor: 0.25, sigmas: 2 });
    expect(b).toMatchObject({ answer: 'borderline', lean: 'no' });
    expect(compare(12.4, 'atMost', 12, 0.3, { floor: 0.25, sigmas: 2 }).epsilon).toBeCloseTo(0.6, 9);
    expect(compare(12.4, 'atMost', 12, 0.3, { floor: 0.25, sigmas: 2 }).answer).toBe('borderline');
    // The band as a distance on the table: 0.6 in = 15.24 mm; the margin 0.4 in = 10.16 mm of movement.
    expect(compare(12.4, 'atMost', 12, 0.3, { floor: 0.25, sigmas: 2 }).bandMm).toBeCloseTo(15.24, 9);
    expect(compare(12.4, 'atMost', 12, 0.3, { floor: 0.25, sigmas: 2 }).moveMm).toBeCloseTo(10.16, 9);
  });
});

describe('options', () => {
  it('defaults, string overrides converted, bad values refused', () => {
    const o = resolveOptions(BP_OPTION_SPECS, {
      quarterReading: 'diagonal',
      woodsSightDepthIn: '2',
      artilleryArcHalfRule: 'false',
    });
    expect(o.quarterReading).toBe('diagonal');
    expect(o.woodsSightDepthIn).toBe(2);
    expect(o.artilleryArcHalfRule).toBe(false);
    expect(resolveOptions(BP_OPTION_SPECS).rangeFrom).toBe('leaderBase');
    expect(() => resolveOptions(BP_OPTION_SPECS, { quarterReading: 'sideways' })).toThrow(OptionError);
    expect(() => resolveOptions(BP_OPTION_SPECS, { nonsense: 1 })).toThrow(OptionError);
  });
  it('every option documents what it decides', () => {
    for (const spec of Object.values(BP_OPTION_SPECS)) expect(spec.summary.length).toBeGreaterThan(10);
  });
  it('Black Powder is registered', () => {
    expect(getRuleset('black-powder').unit).toBe('in');
  });
});

describe("players' words", () => {
  it('margins say to spare or short, by the side of their own limit', () => {
    expect(marginWords({ margin: -0.29, lean: 'yes', unit: 'in' })).toBe('0.29 in to spare');
    expect(marginWords({ margin: 0.12, lean: 'no', unit: 'in' })).toBe('0.12 in short');
    // A composite (can S shoot T?) that is no for another reason still has its range to spare.
    expect(marginWords({ margin: -10.8, lean: 'no', marginLean: 'yes', unit: 'in' })).toBe(
      '10.80 in to spare',
    );
    expect(marginWords({ margin: 1.5, lean: 'yes', unit: 'cm' })).toBe('1.50 cm to spare');
  });
  it('a share at its limit says the move, or nothing when no move within reach changes it', () => {
    // None of a target seen, and seen from a place 0.4 in over: the move is what counts.
    expect(marginWords({ margin: 0, lean: 'no', unit: '%', moveMm: 10.16 })).toBe('0.40 in short');
    // Seen whole, a shadow's corner nicking it in the probes: no 268 m move in words.
    expect(marginWords({ margin: -100, lean: 'yes', unit: '%', moveMm: 267_922 })).toBe('100.0% to spare');
    expect(marginWords({ margin: -50, lean: 'yes', unit: '%', moveMm: 254 })).toBe(
      '50.0% to spare, a move of 10.00 in',
    );
    // Hidden from every place nearby: "0.0% short" said nothing.
    expect(marginWords({ margin: 0, lean: 'no', unit: '%', moveMm: Infinity })).toBe('');
    expect(
      measureLine({
        ruleset: 'black-powder',
        question: 'visible',
        asked: 'can A see B?',
        answer: 'no',
        lean: 'no',
        value: 0,
        limit: 0,
        margin: 0,
        epsilon: 0,
        unit: '%',
        moveMm: Infinity,
        bandMm: 6.35,
        reasons: [],
        options: {},
        facts: {},
        checks: [],
      }),
    ).toBe('0.0% against 0.0% (band ± 0.25 in)');
  });
  it('possessives read right', () => {
    expect(possessive("Lee's")).toBe("Lee's");
    expect(possessive('Camerons')).toBe("Camerons'");
    expect(possessive('Gardiner')).toBe("Gardiner's");
  });
});
