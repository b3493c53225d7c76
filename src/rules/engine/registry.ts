import type { Scenario } from '../../table/scenario.ts';
import type { Ruleset } from './ruleset.ts';

const rulesets = new Map<string, Ruleset>();

export class UnknownRulesetError extends Error {
  override name = 'UnknownRulesetError';
}

/** Adds a ruleset; a second registration of the same id replaces the first. */
export function registerRuleset(ruleset: Ruleset): void {
  rulesets.set(ruleset.id, ruleset);
}

export function getRuleset(id: string): Ruleset {
  const r = rulesets.get(id);
  if (!r)
    throw new UnknownRulesetError(`no ruleset "${id}" (known: ${[...rulesets.keys()].join(', ') || 'none'})`);
  return r;
}

/** A ruleset bound to a scenario's own data (a board map) when it has any: what every asker uses. */
export function rulesetForScenario(id: string, scenario: Scenario): Ruleset {
  const base = getRuleset(id);
  return base.forScenario ? base.forScenario(scenario) : base;
}

export const listRulesets = (): Ruleset[] => [...rulesets.values()];
