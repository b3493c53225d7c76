import { describe, expect, it } from 'vitest';
import { bpContext } from '../../../src/rules/black-powder/context.ts';
import { pairTable, pairTablePlain, type PairFacts } from '../../../src/rules/black-powder/pair-table.ts';
import { sightBlocker, sightBlockerPlain } from '../../../src/rules/black-powder/sight.ts';
import { buildTableState } from '../../../src/table/table-state.ts';
import { benchScenario } from '../../../bench/rules-scenario.ts';
import { rng } from '../../../bench/rules-scenario.ts';
import { randomTable } from './random-table.ts';

/** A pair's answers as plain data, for exact comparison (no tolerance anywhere). */
const answers = (f: PairFacts) => ({
  from: f.from.id,
  to: f.to.id,
  range: f.range,
  quarter: f.quarter,
  sight: f.sight,
});

describe('the all-pairs table equals the questions asked one at a time', () => {
  it('on the 60-unit bench table', () => {
    const ctx = bpContext(buildTableState(benchScenario()));
    expect(pairTable(ctx).all().map(answers)).toEqual(pairTablePlain(ctx).map(answers));
  });

  it('on random tables, under every range origin and quarter reading', () => {
    let blocked = 0;
    let clear = 0;
    let touching = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const state = randomTable(seed, 12 + (seed % 20));
      const rangeFrom = (['leaderBase', 'leaderPoint', 'footprint'] as const)[seed % 3] as string;
      const quarterReading = seed % 2 === 0 ? 'bisector' : 'diagonal';
      const ctx = bpContext(state, { rangeFrom, quarterReading });
      const fast = pairTable(ctx).all().map(answers);
      const plain = pairTablePlain(ctx).map(answers);
      expect(fast.length).toBe(state.units.length * (state.units.length - 1));
      expect(fast, `seed ${seed}`).toEqual(plain);
      for (const f of fast) {
        if (f.sight) blocked++;
        else clear++;
        if (f.range.mm === 0) touching++;
      }
    }
    // Not a vacuous comparison: both answers occur often, and some units overlap or touch.
    expect(blocked).toBeGreaterThan(1000);
    expect(clear).toBeGreaterThan(1000);
    expect(touching).toBeGreaterThan(0);
  });

  it('random sight lines: the indexed sightBlocker names the same blocker at the same place as the plain scan', () => {
    const r = rng(99);
    for (let seed = 100; seed < 110; seed++) {
      const state = randomTable(seed, 30);
      const ctx = bpContext(state);
      for (let k = 0; k < 300; k++) {
        const eye = { x: r() * 72 * 25.4, y: r() * 48 * 25.4 };
        const p = { x: r() * 72 * 25.4, y: r() * 48 * 25.4 };
        const ex = new Set(r() < 0.5 ? [] : [state.units[Math.floor(r() * state.units.length)]!.id]);
        const overSide = r() < 0.2 ? 'red' : undefined;
        const opts = { exclude: ex, ...(overSide ? { overSide } : {}) };
        expect(sightBlocker(ctx, eye, p, opts)).toEqual(sightBlockerPlain(ctx, eye, p, opts));
      }
    }
  });
});
