import { buildTableState, type TableState } from '../../../src/table/table-state.ts';
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
