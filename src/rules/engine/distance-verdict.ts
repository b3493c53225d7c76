import type { TableUnit } from '../../table/table-unit.ts';
import type { RulesKit } from './context.ts';
import { separation, type Measured } from './measure.ts';
import type { ThresholdPolicy } from './threshold.ts';
import { epsilonFor } from './threshold.ts';
import type { OptionValue, Verdict, VerdictInit } from './verdict.ts';

/**
 * "distance 'A' 'B'": edge to edge in the ruleset's unit, with the band its own measurement
 * error earns. There is no limit, so the answer is always yes; the ruleset words the reasons
 * (how it measures, what the number is not for).
 */
export function distanceVerdict<O extends Record<string, OptionValue>>(
  kit: RulesKit<O>,
  ctx: { readonly policy: ThresholdPolicy },
  a: TableUnit,
  b: TableUnit,
  words: (m: Measured) => { readonly reasons: readonly string[]; readonly facts?: VerdictInit['facts'] },
): Verdict {
  const m = separation(a.bases, b.bases);
  const { reasons, facts } = words(m);
  return kit.verdict({
    question: 'distance',
    asked: `distance between ${a.name} and ${b.name}`,
    answer: 'yes',
    value: kit.toUnit(m.mm),
    unit: kit.core.unit,
    epsilon: epsilonFor(ctx.policy, kit.toUnit(m.sigmaMm)),
    between: [m.from, m.to],
    reasons,
    ...(facts ? { facts } : {}),
  });
}
