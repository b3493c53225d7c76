import type { TableUnit } from '../../table/table-unit.ts';
import { fromMm, toMm } from '../../table/length-unit.ts';
import type { RulesKit } from './context.ts';
import { withAlternatives, type Alternative } from './alternatives.ts';
import { separation, type Measured } from './measure.ts';
import { pointName } from './parts.ts';
import type { Question } from './question.ts';
import type { ThresholdPolicy } from './threshold.ts';
import { epsilonFor } from './threshold.ts';
import type { OptionValue, Verdict, VerdictInit } from './verdict.ts';

const COMPARISON_WORDS = {
  atMost: 'within',
  lessThan: 'less than',
  moreThan: 'more than',
  atLeast: 'at least',
} as const;

/**
 * "distance 'A' 'B'": edge to edge in the ruleset's unit, from the named point of one to the
 * named point of the other, with the band its own measurement error earns. Without a limit the
 * answer is always yes; with one ("is 'A' within 12 in of 'B'?") it is a threshold verdict like
 * any other, with its margin in players' words. The ruleset words the reasons (how it measures,
 * what the number is not for).
 */
export function distanceVerdict<O extends Record<string, OptionValue>>(
  kit: RulesKit<O>,
  ctx: { readonly policy: ThresholdPolicy },
  question: Pick<Question, 'limit'>,
  a: TableUnit,
  b: TableUnit,
  words: (m: Measured & { fromName: string; toName: string }) => {
    readonly reasons: readonly string[];
    readonly facts?: VerdictInit['facts'];
  },
): Verdict {
  const s = separation(a.bases, b.bases);
  const m = { ...s, fromName: pointName(a, s.from), toName: pointName(b, s.to) };
  const { reasons, facts } = words(m);
  const unit = kit.core.unit;
  const limit = question.limit;
  if (limit) {
    // A limit stated in the ruleset's own unit is kept exact (12 in stays 12, not 11.999…).
    const inUnit =
      (limit.unit ?? unit) === unit ? limit.value : fromMm(toMm(limit.value, limit.unit ?? unit), unit);
    const judged = (measured: Measured) =>
      kit.lengthVerdict(
        ctx,
        {
          question: 'distance',
          asked: `is ${a.name} ${COMPARISON_WORDS[limit.comparison]} ${+inUnit.toFixed(3)} ${unit} of ${b.name}?`,
          reasons,
          ...(facts ? { facts } : {}),
        },
        measured,
        limit.comparison,
        inUnit,
      );
    const v = judged(m);
    if (v.answer === 'borderline') return v;
    const bandMm = kit.bandMm(ctx, m.sigmaMm);
    return withAlternatives(v, otherPairReadings(a, b, m, bandMm, judged), bandMm, unit);
  }
  return kit.verdict({
    question: 'distance',
    asked: `distance between ${a.name} and ${b.name}`,
    answer: 'yes',
    value: kit.toUnit(m.mm),
    unit,
    epsilon: epsilonFor(ctx.policy, kit.toUnit(m.sigmaMm)),
    between: [m.from, m.to],
    measured: { from: m.fromName, to: m.toName },
    reasons,
    ...(facts ? { facts } : {}),
  });
}

/**
 * The other pairs of bases about as near as the nearest: any may be the nearest once the bases
 * stand as they may, and its ends are as sure as its own bases (D3 plain 8224: the nearest base
 * of a column, ± 0.9 mm, shares a corner with the next, ± 2.9 mm, and that one moved within it
 * takes 12.12" to 11.99"). Each pair within the band of the nearest is a reading, judged with its
 * own uncertainty, that far from taking over.
 */
function otherPairReadings(
  a: TableUnit,
  b: TableUnit,
  nearest: Measured,
  bandMm: number,
  judged: (m: Measured) => Verdict,
): Alternative[] {
  const out: Alternative[] = [];
  for (const baseA of a.bases)
    for (const baseB of b.bases) {
      const s = separation([baseA], [baseB]);
      const extraMm = s.mm - nearest.mm;
      if (!(extraMm < bandMm) || (s.sigmaMm <= nearest.sigmaMm && extraMm >= 0)) continue;
      const v = judged(s);
      out.push({
        lean: v.answer === 'borderline' ? 'borderline' : v.lean,
        switchMm: Math.max(0, extraMm),
        why: `another pair of bases is about as near, and less surely placed`,
      });
    }
  return out;
}
