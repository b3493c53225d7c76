import type { Verdict } from './verdict.ts';
import { lengthWords } from './words.ts';

/**
 * A verdict that rests on a choice the table makes for it (which base holds the leader, whether
 * a hedge lies on the charge line): when another choice is within the pose band and would give the
 * other answer, the answer is too close to call. `switchMm` is how far a base would have to move
 * for the table to make that other choice.
 */
export interface Alternative {
  /** The other reading's answer: borderline when it is itself within the band of its limit. */
  readonly lean: 'yes' | 'no' | 'borderline';
  readonly switchMm: number;
  /** Why the choice is in doubt, in words ("Lee's leader stands where two bases meet"). */
  readonly why: string;
}

export function withAlternatives(
  v: Verdict,
  alternatives: readonly Alternative[],
  bandMm: number,
  unit: 'mm' | 'cm' | 'in',
): Verdict {
  const against = alternatives.filter((a) => a.lean !== v.lean && a.switchMm < bandMm);
  if (against.length === 0) return v;
  const nearest = against.reduce((a, b) => (b.switchMm < a.switchMm ? b : a));
  const moveMm = Math.min(v.moveMm ?? Infinity, nearest.switchMm);
  return {
    ...v,
    answer: 'borderline',
    moveMm,
    bandMm: Math.max(v.bandMm ?? 0, bandMm),
    reasons: [
      ...v.reasons,
      `too close to call: ${nearest.why}, ${lengthWords(nearest.switchMm, unit)} from the other reading, which ${nearest.lean === 'borderline' ? 'is itself too close to call' : `answers ${nearest.lean}`}`,
    ],
  };
}
