/** Prestonpans battlegame numbers (inches). Source: the Battle Trust's battlegame sheet (rules-spec §1). */

export type PpTroop = 'infantry' | 'cavalry' | 'cannon' | 'commander';

/** Normal move and charge move by the rules body (charge doubles the normal move). */
export const MOVE_BODY: Readonly<Record<PpTroop, { normal: number; charge: number }>> = {
  commander: { normal: 12, charge: 24 },
  cavalry: { normal: 12, charge: 24 },
  infantry: { normal: 6, charge: 12 },
  cannon: { normal: 0, charge: 0 },
};

/** The reference sheet's table: the charge equals the normal move. */
export const MOVE_SHEET: Readonly<Record<PpTroop, { normal: number; charge: number }>> = {
  commander: { normal: 12, charge: 12 },
  cavalry: { normal: 12, charge: 12 },
  infantry: { normal: 6, charge: 6 },
  cannon: { normal: 0, charge: 0 },
};

export const DEPLOYMENT_GAP = 18;
/** No move may end nearer the enemy than this, unless it is a charge. */
export const APPROACH_LIMIT = 1;
/** A march (double) move needs no enemy within this. */
export const MARCH_CLEAR = 8;
export const MUSKET_RANGE = 12;
export const SHORT_RANGE = 6;
export const CLOSE_RANGE = 3;
/** Cannons need at least this much room between friendly units to fire between them. */
export const CANNON_GAP = 3;
export const CANNON_DICE = 2;
export const CANNON_HITS_TO_KILL = 4;
export const GENERAL_RADIUS = 6;
export const GENERAL_BONUS = 2;
export const ATTACHED_BONUS = 1;
/** Bases that fight back in the first melee round when charged in the flank / rear. */
export const FLANK_FIGHTERS = 2;
export const REAR_FIGHTERS = 0;
export const UNIT_BASES = 10;
export const FIGURES_PER_BASE: Readonly<Record<'infantry' | 'cavalry', number>> = { infantry: 2, cavalry: 1 };
/** Share of a unit lost to one turn's shooting that forces a leadership test. */
export const SHOOTING_MORALE_SHARE = 0.25;
/** Fire discipline: D6 + this compared with the bases remaining. */
export const FIRE_DISCIPLINE_ADD = 6;

export type ShotBand = 'close' | 'short' | 'long' | 'out';
