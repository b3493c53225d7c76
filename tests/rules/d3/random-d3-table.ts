import type { Scenario } from '../../../src/table/scenario.ts';
import { buildTableState, type TableState } from '../../../src/table/table-state.ts';
import { IN } from '../fixtures.ts';
import { randomScenario } from '../black-powder/random-table.ts';

/**
 * A random table read by D3: half the foot are Highlanders (who charge), and every unit is drawn
 * halfway to the table's centre so that charges within a move or two are common, not only far ones.
 */
export function d3Table(seed: number, units: number): TableState {
  const s = randomScenario(seed, units);
  const cx = 36 * IN;
  const cy = 24 * IN;
  const scenario: Scenario = {
    ...s,
    ruleset: 'd3',
    units: s.units.map((u, i) => {
      const mx = u.bases.reduce((a, b) => a + (b.pose?.x ?? 0), 0) / u.bases.length;
      const my = u.bases.reduce((a, b) => a + (b.pose?.y ?? 0), 0) / u.bases.length;
      const dx = (cx - mx) / 2;
      const dy = (cy - my) / 2;
      return {
        ...u,
        ...(u.type === 'infantry' && i % 2 === 0 ? { troop: 'Highland foot' } : {}),
        bases: u.bases.map((b) =>
          b.pose ? { ...b, pose: { ...b.pose, x: b.pose.x + dx, y: b.pose.y + dy } } : b,
        ),
      };
    }),
  };
  return buildTableState(scenario);
}
