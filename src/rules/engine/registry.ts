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

export const listRulesets = (): Ruleset[] => [...rulesets.values()];
