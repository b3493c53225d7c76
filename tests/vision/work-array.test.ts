import { describe, expect, it } from 'vitest';
import { WorkArray } from '../../src/vision/work-array.ts';

describe('work arrays', () => {
  it('hands out zeroed views of the asked length, as fresh arrays would be, after scribbling', () => {
    const work = new WorkArray(Float64Array);
    for (const n of [5, 17, 3, 40, 40, 0, 1000, 7]) {
      const a = work.take(n);
      expect(a).toBeInstanceOf(Float64Array);
      expect(a.length).toBe(n);
      expect(Array.from(a)).toEqual(new Array<number>(n).fill(0));
      a.fill(-3.5); // the next take must not see this
    }
  });

  it('reuses one buffer for sizes it has held, and makes arrays over its cap fresh', () => {
    const work = new WorkArray(Int32Array, 100);
    const a = work.take(60);
    const b = work.take(30);
    expect(b.buffer).toBe(a.buffer);
    const big = work.take(101);
    expect(big.length).toBe(101);
    expect(big.buffer).not.toBe(a.buffer);
    expect(work.take(10).buffer).toBe(a.buffer);
  });
});
