import { enemiesOf, type TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';

/**
 * The enemies of `unit` a rule may pick from, nearest first: `assess` reads each enemy (and
 * returns undefined for one that is not a candidate), `mm` says how far an assessed one is.
 * Ties keep table order, so "the nearest target" is the same answer every time it is asked.
 */
export function enemiesNearestFirst<T>(
  state: TableState,
  unit: TableUnit,
  assess: (enemy: TableUnit) => T | undefined,
  mm: (assessed: T) => number,
): T[] {
  const out: T[] = [];
  for (const e of enemiesOf(state, unit)) {
    const a = assess(e);
    if (a !== undefined) out.push(a);
  }
  return out.sort((a, b) => mm(a) - mm(b));
}
