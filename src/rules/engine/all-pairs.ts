import { boxOf, unionBox, type Box } from '../../geometry/box.ts';
import { facedBoxPolygon } from '../../geometry/faced-box.ts';
import { LookBounds, LookRecord, withLookRecord } from '../../geometry/look-record.ts';
import type { TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { PairCache, withPairCache } from './pair-cache.ts';
import { sameJson } from './same-json.ts';
import { noteFollows } from './table-lineage.ts';
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
 * Rulesets whose shoot, charge and see answers read other units only through the geometry that
 * notes where it looks (look-record.ts: sight screens, sight lines, gaps beside a line of fire):
 * a unit that stayed outside every box a pair's answer looked in cannot change that answer.
 * Black Powder: sight (seenShare, sightBlocker's grid, overhead fire's units crossed), gaps,
 * target priority (which assesses every enemy, so its looks cover every enemy's sight). Other
 * rulesets also read friends, collisions or charge lines directly, so an update asks them again
 * in full.
 */
const LOCAL_LOOKS: ReadonlySet<string> = new Set(['black-powder']);

/**
 * Keys of a unit derived from its bases: left out when comparing a unit's pose and state with the
 * table before (`sameJson`: the same answer as comparing the two units' JSON without them, which
 * printing every unit at every update cost 3 % of it).
 */
const DERIVED: ReadonlySet<string> = new Set(['body', 'bodyPolygons', 'allPolygons', 'leaderBase']);

/**
 * Whether any box meets what a look looked at. The boxes' union is tried first: a look whose own
 * box misses it misses every box (LookRecord.meets starts with that very test), and most do.
 */
function touched(look: LookRecord, boxes: readonly Box[], sides: readonly string[], union: Box): boolean {
  if (!(
    union.minX <= look.maxX &&
    look.minX <= union.maxX &&
    union.minY <= look.maxY &&
    look.minY <= union.maxY
  ))
    return false;
  for (let i = 0; i < boxes.length; i++) if (look.meets(boxes[i] as Box, sides[i])) return true;
  return false;
}

/** Everything of the table but its units (terrain, commanders, size, turn start). */
const tablePrint = (s: TableState): string =>
  JSON.stringify([s.table, s.terrain, s.commanders, s.missing, s.turnStart ?? null]);

/** The box of every outline another pair could see of a unit: its bases and its faced box (skirmishers block as a body). */
function unitBox(u: TableUnit): Box {
  return boxOf([...u.bases.flatMap((b) => b.polygon), ...facedBoxPolygon(u.box)]);
}

/** One answered table, with what is needed to answer again after units move. */
interface Answered {
  readonly result: PairVerdicts;
  readonly answers: ReadonlyMap<PairKind, readonly (PairAnswer | undefined)[]>;
  /** Per kind, per pair: where its answer looked (undefined when not recorded). */
  readonly looks: ReadonlyMap<PairKind, readonly (LookRecord | undefined)[]> | undefined;
  /** The same looks' outer bounds, flat (tested first by the next update). */
  readonly bounds: ReadonlyMap<PairKind, LookBounds> | undefined;
  readonly tablePrint: string;
}

/**
 * Answers every ordered pair of a table, and answers again after units move, asking each pair
 * through the ruleset's own `ask` (the one-at-a-time path, so the answers are that path's by
 * construction) while a pair cache is active (pair-cache.ts): a shooter's assessment of a target
 * and the sight from a leader are computed once per pair whichever question asks for them (shoot,
 * charge, see; target priority reassessing every other target). The shadows each eye casts are
 * shared by every target of that eye in the geometry itself (eye-shadow.ts). (A memo of polygon
 * booleans and sight shares was also active here until the shadows were shared per eye; its keys
 * then cost more than it saved: fresh runs 17 % slower with it, docs/rules-engine.md.)
 *
 * `update(table)` after units moved keeps the answer of every pair that involves no moved unit
 * and whose looks (see LOCAL_LOOKS) no moved unit met, before or after; it asks the rest again.
 */
export class AllPairs {
  readonly kinds: readonly PairKind[];
  private readonly pairCache = new PairCache();
  private readonly recordLooks: boolean;
  private last: Answered | undefined;
  /** Pairs asked again by the last `update` (or all, by `full`), for benchmarks and tests. */
  lastAsked = 0;

  constructor(
    readonly ruleset: Ruleset,
    private readonly settings: AllPairsSettings = {},
  ) {
    const answered = pairKindsOf(ruleset);
    this.kinds = (settings.kinds ?? answered).filter((k) => answered.includes(k));
    this.recordLooks = LOCAL_LOOKS.has(ruleset.id);
  }

  /** Every ordered pair of the table, every kind, nothing reused. */
  full(state: TableState): PairVerdicts {
    this.pairCache.reset(state);
    return this.answer(state, () => true);
  }

  /**
   * The table again after units moved (found by comparing each unit with the last table's):
   * only the pairs a moved unit could change are asked again. Falls back to `full` when the
   * units, terrain or turn start differ in any other way, or the ruleset's looks are not local.
   */
  update(state: TableState): PairVerdicts {
    const last = this.last;
    const sameUnits =
      last !== undefined &&
      last.result.n === state.units.length &&
      state.units.every((u, i) => u.id === last.result.unitIds[i]);
    if (!last || !last.looks || !sameUnits || tablePrint(state) !== last.tablePrint) return this.full(state);
    const oldUnits = last.result.state.units;
    const moved: number[] = [];
    state.units.forEach((u, i) => {
      if (!sameJson(u, oldUnits[i], DERIVED)) moved.push(i);
    });
    // A unit changing sides changes who is whose enemy everywhere.
    if (moved.some((i) => oldUnits[i]?.side !== state.units[i]?.side)) return this.full(state);
    const boxes = moved.flatMap((i) => [
      unitBox(oldUnits[i] as TableUnit),
      unitBox(state.units[i] as TableUnit),
    ]);
    // Each box's unit's side (the same before and after: a change of side asks everything).
    const sides = moved.flatMap((i) => [
      (state.units[i] as TableUnit).side,
      (state.units[i] as TableUnit).side,
    ]);
    // The unchanged units' and terrain's outlines of the table before are taken over (the same
    // numbers), so every eye's shadows of them are found again.
    noteFollows(state, last.result.state);
    const union = unionBox(boxes);
    const isMoved = new Uint8Array(state.units.length);
    for (const i of moved) isMoved[i] = 1;
    const movedIds = moved.map((i) => (state.units[i] as TableUnit).id);
    // Pair results (a shooter's assessment of a target) stand under the same rule as answers.
    this.pairCache.rebaseAfterMoves(state, movedIds, union, (look) => touched(look, boxes, sides, union));
    const looks = last.looks;
    const bounds = last.bounds;
    const n = state.units.length;
    // The kind's looks and bounds, found once per kind (pairs are asked kind by kind).
    let kindNow: PairKind | undefined;
    let kindLooks: readonly (LookRecord | undefined)[] | undefined;
    let kindBounds: LookBounds | undefined;
    const result = this.answer(state, (kind, i, j) => {
      if (isMoved[i] === 1 || isMoved[j] === 1) return true;
      if (kind !== kindNow) {
        kindNow = kind;
        kindLooks = looks.get(kind);
        kindBounds = bounds?.get(kind);
      }
      const k = i * n + j;
      const look = kindLooks?.[k];
      if (!look) return true;
      // touched() starts with this very test, on the record's own bounds.
      if (bounds && !kindBounds?.meets(k, union)) return false;
      return touched(look, boxes, sides, union);
    });
    return result;
  }

  private answer(state: TableState, ask: (kind: PairKind, i: number, j: number) => boolean): PairVerdicts {
    const units = state.units;
    const n = units.length;
    const last = this.last;
    const answers = new Map<PairKind, (PairAnswer | undefined)[]>();
    const looks = this.recordLooks ? new Map<PairKind, (LookRecord | undefined)[]>() : undefined;
    const bounds = this.recordLooks ? new Map<PairKind, LookBounds>() : undefined;
    let asked = 0;
    withPairCache(this.pairCache, () => {
      for (const kind of this.kinds) {
        const row = new Array<PairAnswer | undefined>(n * n);
        const lookRow = new Array<LookRecord | undefined>(n * n);
        const boundsRow = new LookBounds(n * n);
        const oldRow = last?.answers.get(kind);
        const oldLooks = last?.looks?.get(kind);
        const oldBounds = last?.bounds?.get(kind);
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) {
            if (i === j) continue;
            const k = i * n + j;
            if (oldRow && !ask(kind, i, j)) {
              row[k] = oldRow[k];
              lookRow[k] = oldLooks?.[k];
              // The same record's bounds, read from the flat array rather than the record.
              if (oldBounds) boundsRow.copy(k, oldBounds);
              else boundsRow.set(k, lookRow[k]);
              continue;
            }
            asked++;
            const question = () =>
              askPair(this.ruleset, state, kind, units[i] as TableUnit, units[j] as TableUnit, this.settings);
            if (looks) {
              const record = new LookRecord();
              row[k] = withLookRecord(record, question);
              lookRow[k] = record;
              boundsRow.set(k, record);
            } else row[k] = question();
          }
        answers.set(kind, row);
        looks?.set(kind, lookRow);
        bounds?.set(kind, boundsRow);
      }
    });
    const result = new PairVerdicts(state, this.kinds, answers);
    this.last = {
      result,
      answers,
      looks,
      bounds,
      tablePrint: tablePrint(state),
    };
    this.lastAsked = asked;
    return result;
  }
}

/** Every ordered pair of one table at once (nothing kept between calls). */
export function allPairVerdicts(
  ruleset: Ruleset,
  state: TableState,
  settings: AllPairsSettings = {},
): PairVerdicts {
  return new AllPairs(ruleset, settings).full(state);
}
