/** D3 Jacobite Rebellion numbers (inches, degrees). Source: rules-spec §2. */

export type D3Troop = 'infantry' | 'highlander' | 'skirmishers' | 'cavalry' | 'artillery' | 'mortar';

/** Move allowances, inches (infantry in column: 9"). */
export const MOVE: Readonly<Record<D3Troop, number>> = {
  infantry: 6,
  highlander: 6,
  skirmishers: 9,
  cavalry: 12,
  artillery: 6,
  mortar: 6,
};
export const INFANTRY_COLUMN_MOVE = 9;
export const COMMANDER_MOVE = 12;

/** Field of fire and charge turn: 45° off the frontal facing. */
export const FIELD_OF_FIRE_DEG = 45;
export const CHARGE_TURN_DEG = 45;
export const MUSKET_RANGE = 12;
/** Artillery reach: the D6 times this many inches. */
export const ARTILLERY_INCHES_PER_PIP = 6;
/** Subtracted from the artillery D6 against targets in cover (not for mortars). */
export const COVER_DIE_PENALTY = 2;
export const MORTAR_MIN_RANGE = 18;
export const COMMANDER_EXCLUSION = 12;
export const COMMANDER_JOIN = 12;
export const FIRST_LINE_DEPTH = 15;
export const SECOND_LINE_DEPTH = 9;
export const FLANK_REAR_BONUS_HITS = 2;
export const SULKY_HITS = 2;
/** Hits at which a unit routs. */
export const ROUT_HITS: Readonly<Record<D3Troop, number>> = {
  infantry: 9,
  highlander: 9,
  cavalry: 9,
  skirmishers: 5,
  artillery: 5,
  mortar: 5,
};
