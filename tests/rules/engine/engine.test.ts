import { describe, expect, it } from 'vitest';
import { parseQuestion, QuestionError } from '../../../src/rules/engine/question.ts';
import { compare } from '../../../src/rules/engine/threshold.ts';
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

describe('threshold policy', () => {
  it('within = ≤, more than = >, borderline inside the band', () => {
    expect(compare(12, 'atMost', 12, 0, { floor: 0, sigmas: 0 }).answer).toBe('yes');
    expect(compare(12, 'moreThan', 12, 0, { floor: 0, sigmas: 0 }).answer).toBe('no');
    const b = compare(12.1, 'atMost', 12, 0, { floor: 0.25, sigmas: 2 });
    expect(b).toMatchObject({ answer: 'borderline', lean: 'no' });
    expect(compare(12.4, 'atMost', 12, 0.3, { floor: 0.25, sigmas: 2 }).epsilon).toBeCloseTo(0.6, 9);
    expect(compare(12.4, 'atMost', 12, 0.3, { floor: 0.25, sigmas: 2 }).answer).toBe('borderline');
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
