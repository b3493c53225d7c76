import type { Verdict } from '../../../src/rules/engine/verdict.ts';
import type { RulesetInfo } from '../../../src/server/referee-routes.ts';
import type { Vec2 } from '../../../src/geometry/vec.ts';
import { bandWords, guessLengthUnit, measureLine, quantityStr } from '../../../src/rules/engine/words.ts';
import { measuredFromPhrase } from '../core/answer.ts';
import { settingsUsed } from '../core/rulesets.ts';

/**
 * What the referee's verdict card says, decided without the DOM: the answer in words with an
 * icon (so yes / no / borderline never differ by colour alone), each number named for what it is
 * ("distance, from the leader's base", "range", "to spare") in the ruleset's unit, the reasons,
 * and the settings the answer used, by the rules' own words.
 */

export type NumberKey = 'value' | 'limit' | 'margin' | 'band';

export interface CardNumber {
  readonly key: NumberKey;
  readonly label: string;
  readonly value: string;
}

export interface VerdictCard {
  readonly tone: 'yes' | 'no' | 'borderline';
  readonly icon: string;
  readonly headline: string;
  readonly asked: string;
  /** The numbers on one line, word for word as the command line and replays print them. */
  readonly measure: string;
  readonly numbers: readonly CardNumber[];
  readonly reasons: readonly string[];
  readonly settings: ReadonlyArray<{ label: string; value: string; changed: boolean }>;
  readonly note: string | null;
}

export interface CardContext {
  readonly caution?: string | null;
  readonly ruleset?: RulesetInfo;
  /** Where the subject's front centre is (to say where a distance was taken from). */
  readonly subject?: { readonly leader: Vec2 } | null;
}

const LIMIT_NAME: Readonly<Record<string, string>> = {
  shoot: 'range',
  charge: 'charge reach',
  command: 'command range',
};

function kindOf(v: Verdict): 'length' | 'angle' | 'share' | 'other' {
  if (v.unit === 'in' || v.unit === 'cm' || v.unit === 'mm') return 'length';
  if (v.unit === 'deg') return 'angle';
  if (v.unit === '%') return 'share';
  if (v.unit === undefined && v.value !== undefined && v.value >= 0 && v.value <= 1) return 'share';
  return 'other';
}

export function verdictCard(v: Verdict, ctx: CardContext = {}): VerdictCard {
  const tone = v.answer;
  const icon = tone === 'yes' ? '✔' : tone === 'no' ? '✘' : '≈';
  const headline =
    tone === 'borderline' ? `Too close to call (leans ${v.lean})` : tone === 'yes' ? 'Yes' : 'No';
  const kind = kindOf(v);
  const fmt = (x: number): string =>
    v.unit === '%' || v.unit === 'deg'
      ? quantityStr(x, v.unit)
      : kind === 'share'
        ? `${Math.round(x * 100)} %`
        : kind === 'angle'
          ? `${x.toFixed(1)}°`
          : `${x.toFixed(2)}${v.unit && kind === 'length' ? ` ${v.unit}` : v.unit ? ` ${v.unit}` : ''}`;
  const numbers: CardNumber[] = [];
  if (v.value !== undefined) {
    const label =
      kind === 'length'
        ? `distance, ${measuredFromPhrase(v, ctx.subject)}`
        : kind === 'angle'
          ? 'angle off the front'
          : kind === 'share'
            ? 'in sight'
            : 'measured';
    numbers.push({ key: 'value', label, value: fmt(v.value) });
  }
  if (v.limit !== undefined)
    numbers.push({ key: 'limit', label: LIMIT_NAME[v.question] ?? 'limit', value: fmt(v.limit) });
  // The margin's sign depends on the question (within a range, beyond an arc…); the lean says
  // which side of the limit the numbers fall, so it names the margin.
  if (v.margin !== undefined && kind !== 'other')
    numbers.push({
      key: 'margin',
      label: (v.marginLean ?? v.lean) === 'yes' ? 'to spare' : 'short',
      value: fmt(Math.abs(v.margin)),
    });
  if (v.bandMm !== undefined || v.epsilon !== undefined)
    numbers.push({
      key: 'band',
      label: 'too close to call within',
      value: v.bandMm !== undefined ? bandWords(v, guessLengthUnit(v)) : `± ${fmt(v.epsilon as number)}`,
    });
  const notes: string[] = [];
  if (v.hiddenUntilDeclared) notes.push('Distance withheld until the charge is declared.');
  if (ctx.caution) notes.push(ctx.caution);
  return {
    tone,
    icon,
    headline,
    asked: v.asked,
    measure: measureLine(v),
    numbers,
    reasons: v.reasons,
    settings: settingsUsed(ctx.ruleset, v.options),
    note: notes.length ? notes.join(' ') : null,
  };
}
