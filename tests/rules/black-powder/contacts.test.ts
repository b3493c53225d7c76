import { describe, expect, it } from 'vitest';
import {
  adjacentEngagedVerdict,
  contactsOf,
  engagedFaces,
  secondChargerVerdict,
} from '../../../src/rules/black-powder/contacts.ts';
import { retireQuarter } from '../../../src/rules/black-powder/retire.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { box, ctxOf, IN, table } from './fixtures.ts';

// T: a 10" line facing −y whose front edge lies along y = 0, x ∈ [−5, 5].
const T = () => box('T', -5, 5, 0, 1.5, { side: 'blue', headingDeg: 180 });

describe('contacts found on the table', () => {
  it('finds which units touch which face, and where along it (within the contact tolerance)', () => {
    const st = table([
      T(),
      box('A', -5, 1, -1.5, 0),
      box('B', 5.1, 6.6, 0, 4, { headingDeg: 90 }),
      box('Far', -5, 5, -3, -1.5),
    ]);
    const ctx = ctxOf(st);
    const cs = contactsOf(ctx, findUnit(st, 'T'));
    const a = cs.find((c) => c.unit.id === 'A')!;
    expect(a.face).toBe('front');
    expect(a.length / IN).toBeCloseTo(6, 6);
    // B stands 0.1" off T's left flank (T faces −y, so its left is +x): within the 0.25" tolerance.
    const b = cs.find((c) => c.unit.id === 'B')!;
    expect(b.face).toBe('left');
    expect(b.length / IN).toBeCloseTo(1.5, 6);
    expect(cs.some((c) => c.unit.id === 'Far')).toBe(false);
    // With a tighter tolerance B is no longer touching.
    expect(
      contactsOf(ctxOf(st, { contactToleranceIn: 0.05 }), findUnit(st, 'T')).some((c) => c.unit.id === 'B'),
    ).toBe(false);
    expect(engagedFaces(ctx, findUnit(st, 'T'))).toEqual(['front', 'left']); // A and B are red, T blue
  });

  it('engaged faces decide the retire quarter (only a flank engaged → retire away from it)', () => {
    const st = table([T(), box('B', 5, 6.5, 0, 4, { headingDeg: 90 })]);
    const faces = engagedFaces(ctxOf(st), findUnit(st, 'T'));
    expect(faces).toEqual(['left']);
    expect(retireQuarter(faces)).toBe('right');
  });
});

describe('second charger and adjacent units, from the footprints', () => {
  it('A holds 6" of a 10" face: only 4" open, so C may not charge it as well', () => {
    const st = table([T(), box('A', -5, 1, -1.5, 0), box('C', 1, 6, -1.6, -0.1)]);
    const v = secondChargerVerdict(ctxOf(st), findUnit(st, 'C'), findUnit(st, 'T'));
    expect(v.facts.face).toBe('front');
    expect(v.facts.free).toBeCloseTo(4, 6);
    expect(v.answer).toBe('no');
  });

  it('A holds 4": 6" open, and C can put 5" of its 5" frontage on it: allowed', () => {
    const st = table([T(), box('A', -5, -1, -1.5, 0), box('C', -1, 4, -1.6, -0.1)]);
    const v = secondChargerVerdict(ctxOf(st), findUnit(st, 'C'), findUnit(st, 'T'));
    expect(v.facts.free).toBeCloseTo(6, 6);
    expect(v.facts.contact).toBeCloseTo(5, 6);
    expect(v.answer).toBe('yes');
  });

  it('a charger not yet in place is judged on the longest open stretch', () => {
    // A in the middle leaves 2.5" either side: 5" open in total but no stretch of 3" for an 8" unit's half (4").
    const st = table([T(), box('A', -2.5, 2.5, -1.5, 0), box('C', -4, 4, -8, -6.5)]);
    const v = secondChargerVerdict(ctxOf(st), findUnit(st, 'C'), findUnit(st, 'T'));
    expect(v.facts.free).toBeCloseTo(5, 6);
    expect(v.facts.contact).toBeCloseTo(2.5, 6);
    expect(v.answer).toBe('no');
  });

  it('no one else on the face: the rule does not apply', () => {
    const st = table([T(), box('C', -4, 4, -8, -6.5)]);
    expect(secondChargerVerdict(ctxOf(st), findUnit(st, 'C'), findUnit(st, 'T')).answer).toBe('yes');
  });

  it('an adjacent enemy is engaged only when at least half its face is covered', () => {
    const adj = () => box('T2', 5, 15, 0, 1.5, { side: 'blue', headingDeg: 180 });
    const part = table([T(), adj(), box('C2', 3, 9, -1.5, 0)]);
    const v = adjacentEngagedVerdict(ctxOf(part), findUnit(part, 'C2'), findUnit(part, 'T2'));
    expect(v.value).toBeCloseTo(4, 6);
    expect(v.answer).toBe('no');
    expect(v.reasons.join(' ')).toMatch(/move it back about 1"/);
    const most = table([T(), adj(), box('C2', 3, 13, -1.5, 0)]);
    expect(adjacentEngagedVerdict(ctxOf(most), findUnit(most, 'C2'), findUnit(most, 'T2')).answer).toBe(
      'yes',
    );
  });
});
