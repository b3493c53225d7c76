import { listRulesets } from './registry.ts';
import type { Verdict } from './verdict.ts';

/**
 * Players' words for numbers: lengths in the ruleset's own unit, margins as "0.29 in to spare" or
 * "0.12 in short", possessives that read right. The command line, the referee panel and replays
 * all print verdicts through these, so they say the same thing.
 */

const MM_PER: Readonly<Record<string, number>> = { mm: 1, cm: 10, in: 25.4 };

/** Is this a unit of length (a margin in it is itself a distance on the table)? */
export const isLengthUnit = (unit: string | undefined): unit is 'mm' | 'cm' | 'in' =>
  unit !== undefined && unit in MM_PER;

/** Millimetres in a unit of length, in that unit. */
export const mmToUnit = (mm: number, unit: 'mm' | 'cm' | 'in'): number => mm / (MM_PER[unit] as number);

/** A number in its unit: "0.29 in", "0.7 cm", "1.2°", "48%". */
export function quantityStr(value: number, unit: string | undefined, decimals = 2): string {
  if (unit === 'deg') return `${value.toFixed(Math.min(decimals, 1))}°`;
  if (unit === '%') return `${value.toFixed(Math.min(decimals, 1))}%`;
  if (!unit) return value.toFixed(decimals);
  return `${value.toFixed(decimals)} ${unit}`;
}

/** A table distance (mm) in a unit of length: "0.25 in". */
export const lengthWords = (mm: number, unit: 'mm' | 'cm' | 'in', decimals = 2): string =>
  quantityStr(mmToUnit(mm, unit), unit, decimals);

/** Possessive of a name: "Gardiner's", "Camerons'", and "Lee's" stays "Lee's" ("Lee's'" is wrong). */
export const possessive = (name: string): string =>
  /['’]s$/i.test(name) ? name : /s$/.test(name) ? `${name}'` : `${name}'s`;

/** The length unit margins are turned into when the quantity is not a length (degrees, shares). */
function moveUnit(v: Pick<Verdict, 'unit'>, lengthUnit: 'mm' | 'cm' | 'in'): 'mm' | 'cm' | 'in' {
  return isLengthUnit(v.unit) ? v.unit : lengthUnit;
}

/** Moves longer than this (mm: 3 m, longer than any wargames table) are not put in words. */
const LONGEST_MOVE_MM = 3000;

/**
 * The margin in players' words: "0.29 in to spare" when the answer holds, "0.12 in short" when it
 * does not, "exactly at the limit" on it; a margin in degrees or a share adds the distance a base
 * would have to move ("1.2° to spare, a move of 0.21 in"). Empty when the verdict has no margin,
 * or is a share at its limit that no move within reach changes.
 */
export function marginWords(
  v: Pick<Verdict, 'margin' | 'lean' | 'unit' | 'moveMm' | 'marginLean'>,
  lengthUnit: 'mm' | 'cm' | 'in' = 'in',
): string {
  if (v.margin === undefined) return '';
  const m = Math.abs(v.margin);
  if (m < 5e-3 && (v.moveMm === undefined || v.moveMm < 0.05)) return 'exactly at the limit';
  // A share at its limit that no move within reach changes (a target hidden from every nearby
  // place): "0.0% short" would say nothing a player can use.
  if (m < 5e-3 && !isLengthUnit(v.unit) && v.moveMm !== undefined && !Number.isFinite(v.moveMm)) return '';
  const word = (v.marginLean ?? v.lean) === 'yes' ? 'to spare' : 'short';
  const base = `${quantityStr(m, v.unit)} ${word}`;
  // A move longer than any table is a straight extrapolation of a share that barely moved in the
  // probes (a shadow's corner nicking a target seen whole): "a move of 10548 in" helps nobody.
  if (isLengthUnit(v.unit) || v.moveMm === undefined || !(v.moveMm <= LONGEST_MOVE_MM)) return base;
  const move = lengthWords(v.moveMm, moveUnit(v, lengthUnit));
  // A share at its limit (none of it inside): the margin is the distance alone.
  if (m < 5e-3) return `${move} ${word}`;
  return `${base}, a move of ${move}`;
}

/** The uncertainty band in words: "± 0.25 in". */
export function bandWords(
  v: Pick<Verdict, 'bandMm' | 'epsilon' | 'unit'>,
  lengthUnit: 'mm' | 'cm' | 'in' = 'in',
): string {
  if (v.bandMm !== undefined) return `± ${lengthWords(v.bandMm, moveUnit(v, lengthUnit))}`;
  return v.epsilon !== undefined ? `± ${quantityStr(v.epsilon, v.unit)}` : '';
}

/**
 * The numbers of a verdict on one line: "11.71 in against 12 in: 0.29 in to spare (band ± 0.25 in)";
 * a borderline one says it is inside the band. Empty when the verdict measured nothing.
 */
export function measureLine(v: Verdict, lengthUnit: 'mm' | 'cm' | 'in' = guessLengthUnit(v)): string {
  if (v.value === undefined || v.hiddenUntilDeclared) return '';
  const value = quantityStr(v.value, v.unit);
  if (v.limit === undefined) {
    const band = v.epsilon !== undefined ? ` (± ${quantityStr(v.epsilon, v.unit)})` : '';
    return `${value}${band}`;
  }
  const band = bandWords(v, lengthUnit);
  const margin = marginWords(v, lengthUnit);
  const inside = v.answer === 'borderline' ? `, inside the ${band} the camera can vouch for` : '';
  const against = `${value} against ${quantityStr(v.limit, v.unit)}`;
  if (!margin) return `${against}${inside || (band ? ` (band ${band})` : '')}`;
  return `${against}: ${margin}${inside || (band ? ` (band ${band})` : '')}`;
}

/** The unit a verdict's distances are said in: its own, else its ruleset's (inches if unknown). */
export function guessLengthUnit(v: Pick<Verdict, 'unit' | 'ruleset'>): 'mm' | 'cm' | 'in' {
  if (isLengthUnit(v.unit)) return v.unit;
  const unit = listRulesets().find((r) => r.id === v.ruleset)?.unit;
  return isLengthUnit(unit) ? unit : 'in';
}
