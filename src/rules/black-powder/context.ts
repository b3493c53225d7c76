import type { TableUnit } from '../../table/table-unit.ts';
import { rulesKit } from '../engine/context.ts';
import type { RulesContext } from '../engine/ruleset.ts';
import { DEFAULT_POLICY } from '../engine/threshold.ts';
import { BP_OPTION_SPECS, type BpOptions } from './options.ts';
import { DEFAULT_WEAPON, findWeapon, MOVE, type Weapon } from './tables.ts';

export type { Measured } from '../engine/measure.ts';

export const RULESET_ID = 'black-powder';
export type BpContext = RulesContext<BpOptions>;

/**
 * The Black Powder core, and the plumbing every file shares: a context over a table (defaults for
 * anything not given), verdicts, inches ("14.2 in" in reasons), length verdicts against limits in inches.
 */
export const BP = rulesKit<BpOptions>({
  id: RULESET_ID,
  unit: 'in',
  optionSpecs: BP_OPTION_SPECS,
  defaultPolicy: DEFAULT_POLICY,
});
export const {
  context: bpContext,
  verdict: bpVerdict,
  lengthVerdict,
  thresholdVerdict,
  toUnit: inches,
  toMm: mmOf,
  lengthStr: inStr,
} = BP;

/** The unit's weapon: declared, else its type's default; undefined when it cannot shoot. */
export function weaponOf(unit: TableUnit): Weapon | undefined {
  const name = unit.weapon ?? DEFAULT_WEAPON[unit.type];
  if (name === 'none') return undefined;
  return findWeapon(name);
}

/** One normal move, inches. */
export function moveOf(unit: TableUnit): number {
  if (unit.type === 'cavalry') return MOVE.cavalry;
  if (unit.type === 'artillery') {
    const w = unit.weapon ?? '';
    return /horse|light/.test(w) ? MOVE.horseArtillery : MOVE.artillery;
  }
  return MOVE.infantry;
}

export const isSkirmish = (u: TableUnit): boolean => u.formationInUse === 'skirmish' || u.size === 'tiny';
export const isDeployedArtillery = (u: TableUnit): boolean =>
  u.type === 'artillery' && u.formationInUse !== 'limbered';
export const unitWord = (u: TableUnit): string => u.name;

/** Possessive of a name ("Camerons'", "Gardiner's", and "Lee's" stays "Lee's"). */
export { possessive as poss } from '../engine/words.ts';
