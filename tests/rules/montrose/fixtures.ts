import { sampleBoardMap, type BoardMap } from '../../../src/board/board-map.ts';
import { IDENTITY_PLACEMENT } from '../../../src/board/placement.ts';
import {
  boardState,
  findCounter,
  type BoardState,
  type PlacedCounter,
} from '../../../src/rules/montrose/state.ts';
import type { OptionValue } from '../../../src/rules/engine/verdict.ts';
import type { Scenario, UnitSpec } from '../../../src/table/scenario.ts';
import { buildTableState, type TableState } from '../../../src/table/table-state.ts';

/** Counters are 5/8 in squares; the sample map lies square at the table origin, 1:1 (25.4 mm per map inch). */
export const COUNTER_MM = 15.875;
export const map: BoardMap = sampleBoardMap();
let marker = 900;

export interface CounterOpts {
  readonly troop: 'leader' | 'highland' | 'lowland' | 'cavalry' | 'irish';
  readonly movement?: number;
  readonly strength?: number;
  readonly inactive?: boolean;
  /** Offset from the space centre, map inches. */
  readonly dx?: number;
  readonly dy?: number;
}

/** A counter standing on a space of the sample map (or at a map point). */
export function counter(
  id: string,
  side: 'royalist' | 'covenanter',
  at: string | { x: number; y: number },
  o: CounterOpts,
): UnitSpec {
  const p =
    typeof at === 'string'
      ? (map.byId.get(at) ??
        (() => {
          throw new Error(`no space ${at}`);
        })())
      : at;
  return {
    id,
    name: id,
    side,
    type: o.troop === 'cavalry' ? 'cavalry' : 'infantry',
    troop: o.troop,
    ...(o.movement === undefined ? {} : { movement: o.movement }),
    ...(o.strength === undefined ? {} : { strength: o.strength }),
    ...(o.inactive === undefined ? {} : { inactive: o.inactive }),
    bases: [
      {
        widthMm: COUNTER_MM,
        depthMm: COUNTER_MM,
        marker: { id: marker++, sizeMm: 12, heightMm: 1, offsetMm: { x: 0, y: 0 }, rotationDeg: 0 },
        pose: { x: (p.x + (o.dx ?? 0)) * 25.4, y: (p.y + (o.dy ?? 0)) * 25.4, headingDeg: 0 },
      },
    ],
  };
}

/** The scenario of a board with these counters (poses from the file). */
export function scenarioOf(counters: readonly UnitSpec[]): Scenario {
  return {
    name: 'montrose test',
    ruleset: 'montrose',
    markerDictionary: 'apriltag_36h11',
    table: { widthMm: 11 * 25.4, depthMm: 17 * 25.4 },
    referenceMarkers: [],
    sides: [
      { id: 'royalist', name: 'Royalist', colour: '#d4a017' },
      { id: 'covenanter', name: 'Covenanter', colour: '#1f4e9c' },
    ],
    units: counters,
  };
}

export const tableOf = (counters: readonly UnitSpec[]): TableState => buildTableState(scenarioOf(counters));

export const boardOf = (
  counters: readonly UnitSpec[],
  options: Record<string, OptionValue> = {},
): BoardState => boardState(tableOf(counters), map, IDENTITY_PLACEMENT, options);

export const c = (b: BoardState, id: string): PlacedCounter => findCounter(b, id);
