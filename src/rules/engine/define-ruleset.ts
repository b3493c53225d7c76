import { findByName, findUnit, type Commander, type TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { NO_OPTIONS, type RulesKit } from './context.ts';
import { QUESTION_KINDS, QuestionError, type Question, type QuestionKind } from './question.ts';
import type { RulesContext, Ruleset } from './ruleset.ts';
import type { ThresholdPolicy } from './threshold.ts';
import type { OptionValue, Verdict } from './verdict.ts';

/**
 * One question being answered: the context, and its names looked up on the table. Lookups are
 * lazy, so a handler decides which names it needs and in what order (an unknown name or a
 * missing second name throws when first asked for).
 */
export interface Asking<O extends Record<string, OptionValue>> {
  readonly ctx: RulesContext<O>;
  readonly question: Question;
  /** The unit that acts (shooter, charger, the one who sees). */
  subject(): TableUnit;
  /** The subject as a commander ("can 'General' order 'A'?"). */
  subjectCommander(): Commander;
  /** The other unit; the question must name two. */
  object(): TableUnit;
  /** The other name as written, for handlers that look it up themselves; the question must name two. */
  objectName(): string;
  /** Both units, for questions about two; a question naming one is refused before any lookup. */
  pair(): [TableUnit, TableUnit];
}

export type QuestionHandlers<O extends Record<string, OptionValue>> = {
  readonly [K in QuestionKind]?: (a: Asking<O>) => Verdict;
};

export interface RulesetDefinition<O extends Record<string, OptionValue>> {
  readonly kit: RulesKit<O>;
  readonly name: string;
  /** A handler per question kind the ruleset answers; `answers` is read from these. */
  readonly handlers: QuestionHandlers<O>;
  /** The refusal for a kind without a handler, in the ruleset's own words. */
  readonly noRule?: (kind: QuestionKind) => string;
}

function asking<O extends Record<string, OptionValue>>(ctx: RulesContext<O>, q: Question): Asking<O> {
  const objectName = (): string => {
    if (!q.object) throw new QuestionError(`"${q.text}" needs two names`);
    return q.object;
  };
  const state: TableState = ctx.state;
  return {
    ctx,
    question: q,
    subject: () => findUnit(state, q.subject),
    subjectCommander: () => findByName(state.commanders, q.subject, 'commander'),
    object: () => findUnit(state, objectName()),
    objectName,
    pair: () => {
      const other = objectName();
      return [findUnit(state, q.subject), findUnit(state, other)];
    },
  };
}

/**
 * A Ruleset from its core, name and question handlers: every ruleset builds the context the same
 * way and resolves names the same way, so only the handlers are its own.
 */
export function defineRuleset<O extends Record<string, OptionValue>>(def: RulesetDefinition<O>): Ruleset {
  const { kit, name, handlers } = def;
  const noRule = def.noRule ?? ((kind: QuestionKind) => `${name} has no rule for "${kind}" questions`);
  return {
    id: kit.core.id,
    name,
    unit: kit.core.unit,
    optionSpecs: kit.core.optionSpecs,
    defaultPolicy: kit.core.defaultPolicy,
    answers: QUESTION_KINDS.filter((k) => handlers[k] !== undefined),
    ask(
      state: TableState,
      q: Question,
      options: Readonly<Record<string, OptionValue>> = NO_OPTIONS,
      policy: ThresholdPolicy = kit.core.defaultPolicy,
    ): Verdict {
      const ctx = kit.context(state, options, policy);
      const handler = handlers[q.kind];
      if (!handler) throw new QuestionError(noRule(q.kind));
      return handler(asking(ctx, q));
    },
  };
}
