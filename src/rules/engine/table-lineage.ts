import type { TableState } from '../../table/table-state.ts';

/**
 * Which table came just before which in a run of updates (the all-pairs update notes it): what a
 * ruleset builds per table from units and terrain (sight outlines, say) may take the previous
 * table's objects for the pieces that did not change, so that everything kept per outline object
 * (each eye's shadows, woods' rays) is found again. Only the last link is kept: noting a table's
 * successor forgets the table's own predecessor, so no chain of old tables stays alive.
 */
const before = new WeakMap<TableState, TableState>();

/** `next` follows `previous` (nothing when they are the same table). */
export function noteFollows(next: TableState, previous: TableState): void {
  if (next === previous) return;
  before.delete(previous);
  before.set(next, previous);
}

/** The table `state` followed, if one was noted. */
export const tableBefore = (state: TableState): TableState | undefined => before.get(state);
