/** O'er the Sea v3.20 numbers (centimetres). Source: rules-spec §3. */

export type OtsMover = 'infantry' | 'cavalry' | 'artillery' | 'officer';

/** Full move, cm (half move is half of it). */
export const FULL_MOVE: Readonly<Record<OtsMover, number>> = {
  infantry: 20,
  cavalry: 30,
  artillery: 10,
  officer: 60,
};

export const INITIATIVE_RANGE = 30;
export const MUSKET_RANGE = 30;
export const MUSKET_SHORT = 15;
/** Independent companies: each stand within this of its nearest group-mate. */
export const INDEPENDENT_SPACING = 5;
/** Drive-back per hit, cm. */
export const DRIVE_BACK_PER_HIT = 1;
/** Stands closer than this (mm) count as in base-to-base contact. */
export const CONTACT_MM = 1;

export type GunType =
  'light gun' | 'medium gun' | 'heavy gun' | 'siege gun' | 'light mortar' | 'heavy mortar';

export interface GunSpec {
  readonly type: GunType;
  readonly dice: number;
  /** Upper limits of the short, medium and long bands, cm. */
  readonly bands: readonly [number, number, number];
  /** Nothing nearer than this (mortars), cm. */
  readonly min?: number;
  readonly mortar: boolean;
  /** May only fire at fortifications. */
  readonly siege: boolean;
}

export const GUNS: readonly GunSpec[] = [
  { type: 'light gun', dice: 2, bands: [40, 80, 120], mortar: false, siege: false },
  { type: 'medium gun', dice: 4, bands: [50, 100, 150], mortar: false, siege: false },
  { type: 'heavy gun', dice: 6, bands: [60, 120, 180], mortar: false, siege: false },
  { type: 'siege gun', dice: 10, bands: [50, 100, 150], mortar: false, siege: true },
  { type: 'light mortar', dice: 2, bands: [50, 100, 150], min: 21, mortar: true, siege: false },
  { type: 'heavy mortar', dice: 5, bands: [60, 120, 180], min: 31, mortar: true, siege: false },
];

export type Band = 'short' | 'medium' | 'long' | 'out' | 'tooClose';

/**
 * Band of a range, cm. The printed bands are integer intervals with 1 cm gaps (0–40, 41–80…):
 * read as ≤ 40 short, (40, 80] medium, (80, 120] long, beyond out; mortars refuse anything
 * under their minimum (inclusive minimum by default).
 */
export function gunBand(gun: GunSpec, d: number, minInclusive = true): Band {
  if (gun.min !== undefined && (minInclusive ? d < gun.min : d <= gun.min)) return 'tooClose';
  const [s, m, l] = gun.bands;
  if (d <= s) return 'short';
  if (d <= m) return 'medium';
  if (d <= l) return 'long';
  return 'out';
}

export type MusketBand = 'short' | 'long' | 'out';
export const musketBand = (d: number): MusketBand =>
  d <= MUSKET_SHORT ? 'short' : d <= MUSKET_RANGE ? 'long' : 'out';

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
export const findGun = (name: string | undefined): GunSpec | undefined =>
  name ? GUNS.find((g) => g.type === norm(name)) : undefined;
