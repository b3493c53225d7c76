import { describe, expect, it } from 'vitest';
import { rng } from '../../bench/rules-scenario.ts';
import { hypot } from '../../src/geometry/hypot.ts';

/**
 * hypot must be Math.hypot of two numbers, bit for bit (Object.is: −0, NaN, Infinity included):
 * every distance and sight lever of the rules goes through it. Truth: Math.hypot itself, on
 * pairs of every magnitude (table millimetres, tiny differences, huge and subnormal numbers,
 * equal magnitudes, signed zeros), called often enough that both run optimised.
 */

const SPECIAL = [0, -0, 1, -1, NaN, Infinity, -Infinity, 5e-324, -5e-324, 1.7976931348623157e308, 2 ** -1022];

function sample(r: () => number): number {
  const t = r();
  if (t < 0.05) return SPECIAL[Math.floor(r() * SPECIAL.length)] as number;
  if (t < 0.5) return (r() - 0.5) * 4000; // table millimetres
  if (t < 0.7) return (r() - 0.5) * 1e-6; // rounding-sized differences
  if (t < 0.8) return Math.round((r() - 0.5) * 200); // integers (equal magnitudes, zeros)
  const e = Math.floor(r() * 2000) - 1075; // every binade
  return (r() < 0.5 ? -1 : 1) * r() * 2 ** e;
}

describe('hypot', () => {
  it('is Math.hypot of two numbers, bit for bit, on 2,000,000 pairs', () => {
    const r = rng(21);
    let differing = 0;
    let first = '';
    for (let n = 0; n < 2_000_000; n++) {
      const x = sample(r);
      const y = r() < 0.1 ? (r() < 0.5 ? x : -x) : sample(r);
      const mine = hypot(x, y);
      const theirs = Math.hypot(x, y);
      if (!Object.is(mine, theirs)) {
        differing++;
        first ||= `hypot(${x}, ${y}) = ${mine}, Math.hypot ${theirs}`;
      }
    }
    expect(first).toBe('');
    expect(differing).toBe(0);
  });
});
