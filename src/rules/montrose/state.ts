import type { Vec2 } from '../../geometry/vec.ts';
import { findSpace, spaceLabel, type BoardMap, type Space } from '../../board/board-map.ts';
import { tableToMap, type BoardPlacement } from '../../board/placement.ts';
import { snapToSpace, type SnapOptions, type SnapResult } from '../../board/snap.ts';
import { findByName, type TableState } from '../../table/table-state.ts';
import { resolveOptions } from '../engine/options.ts';
import type { ThresholdPolicy } from '../engine/threshold.ts';
import { verdict, type OptionValue, type Verdict, type VerdictInit } from '../engine/verdict.ts';
import { MON_OPTION_SPECS, type MonOptions } from './options.ts';
import { DEFAULT_MOVEMENT, WINTER_TURNS, type CounterKind, type Side } from './tables.ts';

export const RULESET_ID = 'montrose';
/**
 * Montrose's band: no floor (a counter is on a space or not), twice the one-sigma error of where
 * the camera puts its centre.
 */
export const MONTROSE_POLICY: ThresholdPolicy = { floor: 0, sigmas: 2 };
export const monVerdict = (init: Omit<VerdictInit, 'ruleset'>): Verdict =>
  verdict({ ...init, ruleset: RULESET_ID });

/** A playing piece: a leader or a combat unit. */
export interface Counter {
  readonly id: string;
  readonly name: string;
  readonly side: Side;
  readonly kind: CounterKind;
  readonly strength?: number;
  /** Movement allowance, MP. */
  readonly movement: number;
  /** Inactive Covenanter leaders (Baillie, Urry, Leslie at first) may not move or recruit. */
  readonly inactive: boolean;
}

export interface PlacedCounter {
  readonly counter: Counter;
  /** Counter centre on the map, map inches. */
  readonly at: Vec2;
  /** Counter centre on the table, mm. */
  readonly table: Vec2;
  readonly snap: SnapResult;
  /**
   * The pose uncertainty band of its centre, map inches (the policy's floor, or its multiple of
   * the counter's one-sigma error): a counter nearer than this to a circle's or route band's edge
   * could as well be across it.
   */
  readonly bandIn: number;
}

/** Is the counter within its band of the nearest place where its space would change? */
export const doubtful = (c: PlacedCounter): boolean =>
  c.bandIn > 0 && c.snap.boundary !== undefined && c.snap.boundary.distanceIn < c.bandIn;

/** Whether the counter may stand on another space than it seems to: unclear, or within its band of an edge. */
export const placeInDoubt = (c: PlacedCounter): boolean => c.snap.status === 'unclear' || doubtful(c);

/** Everything the Montrose rules read: the map, where each counter stands, and the game facts. */
export interface BoardState {
  readonly map: BoardMap;
  readonly placement: BoardPlacement;
  readonly counters: readonly PlacedCounter[];
  readonly defeatedBurghs: ReadonlySet<string>;
  readonly options: MonOptions;
  readonly snapOptions: SnapOptions;
}

export class MontroseError extends Error {
  override name = 'MontroseError';
}

/** The side of a scenario side id or name ("royalist", "Covenanters"…). */
export function sideOf(side: string): Side {
  if (/royal/i.test(side)) return 'royalist';
  if (/coven/i.test(side)) return 'covenanter';
  throw new MontroseError(`side "${side}" is neither Royalist nor Covenanter`);
}

/** The counter kind from a scenario unit's troop (leader, highland, lowland, cavalry, irish) or type. */
export function kindOf(troop: string | undefined, type: string): CounterKind {
  const t = (troop ?? '').toLowerCase();
  if (/leader/.test(t) || type === 'commander') return 'leader';
  if (/irish/.test(t)) return 'irish';
  if (/highland/.test(t)) return 'highland';
  if (/cav/.test(t) || type === 'cavalry') return 'cavalry';
  return 'lowland';
}

/** Builds the board from the table: every counter's centre mapped onto the map and snapped to a space. */
export function boardState(
  state: TableState,
  map: BoardMap,
  placement: BoardPlacement,
  options: Readonly<Record<string, OptionValue>> = {},
  policy: ThresholdPolicy = MONTROSE_POLICY,
): BoardState {
  const opts = resolveOptions(MON_OPTION_SPECS, options);
  const snapOpts = { toleranceIn: opts.snapToleranceIn, routeBandIn: opts.routeBandIn };
  const place = (counter: Counter, table: Vec2, sigmaMm: number): PlacedCounter => {
    const at = tableToMap(placement, table);
    const bandIn = Math.max(policy.floor, (policy.sigmas * sigmaMm) / placement.mmPerMapInch);
    return { counter, at, table, snap: snapToSpace(map, at, snapOpts), bandIn };
  };
  const counters: PlacedCounter[] = [];
  for (const u of state.units) {
    const kind = kindOf(u.troop, u.type);
    const c = {
      x: u.bases.reduce((s, b) => s + b.footprint.center.x, 0) / u.bases.length,
      y: u.bases.reduce((s, b) => s + b.footprint.center.y, 0) / u.bases.length,
    };
    counters.push(
      place(
        {
          id: u.id,
          name: u.name,
          side: sideOf(u.side),
          kind,
          ...(u.strength === undefined ? {} : { strength: u.strength }),
          movement: u.movement ?? (kind === 'leader' ? opts.leaderMovement : DEFAULT_MOVEMENT[kind]),
          inactive: u.inactive ?? false,
        },
        c,
        Math.max(...u.bases.map((b) => b.sigmaMm)) / Math.sqrt(u.bases.length),
      ),
    );
  }
  for (const k of state.commanders)
    counters.push(
      place(
        {
          id: k.id,
          name: k.name,
          side: sideOf(k.side),
          kind: 'leader',
          movement: opts.leaderMovement,
          inactive: false,
        },
        k.head,
        k.sigmaMm,
      ),
    );
  const defeated = new Set(
    opts.defeatedBurghs
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => findSpace(map, s).id),
  );
  return { map, placement, counters, defeatedBurghs: defeated, options: opts, snapOptions: snapOpts };
}

/** The same board with one counter standing at another map point (re-snapped there). */
export function withCounterAt(board: BoardState, id: string, at: Vec2): BoardState {
  return {
    ...board,
    counters: board.counters.map((c) =>
      c.counter.id === id ? { ...c, at, snap: snapToSpace(board.map, at, board.snapOptions) } : c,
    ),
  };
}

export const findCounter = (board: BoardState, ref: string): PlacedCounter => {
  const c = findByName(
    board.counters.map((p) => ({ id: p.counter.id, name: p.counter.name, p })),
    ref,
    'counter',
  );
  return c.p;
};

/** The space a counter is on, when that is clear. */
export const spaceOfCounter = (c: PlacedCounter): Space | undefined =>
  c.snap.status === 'placed' ? c.snap.space : undefined;

/** Counters clearly on a space (a stack; friendly stacking is unlimited). */
export const stackIn = (board: BoardState, spaceId: string): PlacedCounter[] =>
  board.counters.filter((c) => c.snap.status === 'placed' && c.snap.space.id === spaceId);

export const isCombat = (c: Counter): boolean => c.kind !== 'leader';

/** Enemy combat units (of `side`'s enemy) on a space. */
export const enemyCombatIn = (board: BoardState, spaceId: string, side: Side): PlacedCounter[] =>
  stackIn(board, spaceId).filter((c) => c.counter.side !== side && isCombat(c.counter));

export const friendlyCombatIn = (board: BoardState, spaceId: string, side: Side): PlacedCounter[] =>
  stackIn(board, spaceId).filter((c) => c.counter.side === side && isCombat(c.counter));

export const isWinter = (board: BoardState): boolean => WINTER_TURNS.includes(board.options.turn);

/** Words for where a counter is. */
export function whereWords(c: PlacedCounter): string {
  switch (c.snap.status) {
    case 'placed':
      return `in ${spaceLabel(c.snap.space)}`;
    case 'unclear':
      return `unclear (${c.snap.why})`;
    case 'unplaced':
      return `on no space (${c.snap.why})`;
  }
}
