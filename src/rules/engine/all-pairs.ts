import { BooleanMemo, withBooleanMemo } from '../../geometry/boolean-memo.ts';
import type { TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { QuestionKind } from './question.ts';
import type { Ruleset } from './ruleset.ts';
import type { ThresholdPolicy } from './threshold.ts';
import type { OptionValue, Verdict } from './verdict.ts';

/** The questions about an ordered pair of units a threat view shows. */
export const PAIR_KINDS = ['shoot', 'charge', 'see'] as const;
export type PairKind = (typeof PAIR_KINDS)[number];

/** One pair's answer: the verdict, or the refusal the one-at-a-time path throws. */
export type PairAnswer = { readonly verdict: Verdict } | { readonly refused: string };

export interface AllPairsSettings {
  /** Questions to answer (default: those of shoot, charge, see the ruleset answers). */
  readonly kinds?: readonly PairKind[];
  readonly options?: Readonly<Record<string, OptionValue>>;
  readonly policy?: ThresholdPolicy;
}

/**
 * Every ordered pair's answers for one table: `at(kind, i, j)` is what unit i (subject: shooter,
 * charger, the one who sees) is told about unit j, units in table order.
 */
export class PairVerdicts {
  readonly unitIds: readonly string[];
  readonly n: number;
  private readonly index: ReadonlyMap<string, number>;

  constructor(
    readonly state: TableState,
    readonly kinds: readonly PairKind[],
    private readonly answers: ReadonlyMap<PairKind, readonly (PairAnswer | undefined)[]>,
  ) {
    this.unitIds = state.units.map((u) => u.id);
    this.n = this.unitIds.length;
    this.index = new Map(this.unitIds.map((id, i) => [id, i]));
  }

  /** The answer for subject i about object j (undefined when i = j or the kind was not asked). */
  at(kind: PairKind, i: number, j: number): PairAnswer | undefined {
    return this.answers.get(kind)?.[i * this.n + j];
  }

  /** The answer by unit ids. */
  get(kind: PairKind, subjectId: string, objectId: string): PairAnswer | undefined {
    const i = this.index.get(subjectId);
    const j = this.index.get(objectId);
    return i === undefined || j === undefined ? undefined : this.at(kind, i, j);
  }

  /** The verdict by unit ids, when the pair was answered (not refused). */
  verdict(kind: PairKind, subjectId: string, objectId: string): Verdict | undefined {
    const a = this.get(kind, subjectId, objectId);
    return a && 'verdict' in a ? a.verdict : undefined;
  }
}

/** One question asked exactly as the command line asks it (parsed question, names resolved by id). */
export function askPair(
  ruleset: Ruleset,
  state: TableState,
  kind: PairKind,
  subject: TableUnit,
  object: TableUnit,
  settings: AllPairsSettings = {},
): PairAnswer {
  try {
    return {
      verdict: ruleset.ask(
        state,
        { kind, subject: subject.id, object: object.id, text: `${kind} '${subject.id}' '${object.id}'` },
        settings.options,
        settings.policy,
      ),
    };
  } catch (e) {
    return { refused: e instanceof Error ? e.message : String(e) };
  }
}

/** The pair kinds a ruleset answers, in PAIR_KINDS order. */
export const pairKindsOf = (ruleset: Ruleset): PairKind[] =>
  PAIR_KINDS.filter((k) => ruleset.answers.includes(k as QuestionKind));

/**
 * Answers every ordered pair of a table, and answers again after units move, asking each pair
 * through the ruleset's own `ask` (the one-at-a-time path, so the answers are that path's by
 * construction) while a memo of polygon booleans is active: the visible part of a target, its
 * probes and its cover are the same polygons whichever question asks for them (shoot, charge,
 * see; target priority reassessing every other target), and after one unit moves the sight
 * polygons of every pair it neither stands in nor shadows are the same as before.
 *
 * The memo keeps only what the latest table used, so memory stays that of one table.
 */
export class AllPairs {
  readonly kinds: readonly PairKind[];
  private readonly memo = new BooleanMemo();

  constructor(
    readonly ruleset: Ruleset,
    private readonly settings: AllPairsSettings = {},
  ) {
    const answered = pairKindsOf(ruleset);
    this.kinds = (settings.kinds ?? answered).filter((k) => answered.includes(k));
  }

  /** Every ordered pair of the table, every kind. */
  full(state: TableState): PairVerdicts {
    const units = state.units;
    const n = units.length;
    const answers = new Map<PairKind, (PairAnswer | undefined)[]>();
    withBooleanMemo(this.memo, () => {
      for (const kind of this.kinds) {
        const row: (PairAnswer | undefined)[] = new Array<PairAnswer | undefined>(n * n);
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++)
            if (i !== j)
              row[i * n + j] = askPair(
                this.ruleset,
                state,
                kind,
                units[i] as TableUnit,
                units[j] as TableUnit,
                this.settings,
              );
        answers.set(kind, row);
      }
    });
    this.memo.sweep();
    return new PairVerdicts(state, this.kinds, answers);
  }

  /** Booleans remembered and reused so far (for benchmarks). */
  get memoStats(): { readonly size: number; readonly hits: number; readonly misses: number } {
    return { size: this.memo.size, hits: this.memo.hits, misses: this.memo.misses };
  }
}

/** Every ordered pair of one table at once (a fresh memo each call). */
export function allPairVerdicts(
  ruleset: Ruleset,
  state: TableState,
  settings: AllPairsSettings = {},
): PairVerdicts {
  return new AllPairs(ruleset, settings).full(state);
}
