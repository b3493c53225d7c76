import type { Answer } from './verdict.ts';

/**
 * How a rule's wording maps to a comparison:
 * "within X" / "up to X" → `atMost` (≤); "more than X" → `moreThan` (>);
 * "less than X" → `lessThan` (<); "at least X" → `atLeast` (≥).
 */
export type Comparison = 'atMost' | 'lessThan' | 'moreThan' | 'atLeast';

/**
 * When a measured value is too close to its limit to call. The band is the larger of a fixed
 * floor (in the ruleset's unit: rules do not want fractions of an inch argued over) and a
 * multiple of the measurement's own one-sigma uncertainty.
 */
export interface ThresholdPolicy {
  /** Floor of the borderline band, ruleset unit (0 = exact arithmetic). */
  readonly floor: number;
  /** How many sigmas of measurement uncertainty make the band. */
  readonly sigmas: number;
}

export const DEFAULT_POLICY: ThresholdPolicy = { floor: 0.25, sigmas: 2 };
/** For checking worked examples: exact arithmetic, no band. */
export const EXACT_POLICY: ThresholdPolicy = { floor: 0, sigmas: 0 };

export interface ComparisonResult {
  readonly answer: Answer;
  readonly lean: 'yes' | 'no';
  /** value − limit. */
  readonly margin: number;
  readonly epsilon: number;
}

export const epsilonFor = (policy: ThresholdPolicy, sigma: number): number =>
  Math.max(policy.floor, policy.sigmas * sigma);

const TOL = 1e-9;

/**
 * Compares a measured value (with its one-sigma uncertainty, same unit) against a limit.
 * The lean is the exact comparison (with a hair of tolerance for float noise at the limit);
 * the answer is borderline when |margin| is inside the band.
 */
export function compare(
  value: number,
  comparison: Comparison,
  limit: number,
  sigma: number,
  policy: ThresholdPolicy,
): ComparisonResult {
  const margin = value - limit;
  const tol = TOL * Math.max(1, Math.abs(limit));
  let holds: boolean;
  switch (comparison) {
    case 'atMost':
      holds = margin <= tol;
      break;
    case 'lessThan':
      holds = margin < -tol;
      break;
    case 'moreThan':
      holds = margin > tol;
      break;
    case 'atLeast':
      holds = margin >= -tol;
      break;
  }
  const epsilon = epsilonFor(policy, sigma);
  const lean = holds ? 'yes' : 'no';
  const answer: Answer = epsilon > 0 && Math.abs(margin) < epsilon ? 'borderline' : lean;
  return { answer, lean, margin, epsilon };
}
