/**
 * Lengths as players read them: in the ruleset's own unit (inches for most, centimetres for
 * O'er the Sea), hundredths as the camera resolves them, the uncertainty rounded up, never down.
 * The server and the rules keep millimetres; units exist only at this edge.
 */

export type DisplayUnit = 'in' | 'cm' | 'mm';

export const MM_PER: Readonly<Record<DisplayUnit, number>> = { in: 25.4, cm: 10, mm: 1 };

/** A ruleset's unit as a display unit ('in' for anything that is not a length unit). */
export function displayUnit(unit: string | undefined): DisplayUnit {
  return unit === 'cm' || unit === 'mm' ? unit : 'in';
}

export const fromMm = (mm: number, unit: DisplayUnit): number => mm / MM_PER[unit];
export const inchesTo = (inches: number, unit: DisplayUnit): number => (inches * 25.4) / MM_PER[unit];

/** "7.26 in ± 0.02" from inches, in the unit asked for. */
export function formatDistance(distanceIn: number, uncertaintyIn: number, unit: DisplayUnit = 'in'): string {
  const d = inchesTo(distanceIn, unit);
  const u = Math.max(0.01, Math.ceil(inchesTo(uncertaintyIn, unit) * 100 - 1e-9) / 100);
  return `${d.toFixed(2)} ${unit} ± ${u.toFixed(2)}`;
}

/** "12 in", "30 cm", "17.5 in": a limit or a rounded length, in its own unit. */
export function formatLength(value: number, unit: string | undefined): string {
  const v = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${v} ${unit ?? 'in'}`;
}

/** The plain measurement's name: never "the distance", always what it is between. */
export const PLAIN_DISTANCE_NAME = 'edge to edge, nearest bases';
