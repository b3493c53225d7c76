import type { TableUnit } from '../../table/table-unit.ts';
import { fromMm, toMm } from '../../table/length-unit.ts';
import type { RulesKit } from './context.ts';
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
    return kit.lengthVerdict(
      ctx,
      {
        question: 'distance',
        asked: `is ${a.name} ${COMPARISON_WORDS[limit.comparison]} ${+inUnit.toFixed(3)} ${unit} of ${b.name}?`,
        reasons,
        ...(facts ? { facts } : {}),
      },
      m,
      limit.comparison,
      inUnit,
    );
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
