import type { Verdict, VerdictInit } from './verdict.ts';

/**
 * A composite answer ("can S shoot T?") shows the numbers of the length check it stands on
 * (range, reach, distance), so the UI draws that line and says the same margin. Empty when the
 * check measured nothing (or there is none), so it can be spread into a VerdictInit as it is.
 */
export function measuredBy(
  check: Verdict | undefined,
): Pick<
  VerdictInit,
  | 'value'
  | 'limit'
  | 'margin'
  | 'epsilon'
  | 'unit'
  | 'between'
  | 'moveMm'
  | 'bandMm'
  | 'measured'
  | 'marginLean'
> {
  if (!check || check.value === undefined) return {};
  // Key by key in this order (spreads of optional parts cost more than the rest of it).
  const m: Record<string, unknown> = { value: check.value };
  if (check.limit !== undefined) m.limit = check.limit;
  if (check.margin !== undefined) {
    m.margin = check.margin;
    m.marginLean = check.marginLean ?? check.lean;
  }
  if (check.epsilon !== undefined) m.epsilon = check.epsilon;
  if (check.unit !== undefined) m.unit = check.unit;
  if (check.moveMm !== undefined) m.moveMm = check.moveMm;
  if (check.bandMm !== undefined) m.bandMm = check.bandMm;
  if (check.between) m.between = check.between;
  if (check.measured) m.measured = check.measured;
  return m as ReturnType<typeof measuredBy>;
}

/**
 * The reasons of the checks that failed, in order: those answering `no`, or with `notYes` also
 * the borderline ones (rulesets differ on whether a borderline check is worth saying). Modifier
 * checks never fail an answer.
 */
export const failingReasons = (checks: readonly Verdict[], which: 'no' | 'notYes' = 'no'): string[] =>
  checks
    .filter((c) => c.role !== 'modifier')
    .filter((c) => (which === 'no' ? c.answer === 'no' : c.answer !== 'yes'))
    .flatMap((c) => c.reasons);
