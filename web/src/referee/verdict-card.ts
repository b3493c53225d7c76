import type { Verdict } from '../../../src/rules/engine/verdict.ts';

/**
 * What the referee's verdict card says, decided without the DOM: the answer in words with an
 * icon (so yes / no / borderline never differ by colour alone), value, limit and margin in the
 * ruleset's unit, and the reasons.
 */
export interface VerdictCard {
  readonly tone: 'yes' | 'no' | 'borderline';
  readonly icon: string;
  readonly headline: string;
  readonly asked: string;
  readonly numbers: ReadonlyArray<{ readonly label: string; readonly value: string }>;
  readonly reasons: readonly string[];
  readonly note: string | null;
}

const num = (x: number, unit: string | undefined) => `${x.toFixed(2)}${unit ? ` ${unit}` : ''}`;

export function verdictCard(v: Verdict, caution: string | null = null): VerdictCard {
  const tone = v.answer;
  const icon = tone === 'yes' ? '✔' : tone === 'no' ? '✘' : '≈';
  const headline =
    tone === 'borderline' ? `Too close to call (leans ${v.lean})` : tone === 'yes' ? 'Yes' : 'No';
  const numbers: Array<{ label: string; value: string }> = [];
  if (v.value !== undefined) numbers.push({ label: 'value', value: num(v.value, v.unit) });
  if (v.limit !== undefined) numbers.push({ label: 'limit', value: num(v.limit, v.unit) });
  if (v.margin !== undefined)
    numbers.push({
      label: 'margin',
      value: `${v.margin >= 0 ? '+' : '−'}${num(Math.abs(v.margin), v.unit)}`,
    });
  if (v.epsilon !== undefined)
    numbers.push({ label: 'borderline band', value: `± ${num(v.epsilon, v.unit)}` });
  const notes: string[] = [];
  if (v.hiddenUntilDeclared) notes.push('Distance withheld until the charge is declared.');
  if (caution) notes.push(caution);
  return {
    tone,
    icon,
    headline,
    asked: v.asked,
    numbers,
    reasons: v.reasons,
    note: notes.length ? notes.join(' ') : null,
  };
}
