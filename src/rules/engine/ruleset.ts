import type { LengthUnit } from '../../table/length-unit.ts';
import type { Scenario } from '../../table/scenario.ts';
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
  /**
   * Optional: answers a question in the ruleset's own phrasing (board games ask "can 'X' move
   * to 'Y'?"). Returns undefined when it does not recognise the text, so the caller falls back
   * to parseQuestion and `ask`.
   */
  askText?(
    state: TableState,
    text: string,
    options?: Readonly<Record<string, OptionValue>>,
    policy?: ThresholdPolicy,
  ): Verdict | undefined;
  /**
   * Optional: the ruleset configured for one scenario (e.g. bound to the board map the scenario
   * names). Rulesets without per-scenario data leave it out.
   */
  forScenario?(scenario: Scenario): Ruleset;
}
