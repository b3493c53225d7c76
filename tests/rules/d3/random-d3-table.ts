import { d3Context, type D3Context } from '../../../src/rules/d3/context.ts';
import { DEFAULT_POLICY } from '../../../src/rules/engine/threshold.ts';
import { buildTableState, type TableState } from '../../../src/table/table-state.ts';
import type { TableUnit } from '../../../src/table/table-unit.ts';
import { drawnToCentre, randomScenario } from '../black-powder/random-table.ts';

/**
 * A random table read by D3: half the foot are Highlanders (who charge), and every unit is drawn
 * halfway to the table's centre so that charges within a move or two are common, not only far ones.
 */
export function d3Table(seed: number, units: number): TableState {
  const s = drawnToCentre(randomScenario(seed, units), 0.5);
  return buildTableState({
    ...s,
    ruleset: 'd3',
    units: s.units.map((u, i) =>
      u.type === 'infantry' && i % 2 === 0 ? { ...u, troop: 'Highland foot' } : u,
    ),
  });
}

/** Every charger and enemy target on random D3 tables of `units` units, under both pivots. */
export function* enemyCharges(
  seeds: readonly number[],
  units: number,
): Generator<{ readonly ctx: D3Context; readonly charger: TableUnit; readonly target: TableUnit }> {
  for (const seed of seeds) {
    const state = d3Table(seed, units);
    for (const chargePivot of ['innerCorner', 'centre'] as const) {
      const ctx = d3Context(state, { chargePivot }, DEFAULT_POLICY);
      for (const charger of state.units)
        for (const target of state.units)
          if (charger !== target && charger.side !== target.side) yield { ctx, charger, target };
    }
  }
}
