/** Black Powder's numbers, in inches. */

export type WeaponKind = 'smallArms' | 'cannon' | 'howitzer' | 'machineGun' | 'rocket';

export interface Weapon {
  readonly name: string;
  readonly kind: WeaponKind;
  /** Maximum range, inches. */
  readonly max: number;
  /** Shorter than this is illegal (howitzers, mortars, rockets). */
  readonly min?: number;
  /** Fires directly, so can enfilade (not bows, thrown weapons, howitzers, mortars, rockets). */
  readonly direct: boolean;
  /** Gets the +1 within 6" (firearms). */
  readonly firearm: boolean;
}

const sa = (name: string, max: number, firearm = true, direct = true): Weapon => ({
  name,
  kind: 'smallArms',
  max,
  direct,
  firearm,
});
const gun = (name: string, max: number): Weapon => ({
  name,
  kind: 'cannon',
  max,
  direct: true,
  firearm: true,
});
const how = (name: string, max: number): Weapon => ({
  name,
  kind: 'howitzer',
  max,
  min: 6,
  direct: false,
  firearm: true,
});

export const WEAPONS: readonly Weapon[] = [
  sa('pistol', 6),
  sa('shotgun', 6),
  sa('thrown weapons', 6, false, false),
  sa('bow', 12, false, false),
  sa('smoothbore carbine', 12),
  sa('smoothbore musket', 18),
  sa('rifled carbine', 18),
  sa('rifled musket', 24),
  sa('breech-loading carbine', 24),
  sa('breech-loading rifle', 30),
  sa('bolt-action carbine', 30),
  sa('bolt-action rifle', 36),
  gun('smoothbore battalion gun', 24),
  gun('light smoothbore artillery', 36),
  gun('smoothbore foot artillery', 48),
  gun('smoothbore siege artillery', 60),
  gun('rifled horse artillery', 48),
  gun('rifled foot artillery', 60),
  gun('rifled siege artillery', 72),
  how('mortar', 24),
  how('siege mortar', 48),
  how('smoothbore field howitzer', 36),
  how('smoothbore siege howitzer', 48),
  how('rifled field gun-howitzer', 60),
  how('rifled siege gun-howitzer', 120),
  { name: 'machine gun', kind: 'machineGun', max: 36, direct: true, firearm: true },
  { name: 'rocket', kind: 'rocket', max: 60, min: 6, direct: false, firearm: true },
];

const norm = (s: string) => s.trim().toLowerCase().replace(/s$/, '').replace(/\s+/g, ' ');

/** findWeapon by the name asked (every shot looks its shooter's weapon up; the table is fixed). */
const weaponsByName = new Map<string, Weapon | undefined>();

export function findWeapon(name: string): Weapon | undefined {
  if (weaponsByName.has(name)) return weaponsByName.get(name);
  const n = norm(name);
  const w = WEAPONS.find((x) => norm(x.name) === n);
  weaponsByName.set(name, w);
  return w;
}

/** Default weapons when a unit declares none. */
export const DEFAULT_WEAPON = {
  infantry: 'smoothbore musket',
  cavalry: 'smoothbore carbine',
  artillery: 'smoothbore foot artillery',
} as const;

/** One move, inches. */
export const MOVE = {
  infantry: 12,
  cavalry: 18,
  artillery: 12,
  horseArtillery: 18,
  manhandled: 6,
  commanderFoot: 36,
  commanderMounted: 48,
} as const;

export const CLOSE_RANGE = 6;
export const PROXIMITY = 12;
export const SUPPORT_DISTANCE = 6;
export const BRIGADE_SPREAD = 6;
export const COMMAND_STEP = 12;
export const OBSTACLE_COST = 6;
export const BUILDING_ENTRY_COST = 6;
export const GAP_SMALL_ARMS = 6;
export const GAP_CANNON = 3;
export const DEAD_GROUND = 6;
export const CAVALRY_SQUARE_HALT = 3;
export const LIMBER_BEHIND = 3;
export const ROCKET_DISORDER_RADIUS = 3;
export const STAFF_MIN = 5;
export const STAFF_MAX = 10;

export type CannonBand = 'short' | 'medium' | 'long' | 'out';
export type SmallArmsBand = 'close' | 'normal' | 'out';

export function smallArmsBand(max: number, d: number): SmallArmsBand {
  if (d <= CLOSE_RANGE) return 'close';
  return d <= max ? 'normal' : 'out';
}

/** Cannon bands: short ≤ 6", medium to half the maximum, long to the maximum. */
export function cannonBand(max: number, d: number): CannonBand {
  if (d <= CLOSE_RANGE) return 'short';
  if (d <= max / 2) return 'medium';
  return d <= max ? 'long' : 'out';
}

/** Band limits (short, medium, long) of a cannon, for display and tests. */
export const cannonBands = (max: number): readonly [number, number, number] => [CLOSE_RANGE, max / 2, max];

/** Mixed order: a skirmisher within 2" of another or of the body (or the body within 2" behind the screen), the screen at most 6" ahead. */
export const MIXED_SPACING = 2;
export const MIXED_AHEAD = 6;
