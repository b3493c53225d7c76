import { describe, expect, it } from 'vitest';
import { sortAscending } from '../../src/geometry/sort-numbers.ts';
import { rng } from '../../bench/rules-scenario.ts';

describe('sortAscending (the slab sweep sorting its boundaries)', () => {
  it('gives the order Array.prototype.sort((p, q) => p − q) gives, ties (−0 and 0) and NaN included, on 3,000 random lists', () => {
    const r = rng(61);
    let long = 0;
    for (let k = 0; k < 3000; k++) {
      const n = Math.floor(r() * (k % 10 === 0 ? 300 : 40));
      // Few distinct values (many ties), −0 among them, and plain random ones.
      const values = Array.from({ length: n }, () => {
        const u = r();
        if (u < 0.1) return -0;
        if (u < 0.2) return 0;
        if (k % 50 === 7 && u < 0.25) return NaN;
        return k % 2 === 0 ? Math.floor(r() * 8) - 4 : (r() - 0.5) * 2000;
      });
      const truth = [...values].sort((p, q) => p - q);
      const buf = new Float64Array(n + 5);
      buf.set(values);
      buf[n] = 1e9; // past n: left alone
      sortAscending(buf, n);
      const got = Array.from(buf.subarray(0, n));
      for (let i = 0; i < n; i++) expect(Object.is(got[i], truth[i]), `case ${k}, at ${i}`).toBe(true);
      expect(buf[n]).toBe(1e9);
      if (n > 16) long++;
    }
    expect(long).toBeGreaterThan(300);
  });
});
