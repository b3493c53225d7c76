import { describe, expect, it } from 'vitest';
import { LookRecord, noteLooked, withLookRecord } from '../../../src/geometry/look-record.ts';
import { bpContext } from '../../../src/rules/black-powder/context.ts';
import { PairCache, pairCached, withPairCache } from '../../../src/rules/engine/pair-cache.ts';
import { buildTableState, type TableState } from '../../../src/table/table-state.ts';
import type { TableUnit } from '../../../src/table/table-unit.ts';
import { randomScenario } from '../black-powder/random-table.ts';

/** A result is reused only for the very table, units and options it was computed for. */
describe('pair cache', () => {
  const scenario = randomScenario(3, 6);
  const state = buildTableState(scenario);
  const [a, b] = state.units as [TableUnit, TableUnit];
  const counting = () => {
    let n = 0;
    return { run: () => ++n, count: () => n };
  };

  it('reuses a pair result under the same table and options, and nowhere else', () => {
    const cache = new PairCache();
    cache.reset(state);
    const c = counting();
    const ctx = bpContext(state);
    withPairCache(cache, () => {
      expect(pairCached(ctx, 'x', a, b, c.run)).toBe(1);
      expect(pairCached(ctx, 'x', a, b, c.run)).toBe(1);
      expect(pairCached(bpContext(state), 'x', a, b, c.run)).toBe(1); // same table, same options
      expect(pairCached(ctx, 'x', b, a, c.run)).toBe(2); // the other way round
      expect(pairCached(bpContext(state, { woodsSightDepthIn: 3 }), 'x', a, b, c.run)).toBe(3);
      const other: TableState = buildTableState(scenario); // equal, but another table
      const [oa, ob] = other.units as [TableUnit, TableUnit];
      expect(pairCached(bpContext(other), 'x', oa, ob, c.run)).toBe(4);
      expect(pairCached(bpContext(other), 'x', oa, ob, c.run)).toBe(5);
      // Units not of the bound table (a unit posed elsewhere, same id): never from the cache.
      expect(pairCached(ctx, 'x', { ...a }, b, c.run)).toBe(6);
    });
    // No cache active: always computed.
    expect(pairCached(ctx, 'x', a, b, c.run)).toBe(7);
  });

  it('notes a remembered result’s looks again when it is reused; rebase keeps only what it is told', () => {
    const cache = new PairCache();
    cache.reset(state);
    const ctx = bpContext(state);
    const looked = () => {
      noteLooked({ minX: 10, minY: 10, maxX: 20, maxY: 20 });
      return 'v';
    };
    const first = new LookRecord();
    const second = new LookRecord();
    withPairCache(cache, () => {
      withLookRecord(first, () => pairCached(ctx, 'y', a, b, looked));
      withLookRecord(second, () => pairCached(ctx, 'y', a, b, () => 'not computed'));
    });
    expect(cache.hits).toBe(1);
    for (const r of [first, second]) {
      expect(r.meets({ minX: 15, minY: 15, maxX: 16, maxY: 16 })).toBe(true);
      expect(r.meets({ minX: 30, minY: 30, maxX: 31, maxY: 31 })).toBe(false);
    }
    const moved = buildTableState(scenario);
    cache.rebase(moved, (ids) => !ids.includes(a.id));
    expect(cache.size).toBe(0);
  });
});
