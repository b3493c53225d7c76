import { describe, expect, it } from 'vitest';
import { rng } from '../../../bench/rules-scenario.ts';
import { unionBox, type Box } from '../../../src/geometry/box.ts';
import {
  LookBounds,
  LookRecord,
  noteLooked,
  noteSegment,
  noteSight,
  withLookRecord,
} from '../../../src/geometry/look-record.ts';
import { sightWindow } from '../../../src/geometry/visible-region.ts';
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

describe('pair cache after moves (rebaseAfterMoves)', () => {
  it('keeps the very results rebase keeps under the update rule, on 300 random caches and moves', () => {
    const scenario = randomScenario(5, 8);
    const r = rng(17);
    let differing = 0;
    let kept = 0;
    let dropped = 0;
    for (let round = 0; round < 300; round++) {
      const state = buildTableState(scenario);
      const ids = state.units.map((u) => u.id);
      // Two caches filled alike: results about random pairs, looking at random boxes, segments
      // and sight windows (or nowhere).
      const caches = [new PairCache(), new PairCache()] as const;
      for (const c of caches) c.reset(state);
      const entries = Array.from({ length: 40 }, (_, k) => {
        const x = r() * 1500;
        const y = r() * 1000;
        const w = r() * 300;
        return {
          key: `k${k}`,
          // One to three units (a result about a pair, or about more).
          units: Array.from(
            { length: 1 + Math.floor(r() * 3) },
            () => ids[Math.floor(r() * ids.length)] as string,
          ),
          kind: Math.floor(r() * 4),
          box: { minX: x, minY: y, maxX: x + w, maxY: y + r() * 300 },
          eye: { x: r() * 1500, y: r() * 1000 },
        };
      });
      for (const c of caches)
        withLookRecord(new LookRecord(), () =>
          entries.forEach((e) =>
            c.get(e.key, e.units, () => {
              if (e.kind === 1) noteLooked(e.box);
              else if (e.kind === 2) noteSegment(e.eye, { x: e.box.minX, y: e.box.minY }, 20);
              else if (e.kind === 3) noteSight(e.eye, e.box, sightWindow(e.eye, e.box, 1));
              return e.key;
            }),
          ),
        );
      const movedIds = ids.filter(() => r() < 0.15);
      const x = r() * 1500;
      const y = r() * 1000;
      const boxes: Box[] = [
        { minX: x, minY: y, maxX: x + 100, maxY: y + 60 },
        { minX: x + 50, minY: y + 20, maxX: x + 150 + r() * 200, maxY: y + 90 },
      ];
      const union = unionBox(boxes);
      const touched = (look: LookRecord) => boxes.some((b) => look.meets(b));
      const next = buildTableState(scenario);
      caches[0].rebase(
        next,
        (units, look) => look !== undefined && !units.some((u) => movedIds.includes(u)) && !touched(look),
      );
      caches[1].rebaseAfterMoves(next, movedIds, union, touched);
      const left = (c: PairCache) =>
        entries.filter((e) => c.get(e.key, e.units, () => 'computed') === e.key).map((e) => e.key);
      const a = left(caches[0]);
      const b = left(caches[1]);
      if (a.join() !== b.join()) differing++;
      kept += a.length;
      dropped += entries.length - a.length;
    }
    expect(differing).toBe(0);
    expect(kept).toBeGreaterThan(1000);
    expect(dropped).toBeGreaterThan(1000);
  });
});

describe('LookBounds', () => {
  it('a slot meets a box exactly when its record’s own bounds do (also once copied); an empty slot meets nothing', () => {
    const r = rng(23);
    const bounds = new LookBounds(500);
    const records: (LookRecord | undefined)[] = [];
    for (let k = 0; k < 500; k++) {
      const rec = r() < 0.2 ? undefined : new LookRecord();
      if (rec)
        withLookRecord(rec, () =>
          noteLooked({ minX: r() * 1000, minY: r() * 1000, maxX: 1000 + r() * 200, maxY: 1000 + r() * 200 }),
        );
      records.push(rec);
      bounds.set(k, rec);
    }
    // Slots taken over from another LookBounds (an update keeping a pair) are the same slots,
    // copied in a shuffled order.
    const copied = new LookBounds(500);
    for (const k of Array.from({ length: 500 }, (_, i) => i).sort(() => r() - 0.5)) copied.copy(k, bounds);
    let meets = 0;
    for (let t = 0; t < 2000; t++) {
      const x = r() * 1400 - 100;
      const y = r() * 1400 - 100;
      const box = { minX: x, minY: y, maxX: x + r() * 50, maxY: y + r() * 50 };
      for (let k = 0; k < 500; k++) {
        const rec = records[k];
        const want =
          rec !== undefined &&
          box.minX <= rec.maxX &&
          rec.minX <= box.maxX &&
          box.minY <= rec.maxY &&
          rec.minY <= box.maxY;
        expect(bounds.meets(k, box)).toBe(want);
        expect(copied.meets(k, box)).toBe(want);
        if (want) meets++;
      }
    }
    expect(meets).toBeGreaterThan(10000);
  });
});

describe('pair cache results computed without being kept (keep false)', () => {
  it('give the same value and note the same looks as kept ones, and are not kept', () => {
    const r = rng(31);
    const state = buildTableState(randomScenario(4, 4));
    let compared = 0;
    for (let round = 0; round < 200; round++) {
      const shapes = Array.from({ length: 1 + Math.floor(r() * 4) }, () => {
        const x = r() * 1500;
        const y = r() * 1000;
        return {
          kind: Math.floor(r() * 3),
          box: { minX: x, minY: y, maxX: x + r() * 300, maxY: y + r() * 300 },
          eye: { x: r() * 1500, y: r() * 1000 },
        };
      });
      const compute = () => {
        for (const sh of shapes)
          if (sh.kind === 0) noteLooked(sh.box);
          else if (sh.kind === 1) noteSegment(sh.eye, { x: sh.box.maxX, y: sh.box.maxY }, 10);
          else noteSight(sh.eye, sh.box, sightWindow(sh.eye, sh.box, 1));
        return round;
      };
      const kept = new PairCache();
      const notKept = new PairCache();
      kept.reset(state);
      notKept.reset(state);
      const a = new LookRecord();
      const b = new LookRecord();
      const va = withLookRecord(a, () => kept.get('k', ['u0', 'u1'], compute));
      const vb = withLookRecord(b, () => notKept.get('k', ['u0', 'u1'], compute, false));
      expect(vb).toBe(va);
      expect([b.minX, b.minY, b.maxX, b.maxY]).toStrictEqual([a.minX, a.minY, a.maxX, a.maxY]);
      for (let t = 0; t < 40; t++) {
        const x = r() * 1600 - 50;
        const y = r() * 1100 - 50;
        const box = { minX: x, minY: y, maxX: x + r() * 100, maxY: y + r() * 100 };
        expect(b.meets(box)).toBe(a.meets(box));
        compared++;
      }
      expect(kept.size).toBe(1);
      expect(notKept.size).toBe(0);
      // A kept result is still reused when asked not to keep.
      expect(kept.get('k', ['u0', 'u1'], () => -1, false)).toBe(round);
    }
    expect(compared).toBe(8000);
  });
});
