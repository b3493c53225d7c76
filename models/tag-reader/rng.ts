import { Prng } from '../../src/synth/noise.ts';

/** The renderer's seeded xorshift PRNG with the draws the data generator needs. */
export class Rng {
  private readonly prng: Prng;
  constructor(seed: number) {
    this.prng = new Prng(seed);
  }
  /** Uniform in [0, 1). */
  next(): number {
    return this.prng.next();
  }
  uniform(a: number, b: number): number {
    return a + (b - a) * this.prng.next();
  }
  /** Log-uniform in [a, b] (a, b > 0). */
  logUniform(a: number, b: number): number {
    return Math.exp(this.uniform(Math.log(a), Math.log(b)));
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.min(n - 1, Math.floor(this.prng.next() * n));
  }
  chance(p: number): boolean {
    return this.prng.next() < p;
  }
  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = Math.max(1e-12, this.prng.next());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.prng.next());
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('nothing to pick from');
    return items[this.int(items.length)]!;
  }
}
