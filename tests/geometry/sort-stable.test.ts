import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import { byCodeUnits, sortStable } from '../../src/geometry/sort-stable.ts';

/**
 * sortStable must give the order Array.prototype.sort gives with the same comparison (ties in
 * their order: it is stable), element for element. Truth: Array.prototype.sort itself, on random
 * lists of every length up to past the insertion limit, with many ties (points by x then y, as
 * hulls sort them; shares, as hiders are sorted; ids, as the default sort orders strings).
 */

interface P {
  readonly x: number;
  readonly y: number;
  readonly id: number;
}

describe('sortStable', () => {
  it('orders as Array.prototype.sort on 20,000 random lists with ties, zeros of both signs', () => {
    const r = rng(17);
    const pick = (): number => [0, -0, 1, 1.5, -2, r() * 10][Math.floor(r() * 6)] as number;
    for (let n = 0; n < 20000; n++) {
      const len = Math.floor(r() * 24);
      const list: P[] = Array.from({ length: len }, (_, id) => ({ x: pick(), y: pick(), id }));
      const byXY = (a: P, b: P) => a.x - b.x || a.y - b.y;
      const byShare = (a: P, b: P) => b.x - a.x;
      for (const cmp of [byXY, byShare]) {
        const want = [...list].sort(cmp).map((p) => p.id);
        const copy = [...list];
        expect(sortStable(copy, cmp).map((p) => p.id)).toEqual(want);
      }
      const ids = list.map((p) => `u${Math.floor(p.x * 3)}${p.id % 3}`);
      expect(sortStable([...ids], byCodeUnits)).toEqual([...ids].sort());
    }
  });
});
