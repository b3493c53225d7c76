import type { OptionValue } from './verdict.ts';

/**
 * A named reading of an ambiguous rule. Every place where a ruleset's text allows more than one
 * reading is an option with a documented default, never a silent choice.
 */
export interface OptionSpec<V extends OptionValue = OptionValue> {
  /** The ambiguity it settles, as the rules spec numbers it (e.g. "A-BP-1"). */
  readonly ambiguity?: string;
  readonly default: V;
  /** Allowed values for string options. */
  readonly choices?: readonly V[];
  /** One sentence: what the option decides. */
  readonly summary: string;
  /** What each value means, for string options. */
  readonly meanings?: Readonly<Record<string, string>>;
}

export type OptionSpecs<T extends Record<string, OptionValue>> = {
  readonly [K in keyof T]: OptionSpec<T[K]>;
};

export class OptionError extends Error {
  override name = 'OptionError';
}

export function defaultOptions<T extends Record<string, OptionValue>>(specs: OptionSpecs<T>): T {
  const out: Record<string, OptionValue> = {};
  for (const [k, spec] of Object.entries(specs) as Array<[string, OptionSpec]>) out[k] = spec.default;
  return out as T;
}

/**
 * Defaults overridden by the given values. String values are converted to the option's type
 * (so command-line `--option name=value` works); unknown names and bad values are refused.
 */
export function resolveOptions<T extends Record<string, OptionValue>>(
  specs: OptionSpecs<T>,
  overrides: Readonly<Record<string, OptionValue>> = {},
): T {
  const out: Record<string, OptionValue> = defaultOptions(specs);
  const table = specs as Readonly<Record<string, OptionSpec>>;
  for (const [name, raw] of Object.entries(overrides)) {
    const spec = table[name];
    if (!spec) throw new OptionError(`unknown option "${name}" (known: ${Object.keys(table).join(', ')})`);
    let value: OptionValue;
    if (typeof spec.default === 'number') {
      value = typeof raw === 'number' ? raw : Number(raw);
      if (!Number.isFinite(value))
        throw new OptionError(`option "${name}" needs a number, got "${String(raw)}"`);
    } else if (typeof spec.default === 'boolean') {
      if (typeof raw === 'boolean') value = raw;
      else if (raw === 'true' || raw === 'false') value = raw === 'true';
      else throw new OptionError(`option "${name}" needs true or false, got "${String(raw)}"`);
    } else {
      value = String(raw);
      if (spec.choices && !spec.choices.includes(value))
        throw new OptionError(`option "${name}" must be one of ${spec.choices.join(', ')}, got "${value}"`);
    }
    out[name] = value;
  }
  return out as T;
}

/** The subset of options a verdict consulted, for its `options` field. */
export function pick<T extends Record<string, OptionValue>, K extends keyof T & string>(
  opts: T,
  ...keys: K[]
): Record<K, OptionValue> {
  const out = {} as Record<K, OptionValue>;
  for (const k of keys) out[k] = opts[k] as OptionValue;
  return out;
}
