import { describe, expect, it } from 'vitest';
import { rng } from '../../../bench/rules-scenario.ts';
import { measuredBy } from '../../../src/rules/engine/composite.ts';
import { copyOf, verdictOf, type Verdict, type VerdictInit } from '../../../src/rules/engine/verdict.ts';

/**
 * Verdicts are built by copying their init key by key (copyOf) instead of spreading it: the
 * result must be what the spread gives, key order included (a verdict's JSON is its text in
 * replays and on the wire), with undefined values kept and keys set again staying in place.
 * Truth: the spread itself, on random objects of the keys verdicts use, in random orders.
 */

const KEYS = [
  'question',
  'asked',
  'answer',
  'lean',
  'value',
  'limit',
  'margin',
  'marginLean',
  'epsilon',
  'unit',
  'moveMm',
  'bandMm',
  'between',
  'measured',
  'role',
  'reasons',
  'options',
  'facts',
  'checks',
  'hiddenUntilDeclared',
  '0',
  '12',
];

function randomObject(r: () => number): Record<string, unknown> {
  const keys = KEYS.filter(() => r() < 0.4).sort(() => r() - 0.5);
  const o: Record<string, unknown> = {};
  for (const k of keys) {
    const t = r();
    o[k] =
      t < 0.15
        ? undefined
        : t < 0.3
          ? -0
          : t < 0.5
            ? r() * 100
            : t < 0.7
              ? `w${Math.floor(r() * 9)}`
              : t < 0.85
                ? ['x']
                : { a: 1 };
  }
  if (!('answer' in o)) o.answer = r() < 0.5 ? 'no' : 'yes';
  return o;
}

/** Keys in order and values, Object.is. */
function same(a: object, b: object): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join('\u0000') !== kb.join('\u0000')) return false;
  return ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** measuredBy as it was written, with spreads: the reference. */
function measuredBySpread(check: Verdict | undefined): object {
  if (!check || check.value === undefined) return {};
  return {
    value: check.value,
    ...(check.limit !== undefined ? { limit: check.limit } : {}),
    ...(check.margin !== undefined
      ? { margin: check.margin, marginLean: check.marginLean ?? check.lean }
      : {}),
    ...(check.epsilon !== undefined ? { epsilon: check.epsilon } : {}),
    ...(check.unit !== undefined ? { unit: check.unit } : {}),
    ...(check.moveMm !== undefined ? { moveMm: check.moveMm } : {}),
    ...(check.bandMm !== undefined ? { bandMm: check.bandMm } : {}),
    ...(check.between ? { between: check.between } : {}),
    ...(check.measured ? { measured: check.measured } : {}),
  };
}

describe('verdicts copied key by key equal the spread', () => {
  it('copyOf then keys set, verdictOf and measuredBy on 20,000 random objects: same keys, order and values', () => {
    const r = rng(13);
    let differing = 0;
    let kept = 0;
    for (let n = 0; n < 20000; n++) {
      const o = randomObject(r);
      // Keys set afterwards, some already there (they stay in place), some new (appended).
      const later = KEYS.filter(() => r() < 0.3).sort(() => r() - 0.5);
      const copy = copyOf(o);
      const spread: Record<string, unknown> = { ...o };
      for (const k of later) {
        const v = r() < 0.2 ? undefined : r();
        copy[k] = v;
        spread[k] = v;
        if (k in o) kept++;
      }
      if (!same(copy, spread)) differing++;
      const init = o as unknown as Omit<VerdictInit, 'ruleset'>;
      const reference = {
        ...init,
        ruleset: 'rs',
        lean: init.lean ?? (init.answer === 'no' ? 'no' : 'yes'),
        reasons: init.reasons ?? [],
        options: init.options ?? {},
        facts: init.facts ?? {},
        checks: init.checks ?? [],
      };
      const built = verdictOf(init, 'rs');
      // Fresh [] / {} defaults are new objects each time: compare those by content. The empty
      // options, facts and checks are shared by every verdict, so they must be frozen and empty.
      for (const k of ['reasons', 'options', 'facts', 'checks'] as const)
        if ((init as Record<string, unknown>)[k] === undefined) {
          expect(built[k]).toStrictEqual(reference[k]);
          if (k !== 'reasons') expect(Object.isFrozen(built[k])).toBe(true);
          (reference as Record<string, unknown>)[k] = built[k];
        }
      if (!same(built, reference)) differing++;
      if (!same(measuredBy(o as unknown as Verdict), measuredBySpread(o as unknown as Verdict))) differing++;
    }
    expect(differing).toBe(0);
    expect(kept).toBeGreaterThan(1000);
  });
});
