import type { RulesetInfo } from '../../../src/server/referee-routes.ts';
import { INITIATIVE_RANGE } from '../../../src/rules/oer-the-sea/tables.ts';
import { PROXIMITY } from '../../../src/rules/black-powder/tables.ts';
import { MARCH_CLEAR } from '../../../src/rules/prestonpans/tables.ts';
import { COMMANDER_EXCLUSION } from '../../../src/rules/d3/tables.ts';

/**
 * A ruleset as players read it: its short name, its options labelled by the rules' own sentences
 * (never by the identifier), each choice by its meaning, and the zone around a unit that the
 * ruleset cares about, in its own unit.
 */

export type OptionInfo = RulesetInfo['options'][number];
export type OptionValue = string | number | boolean;

/** A ruleset's name short enough for a label: "Prestonpans 1745 battlegame (…)" → "Prestonpans". */
export function shortRulesetName(name: string): string {
  const bare = name.split(/ \(| — |: /)[0]!.trim();
  if (bare.length <= 18) return bare;
  const words = bare.split(/\s+/);
  const cut = words.findIndex((w) => /\d/.test(w));
  return cut > 0 ? words.slice(0, cut).join(' ') : bare;
}

/**
 * An identifier in words: "leaderBase" → "leader base", "enfiladeMinDepthIn" → "enfilade min
 * depth (in)"; as a list of things when `list` ("buildingsUnitsWoods" → "buildings, units, woods").
 */
export function humanise(id: string, list = false): string {
  const words = id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .map((w) => (/^[A-Z0-9]+$/.test(w) && w.length > 1 ? w : w.toLowerCase()));
  const last = words[words.length - 1];
  if (words.length > 1 && last && ['in', 'mm', 'cm', 'deg'].includes(last)) {
    words.pop();
    return `${words.join(' ')} (${last})`;
  }
  const joined = !list || words.includes('and') || words.includes('or') || words.length < 3;
  return joined ? words.join(' ') : words.join(', ');
}

/**
 * A rules sentence with any identifier left in it put into words ("when enfiladeCorridor =
 * minimumDepth" → "when enfilade corridor is minimum depth"): the page never shows an identifier.
 */
export function inWords(text: string): string {
  return text
    .replace(
      /\b([a-z]+(?:[A-Z][a-z0-9]*)+) = ([a-z]+(?:[A-Z][a-z0-9]*)*)\b/g,
      (_m, a: string, b: string) => `${humanise(a)} is ${humanise(b)}`,
    )
    .replace(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, (w) => humanise(w));
}

/** The option's label: the rules' sentence saying what it decides. */
export function optionLabel(o: OptionInfo): string {
  return inWords(o.summary.trim()) || humanise(o.name);
}

/** What one value of an option means, in words. */
export function choiceLabel(o: OptionInfo, value: OptionValue): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  const meaning = o.meanings?.[value];
  return meaning ? inWords(meaning) : humanise(value, true);
}

/** The settings an answer consulted, in words, the ones changed from the default first. */
export function settingsUsed(
  info: RulesetInfo | undefined,
  consulted: Readonly<Record<string, OptionValue>>,
): Array<{ name: string; label: string; value: string; changed: boolean }> {
  const out = Object.entries(consulted).map(([name, value]) => {
    const o = info?.options.find((x) => x.name === name);
    return {
      name,
      label: o ? optionLabel(o) : humanise(name),
      value: o ? choiceLabel(o, value) : String(value),
      changed: o ? o.default !== value : false,
    };
  });
  return out.sort((x, y) => Number(y.changed) - Number(x.changed));
}

export interface Zone {
  /** Radius in the ruleset's unit. */
  readonly value: number;
  readonly unit: 'in' | 'cm';
  /** What the zone is for, shortly. */
  readonly purpose: string;
}

/** The distance around a unit each ruleset keeps asking about (from its own tables). */
export function zoneOf(rulesetId: string | null): Zone | null {
  switch (rulesetId) {
    case 'black-powder':
      return { value: PROXIMITY, unit: 'in', purpose: 'enemy close by' };
    case 'oer-the-sea':
      return { value: INITIATIVE_RANGE, unit: 'cm', purpose: 'initiative' };
    case 'prestonpans':
      return { value: MARCH_CLEAR, unit: 'in', purpose: 'march move' };
    case 'd3':
      return { value: COMMANDER_EXCLUSION, unit: 'in', purpose: 'commander keeps clear' };
    default:
      return null;
  }
}
