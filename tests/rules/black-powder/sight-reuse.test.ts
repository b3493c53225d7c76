import { describe, expect, it } from 'vitest';
import { movedUnit, rng } from '../../../bench/rules-scenario.ts';
import type { Polygon } from '../../../src/geometry/polygon.ts';
import { bpContext } from '../../../src/rules/black-powder/context.ts';
import { sightScreens } from '../../../src/rules/black-powder/sight.ts';
import { noteFollows } from '../../../src/rules/engine/table-lineage.ts';
import { buildTableState } from '../../../src/table/table-state.ts';
import { randomScenario } from './random-table.ts';

const samePoints = (a: Polygon, b: Polygon): boolean =>
  a.length === b.length && a.every((p, i) => Object.is(p.x, b[i]?.x) && Object.is(p.y, b[i]?.y));

describe('sight screens taken over from the table before an update', () => {
  it('are point for point those built afresh, and the unchanged pieces’ outlines are the very objects of the table before', () => {
    const r = rng(67);
    let reused = 0;
    let rebuilt = 0;
    for (let k = 0; k < 24; k++) {
      const scenario = randomScenario(100 + k, 16);
      const before = buildTableState(scenario);
      const opts = { exclude: new Set<string>() };
      const old = sightScreens(bpContext(before), opts);
      const unit = before.units[Math.floor(r() * before.units.length)];
      if (!unit) continue;
      const moved = movedUnit(scenario, unit.id, (r() - 0.5) * 100, (r() - 0.5) * 100, (r() - 0.5) * 30);
      const after = buildTableState(moved);
      noteFollows(after, before);
      const got = sightScreens(bpContext(after), opts);
      // Truth: the same table built afresh, with no table before it.
      const fresh = sightScreens(bpContext(buildTableState(moved)), opts);
      expect(got.length).toBe(fresh.length);
      got.forEach((s, i) => {
        const f = fresh[i];
        expect(s.id).toBe(f?.id);
        expect(s.kind).toBe(f?.kind);
        expect(s.box).toEqual(f?.box);
        expect(samePoints(s.polygon, f?.polygon ?? [])).toBe(true);
        const o = old.find((x) => x.id === s.id && samePoints(x.polygon, s.polygon));
        if (s.id === unit.id) {
          expect(old.some((x) => x.polygon === s.polygon)).toBe(false);
          rebuilt++;
        } else {
          expect(o?.polygon).toBe(s.polygon);
          reused++;
        }
      });
    }
    expect(reused).toBeGreaterThan(300);
    expect(rebuilt).toBeGreaterThan(20);
  });
});
