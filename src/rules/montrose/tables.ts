/** Campaigns of Montrose numbers. Source: rules-spec §4. */

export type Side = 'royalist' | 'covenanter';
export type CounterKind = 'leader' | 'highland' | 'lowland' | 'cavalry' | 'irish';

/**
 * Movement allowances printed on the counters the rules quote (strength-MA): Lowland 1-4,
 * cavalry 1-6, Highland 1-4, Irish 3-5. Leaders' allowances are not in the text (A-MON-10): the
 * `leaderMovement` option stands in for them.
 */
export const DEFAULT_MOVEMENT: Readonly<Record<Exclude<CounterKind, 'leader'>, number>> = {
  lowland: 4,
  cavalry: 6,
  highland: 4,
  irish: 5,
};

/** The two Burghs whose defeat opens the Southern Lowlands to the Irish and Royalist Highlanders. */
export const GATE_BURGHS = ['inveraray', 'inverlochy'] as const;

/** Stack needed in England at the end of a game turn for the Royalist win: Montrose plus this many Lowland or cavalry units. */
export const ENGLAND_WIN_UNITS = 4;

/** Force March: each unit that exceeded its allowance rolls on the Disband Table at this modifier. */
export const FORCE_MARCH_DRM = -2;

/**
 * The Disband Table is printed on the map, not in the rules. Known points, from the second
 * example of play: a modified −1 or 0 disbands nobody, a modified 4 disbands one unit.
 */
export const DISBAND_KNOWN: ReadonlyMap<number, number> = new Map([
  [-1, 0],
  [0, 0],
  [4, 1],
]);

/** Game turns run Aug/Sep 1644 … Apr/May 1646: eleven two-month turns; Dec/Jan turns (3 and 9) are winter. */
export const WINTER_TURNS: readonly number[] = [3, 9];
export const LAST_TURN = 11;
