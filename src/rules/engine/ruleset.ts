import type { LengthUnit } from '../../table/length-unit.ts';
import type { TableState } from '../../table/table-state.ts';
import type { OptionSpec } from './options.ts';
import type { Question, QuestionKind } from './question.ts';
import type { ThresholdPolicy } from './threshold.ts';
import type { OptionValue, Verdict } from './verdict.ts';

/** What every question handler gets: the table, the options in force and the borderline policy. */
export interface RulesContext<O extends Record<string, OptionValue>> {
  readonly state: TableState;
  readonly options: O;
  readonly policy: ThresholdPolicy;
}

/**
 * A ruleset: data (its unit, its options) plus predicates over a TableState. The registry holds
 * rulesets with their option types erased; each ruleset validates the overrides it is given.
 */
export interface Ruleset {
  /** Identifier used in scenario files (`ruleset`) and on the command line. */
  readonly id: string;
  readonly name: string;
  /** Unit its limits and verdict numbers are stated in. */
  readonly unit: LengthUnit;
  readonly optionSpecs: Readonly<Record<string, OptionSpec>>;
  readonly defaultPolicy: ThresholdPolicy;
  /** Question kinds this ruleset answers. */
  readonly answers: readonly QuestionKind[];
  /**
   * Answers a parsed question. Names in the question are resolved against the table; unknown
   * names throw. `options` may hold strings (from a command line); they are converted.
   */
  ask(
    state: TableState,
    question: Question,
    options?: Readonly<Record<string, OptionValue>>,
    policy?: ThresholdPolicy,
  ): Verdict;
}
