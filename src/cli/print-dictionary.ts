import { existsSync, readFileSync } from 'node:fs';
import {
  DEFAULT_MARKER_DICTIONARY,
  MARKER_DICTIONARIES,
  parseScenarioText,
  type MarkerDictionaryName,
} from '../table/scenario.ts';
import { DEFAULT_SCENARIO } from './default-scenario.ts';
import { requireFile } from './failure.ts';

/**
 * Which marker family `vedette print` uses. Markers printed in another family than the scenario's
 * are never seen, so the default follows the scenario: the one given with --scenario, else the one
 * `vedette serve` would watch from this folder, else the scenario schema's default.
 */

/** The --dictionary help text, saying what the default is. */
export const DICTIONARY_HELP =
  `marker dictionary (${MARKER_DICTIONARIES.join(', ')}); default: the --scenario's markerDictionary, ` +
  `else that of ${DEFAULT_SCENARIO} if it is in this folder (the scenario \`vedette serve\` watches by default), ` +
  `else ${DEFAULT_MARKER_DICTIONARY}`;

export const SCENARIO_HELP = 'scenario the markers are for: its markerDictionary is the default --dictionary';

export interface ChosenDictionary {
  /** As given or found; an unknown or unprintable name is refused later, by the caller. */
  readonly name: string;
  /** Where it came from, in words, for the line the command prints. */
  readonly from: string;
  /** A --dictionary that differs from the scenario's: the scenario will not see these markers. */
  readonly warning?: string;
}

function scenarioDictionary(path: string): MarkerDictionaryName {
  return parseScenarioText(readFileSync(path, 'utf8'), path).markerDictionary;
}

/** The family to print in, and why (relative paths are from the folder vedette runs in). */
export function chooseDictionary(options: {
  readonly dictionary?: string;
  readonly scenario?: string;
}): ChosenDictionary {
  if (options.scenario !== undefined) {
    const path = requireFile(options.scenario, '--scenario: scenario file');
    const theirs = scenarioDictionary(path);
    if (options.dictionary === undefined)
      return { name: theirs, from: `the markerDictionary of ${options.scenario}` };
    return {
      name: options.dictionary,
      from: '--dictionary',
      ...(options.dictionary === theirs
        ? {}
        : {
            warning: `warning: ${options.scenario} uses ${theirs}: Vedette will not see ${options.dictionary} markers on that table`,
          }),
    };
  }
  if (options.dictionary !== undefined) return { name: options.dictionary, from: '--dictionary' };
  if (existsSync(DEFAULT_SCENARIO))
    return {
      name: scenarioDictionary(DEFAULT_SCENARIO),
      from: `the markerDictionary of ${DEFAULT_SCENARIO}, the scenario \`vedette serve\` watches by default`,
    };
  return {
    name: DEFAULT_MARKER_DICTIONARY,
    from: 'the scenario schema default; no scenario given or found here',
  };
}
