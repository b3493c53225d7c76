import type { Answer } from './verdict.ts';

/**
 * How a rule's wording maps to a comparison:
 * "within X" / "up to X" → `atMost` (≤); "more than X" → `moreThan` (>);
 * "less than X" → `lessThan` (<); "at least X" → `atLeast` (≥).
 */
export type Comparison = 'atMost' | 'lessThan' | 'moreThan' | 'atLeast';

/**
 * When a measured value is too close to its limit to call. The band is a distance on the table:
 * the larger of a fixed floor (in the ruleset's unit of length: rules do not want fractions of an
 * inch argued over) and a multiple of the pose uncertainty of what decides the answer.
 */
export interface ThresholdPolicy {
  /** Floor of the borderline band, ruleset unit of length (0 = exact arithmetic). */
  readonly floor: number;
  /** How many sigmas of pose uncertainty make the band. */
  readonly sigmas: number;
}

export const DEFAULT_POLICY: ThresholdPolicy = { floor: 0.25, sigmas: 2 };
/** For checking worked examples: exact arithmetic, no band. */
export const EXACT_POLICY: ThresholdPolicy = { floor: 0, sigmas: 0 };

/**
 * A measured quantity as a threshold sees it, whatever it measures (a length, a bearing, a share
 * of a unit): its value in its own unit, how fast it changes when the table moves, and how sure
 * we are of the table.
 */
export interface Quantity {
  readonly value: number;
  /** "in", "cm", "deg", "%" (shares are kept as 0…1 and shown as percentages)… */
  readonly unit: string;
  /**
   * How much the value changes (its own unit) when the part of the table that decides it moves
   * one millimetre the worst way: 1/25.4 for inches, degrees per mm at the target's range for a
   * bearing, share per mm for a share.
   */
  readonly perMm: number;
  /**
   * One-sigma uncertainty, mm, of where that part stands relative to the rest: every base
   * involved (centre error, and heading error times its lever arm), in quadrature.
   */
  readonly sigmaMm: number;
  /**
   * When the geometry gives it directly (a clearance, a penetration depth, the distance to a
   * dividing ray): how far a base must move to change the answer, mm. Otherwise it is read from
   * the margin: |margin| / perMm.
   */
  readonly moveMm?: number;
  /**
   * The value sits on a boundary the rule leaves open (a base whose corner only touches a zone's
   * edge, with no area inside): too close to call even under exact arithmetic, when the move is 0.
   */
  readonly touching?: boolean;
}

/** A move this small is no move at all (the snapping grid of the polygon work), mm. */
export const TOUCH_MM = 1e-6;

export interface Judgement {
  readonly answer: Answer;
  readonly lean: 'yes' | 'no';
  /** value − limit, the quantity's unit. */
  readonly margin: number;
  /** The band in the quantity's unit (bandMm × perMm): |margin| inside it is too close to call. */
  readonly epsilon: number;
  /** How far a base would have to move to change the answer, mm. */
  readonly moveMm: number;
  /** The pose uncertainty band, mm: a move smaller than this may well have happened. */
  readonly bandMm: number;
}

const TOL = 1e-9;

/** Whether a comparison holds for a margin (value − limit), with a hair of tolerance for float noise. */
export function holds(margin: number, comparison: Comparison, limit: number): boolean {
  const tol = TOL * Math.max(1, Math.abs(limit));
  switch (comparison) {
    case 'atMost':
      return margin <= tol;
    case 'lessThan':
      return margin < -tol;
    case 'moreThan':
      return margin > tol;
    case 'atLeast':
      return margin >= -tol;
  }
}

/** The pose uncertainty band, mm: the floor (converted to mm by the caller) or `sigmas` × σ. */
export const bandMmFor = (policy: ThresholdPolicy, floorMm: number, sigmaMm: number): number =>
  Math.max(floorMm, policy.sigmas * sigmaMm);

/**
 * The one uncertainty model every threshold goes through. The lean is the exact comparison; the
 * answer is borderline when the distance a base would have to move to change it is inside the
 * pose uncertainty band (`bandMm`). For a length this is the familiar |margin| < max(floor, 2σ).
 */
export function judge(
  q: Quantity,
  comparison: Comparison,
  limit: number,
  policy: ThresholdPolicy,
  floorMm: number,
): Judgement {
  const margin = q.value - limit;
  const lean = holds(margin, comparison, limit) ? 'yes' : 'no';
  const moveMm = q.moveMm ?? (q.perMm > 0 ? Math.abs(margin) / q.perMm : Infinity);
  const bandMm = bandMmFor(policy, floorMm, q.sigmaMm);
  const onEdge = q.touching === true && moveMm <= TOUCH_MM;
  const answer: Answer = onEdge || (bandMm > 0 && moveMm < bandMm) ? 'borderline' : lean;
  return { answer, lean, margin, epsilon: bandMm * q.perMm, moveMm, bandMm };
}

/**
 * A length compared with a limit, both in one unit, with its one-sigma error in that unit:
 * `judge` for a quantity that moves one for one with the table. `mmPerUnit` converts the band.
 */
export function compareLength(
  value: number,
  comparison: Comparison,
  limit: number,
  sigma: number,
  policy: ThresholdPolicy,
  mmPerUnit: number,
): Judgement {
  return judge(
    { value, unit: '', perMm: 1 / mmPerUnit, sigmaMm: sigma * mmPerUnit },
    comparison,
    limit,
    policy,
    policy.floor * mmPerUnit,
  );
}

/** The band of a length in its own unit (no comparison: "distance 'A' 'B'" without a limit). */
export const epsilonFor = (policy: ThresholdPolicy, sigma: number): number =>
  Math.max(policy.floor, policy.sigmas * sigma);
