import { describe, expect, it } from 'vitest';
import { PerEyeCache, passingEye } from '../../src/geometry/per-eye-cache.ts';
import type { Polygon } from '../../src/geometry/polygon.ts';

const square = (x: number): Polygon => [
  { x, y: 0 },
  { x: x + 1, y: 0 },
  { x: x + 1, y: 1 },
  { x, y: 1 },
];

describe('PerEyeCache', () => {
  it('keeps what an eye gives per outline, and a passing eye only until another eye asks', () => {
    const cache = new PerEyeCache<string>();
    const a = square(0);
    const b = square(5);
    let computed = 0;
    const value = (tag: string) => () => {
      computed++;
      return tag;
    };
    const kept = { x: 10, y: 10 };
    expect(cache.get(a, kept, value('a@kept'))).toBe('a@kept');
    expect(cache.get(a, { x: 10, y: 10 }, value('again'))).toBe('a@kept');
    expect(computed).toBe(1);

    const moved = { x: 10.25, y: 10 };
    passingEye(moved, () => {
      expect(cache.get(a, moved, value('a@moved'))).toBe('a@moved');
      expect(cache.get(b, moved, value('b@moved'))).toBe('b@moved');
      // The same passing eye asked again (a sight builds, then probes): not computed twice.
      expect(cache.get(a, moved, value('again'))).toBe('a@moved');
      // An eye kept before is read from where it is kept.
      expect(cache.get(a, kept, value('again'))).toBe('a@kept');
    });
    expect(computed).toBe(3);
    // Another passing eye takes the slot: the first is gone.
    passingEye({ x: 11, y: 10 }, () => cache.get(a, { x: 11, y: 10 }, value('a@11')));
    expect(computed).toBe(4);
    // The passing eye asked as an ordinary eye later is computed afresh (it was never kept) and
    // kept from then on.
    expect(cache.get(a, moved, value('a@moved, kept'))).toBe('a@moved, kept');
    expect(cache.get(a, moved, value('again'))).toBe('a@moved, kept');
    expect(computed).toBe(5);
  });
});
