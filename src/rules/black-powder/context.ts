import type { Vec2 } from '../../geometry/vec.ts';
import { fromMm, toMm } from '../../table/length-unit.ts';
import type { TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { resolveOptions } from '../engine/options.ts';
import type { RulesContext } from '../engine/ruleset.ts';
import { compare, DEFAULT_POLICY, type Comparison, type ThresholdPolicy } from '../engine/threshold.ts';
import { verdict, type OptionValue, type Verdict, type VerdictInit } from '../engine/verdict.ts';
import { BP_OPTION_SPECS, type BpOptions } from './options.ts';
import { DEFAULT_WEAPON, findWeapon, MOVE, type Weapon } from './tables.ts';

export const RULESET_ID = 'black-powder';
export type BpContext = RulesContext<BpOptions>;

/** A Black Powder context over a table, with defaults for anything not given. */
export function bpContext(
  state: TableState,
  options: Readonly<Record<string, OptionValue>> = {},
  policy: ThresholdPolicy = DEFAULT_POLICY,
): BpContext {
  return { state, options: resolveOptions(BP_OPTION_SPECS, options), policy };
}

export const inches = (mm: number): number => fromMm(mm, 'in');
export const mmOf = (inchesValue: number): number => toMm(inchesValue, 'in');

/** Formats inches for reasons: 14.23 → "14.2 in". */
export const inStr = (mm: number): string => `${inches(mm).toFixed(1)} in`;

export interface Measured {
  readonly mm: number;
  readonly sigmaMm: number;
  readonly from: Vec2;
  readonly to: Vec2;
}

/** A verdict for one measured length against a limit in inches. */
export function lengthVerdict(
  ctx: BpContext,
  init: Omit<VerdictInit, 'ruleset' | 'answer' | 'value' | 'limit' | 'margin' | 'epsilon' | 'unit' | 'between'>,
  m: Measured,
  comparison: Comparison,
  limitIn: number,
): Verdict {
  const r = compare(inches(m.mm), comparison, limitIn, inches(m.sigmaMm), ctx.policy);
  return verdict({
    ...init,
    ruleset: RULESET_ID,
    answer: r.answer,
    lean: r.lean,
    value: inches(m.mm),
    limit: limitIn,
    margin: r.margin,
    epsilon: r.epsilon,
    unit: 'in',
    between: [m.from, m.to],
  });
}

export const bpVerdict = (init: Omit<VerdictInit, 'ruleset'>): Verdict => verdict({ ...init, ruleset: RULESET_ID });

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
export const isDeployedArtillery = (u: TableUnit): boolean => u.type === 'artillery' && u.formationInUse !== 'limbered';
export const unitWord = (u: TableUnit): string => u.name;

/** Possessive of a name: names ending in a lower-case s take a bare apostrophe ("Camerons'"). */
export const poss = (name: string): string => (/s$/.test(name) ? `${name}'` : `${name}'s`);
