import { describe, expect, it } from 'vitest';
import { rng } from '../../../bench/rules-scenario.ts';
import { flatString, flatStrings } from '../../../src/rules/engine/flat-string.ts';

/**
 * Kept verdict strings are flattened in place (flat-string.ts): the text must be the very same.
 * Truth: the same text built apart, by joining its parts (a flat string from the start).
 */

const WORDS = [
  'Unit 0',
  "'s front edge",
  ' to ',
  'the wood',
  ': ',
  '57.6 in',
  '',
  'é',
  '100% hidden by ',
  '"',
];

describe('flatString', () => {
  it('gives back the same text for strings built by templates and +, of every length', () => {
    const r = rng(4);
    let long = 0;
    for (let n = 0; n < 5000; n++) {
      const parts: string[] = [];
      const k = Math.floor(r() * 9);
      for (let i = 0; i < k; i++) parts.push(WORDS[Math.floor(r() * WORDS.length)] as string);
      let built = '';
      for (const p of parts) built = r() < 0.5 ? `${built}${p}` : built + p;
      const apart = parts.join('');
      if (apart.length > 12) long++;
      expect(flatString(built)).toBe(apart);
      const list = [built, `${built}!`];
      expect(flatStrings(list)).toBe(list);
      expect(list).toEqual([apart, `${apart}!`]);
    }
    expect(long).toBeGreaterThan(2000);
  });
});
