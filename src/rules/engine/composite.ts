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
  return {
    value: check.value,
    ...(check.limit !== undefined ? { limit: check.limit } : {}),
    ...(check.margin !== undefined
      ? { margin: check.margin, marginLean: check.marginLean ?? check.lean }
      : {}),
    ...(check.epsilon !== undefined ? { epsilon: check.epsilon } : {}),
    ...(check.unit !== undefined ? { unit: check.unit } : {}),
    ...(check.moveMm !== undefined ? { moveMm: check.moveMm } : {}),
    ...(check.bandMm !== undefined ? { bandMm: check.bandMm } : {}),
    ...(check.between ? { between: check.between } : {}),
    ...(check.measured ? { measured: check.measured } : {}),
  };
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
