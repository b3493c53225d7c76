import { fromMm, toMm, type LengthUnit } from '../../table/length-unit.ts';
import type { TableState } from '../../table/table-state.ts';
import { lengthVerdict, thresholdVerdict, type Measured, type Measurement } from './measure.ts';
import { resolveOptions, type OptionSpecs } from './options.ts';
import type { RulesContext } from './ruleset.ts';
import {
  bandMmFor,
  judge,
  type Comparison,
  type Judgement,
  type Quantity,
  type ThresholdPolicy,
} from './threshold.ts';
import { verdictOf, type OptionValue, type Verdict, type VerdictInit } from './verdict.ts';

/** What identifies a ruleset to its own files: its id, unit, options and borderline band. */
export interface RulesetCore<O extends Record<string, OptionValue>> {
  /** As written in scenario files' `ruleset`. */
  readonly id: string;
  /** The unit its limits and verdict numbers are stated in. */
  readonly unit: LengthUnit;
  readonly optionSpecs: OptionSpecs<O>;
  readonly defaultPolicy: ThresholdPolicy;
}

/**
 * The plumbing every ruleset file needs, bound once to its core: a context over a table, verdicts
 * stamped with its id, length verdicts and lengths in its unit. Each ruleset's context.ts
 * re-exports these under its own names and adds only what is its own.
 */
export interface RulesKit<O extends Record<string, OptionValue>> {
  readonly core: RulesetCore<O>;
  /** The table with the options resolved (strings from a command line converted) and the policy defaulted. */
  context(
    state: TableState,
    options?: Readonly<Record<string, OptionValue>>,
    policy?: ThresholdPolicy,
  ): RulesContext<O>;
  /** A verdict of this ruleset. */
  verdict(init: Omit<VerdictInit, 'ruleset'>): Verdict;
  /** One measured length against a limit in the ruleset's unit, under the context's policy. */
  lengthVerdict(
    ctx: { readonly policy: ThresholdPolicy },
    init: Omit<VerdictInit, Measurement | 'between' | 'measured'>,
    m: Measured,
    comparison: Comparison,
    limit: number,
  ): Verdict;
  /** Any quantity (a bearing, a share, a length) against a limit in its own unit, by the one model. */
  thresholdVerdict(
    ctx: { readonly policy: ThresholdPolicy },
    init: Omit<VerdictInit, Measurement>,
    q: Quantity,
    comparison: Comparison,
    limit: number,
  ): Verdict;
  /** The bare judgement of a quantity (no verdict), for callers that word it themselves. */
  judge(
    ctx: { readonly policy: ThresholdPolicy },
    q: Quantity,
    comparison: Comparison,
    limit: number,
  ): Judgement;
  /** A length in the ruleset's unit as a quantity (value and sigma in that unit). */
  length(value: number, sigma: number): Quantity;
  /** The pose uncertainty band, mm, for a one-sigma uncertainty in mm. */
  bandMm(ctx: { readonly policy: ThresholdPolicy }, sigmaMm: number): number;
  /** Millimetres to the ruleset's unit. */
  toUnit(mm: number): number;
  /** The ruleset's unit to millimetres. */
  toMm(value: number): number;
  /** A length for reasons, one decimal: 14.23 in → "14.2 in". */
  lengthStr(mm: number): string;
}

/** Options given as nothing: one object, so contexts built without options are the same context. */
export const NO_OPTIONS: Readonly<Record<string, OptionValue>> = Object.freeze({});

export function rulesKit<O extends Record<string, OptionValue>>(core: RulesetCore<O>): RulesKit<O> {
  const toUnit = (mm: number): number => fromMm(mm, core.unit);
  // The last few contexts per table, by the very options and policy objects they were built
  // from: a table asked many questions (every ordered pair) resolves its options once.
  const contexts = new WeakMap<
    TableState,
    Array<{ readonly given: object; readonly policy: ThresholdPolicy; readonly ctx: RulesContext<O> }>
  >();
  return {
    core,
    context: (state, options = NO_OPTIONS, policy = core.defaultPolicy) => {
      let list = contexts.get(state);
      const hit = list?.find((c) => c.given === options && c.policy === policy);
      if (hit) return hit.ctx;
      const ctx = { state, options: resolveOptions(core.optionSpecs, options), policy };
      if (!list) contexts.set(state, (list = []));
      if (list.length >= 4) list.shift();
      list.push({ given: options, policy, ctx });
      return ctx;
    },
    verdict: (init) => verdictOf(init, core.id),
    lengthVerdict: (ctx, init, m, comparison, limit) =>
      lengthVerdict({ ruleset: core.id, unit: core.unit, policy: ctx.policy }, init, m, comparison, limit),
    thresholdVerdict: (ctx, init, q, comparison, limit) =>
      thresholdVerdict({ ruleset: core.id, unit: core.unit, policy: ctx.policy }, init, q, comparison, limit),
    judge: (ctx, q, comparison, limit) =>
      judge(q, comparison, limit, ctx.policy, toMm(ctx.policy.floor, core.unit)),
    length: (value, sigma) => ({
      value,
      unit: core.unit,
      perMm: 1 / toMm(1, core.unit),
      sigmaMm: toMm(sigma, core.unit),
    }),
    bandMm: (ctx, sigmaMm) => bandMmFor(ctx.policy, toMm(ctx.policy.floor, core.unit), sigmaMm),
    toUnit,
    toMm: (value) => toMm(value, core.unit),
    lengthStr: (mm) => `${toUnit(mm).toFixed(1)} ${core.unit}`,
  };
}
