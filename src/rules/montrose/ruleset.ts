import {
  findSpace,
  loadBoardMap,
  sampleBoardMap,
  spaceLabel,
  type BoardMap,
  type Space,
} from '../../board/board-map.ts';
import { IDENTITY_PLACEMENT, type BoardPlacement } from '../../board/placement.ts';
import type { Scenario } from '../../table/scenario.ts';
import type { TableState } from '../../table/table-state.ts';
import { registerRuleset } from '../engine/registry.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import { QuestionError, type Question } from '../engine/question.ts';
import { EXACT_POLICY, type ThresholdPolicy } from '../engine/threshold.ts';
import type { OptionValue, Verdict } from '../engine/verdict.ts';
import { englandWinVerdict, spaceDistanceVerdict, winterEndVerdict } from './campaign.ts';
import { moveToVerdict } from './movement.ts';
import { MON_OPTION_SPECS } from './options.ts';
import { displaceVerdict, retreatVerdict } from './retreat.ts';
import {
  boardState,
  findCounter,
  monVerdict,
  RULESET_ID,
  sideOf,
  spaceOfCounter,
  stackIn,
  whereWords,
  type BoardState,
  type PlacedCounter,
} from './state.ts';

const NAME = String.raw`(?:'((?:[^']|'(?=[a-z]))+)'|"([^"]+)")`;
const ANY_NAME = new RegExp(NAME, 'gi');
const names = (m: RegExpExecArray): string[] => m.slice(1).filter((g): g is string => g !== undefined);

/** Where a counter is: its space, or why that is unclear. */
export function whereVerdict(board: BoardState, p: PlacedCounter): Verdict {
  const s = p.snap;
  return monVerdict({
    question: 'space',
    asked: `which space is ${p.counter.name} in?`,
    answer: s.status === 'placed' ? 'yes' : s.status === 'unclear' ? 'borderline' : 'no',
    lean: s.status === 'placed' ? 'yes' : 'no',
    value: s.distanceIn,
    unit: 'in',
    reasons: [
      `${p.counter.name} is ${whereWords(p)}`,
      ...(s.status === 'placed'
        ? [`${s.distanceIn.toFixed(2)} in from the centre of the ${s.space.radius} in circle`]
        : []),
    ],
    options: { snapToleranceIn: board.options.snapToleranceIn, routeBandIn: board.options.routeBandIn },
    facts:
      s.status === 'placed'
        ? { space: s.space.id, status: s.status }
        : s.status === 'unclear'
          ? { candidates: s.candidates.map((c) => c.id).join(', '), status: s.status }
          : { status: s.status },
  });
}

/** The stack on a space. */
export function stackVerdict(board: BoardState, space: Space): Verdict {
  const stack = stackIn(board, space.id);
  return monVerdict({
    question: 'stack',
    asked: `what is in ${spaceLabel(space)}?`,
    answer: 'yes',
    value: stack.length,
    reasons: [
      stack.length
        ? stack.map((p) => `${p.counter.name} (${p.counter.side} ${p.counter.kind})`).join(', ')
        : 'nothing',
    ],
    facts: {
      counters: stack.map((p) => p.counter.id).join(', '),
      space: space.id,
      kind: space.kind,
      region: space.region,
      named: space.named,
    },
  });
}

/**
 * Campaigns of Montrose on a map lying on the table, bound to one map and placement. Questions in
 * its own phrasing (askText): "where is 'X'?", "can 'X' move to 'Y' [via 'A', 'B']?", "can 'X'
 * retreat to 'Y'?", "can 'X' be displaced to 'Y'?", "what is in 'Y'?", "winter check 'royalist'",
 * "has the Royalist won in England?"; and "distance 'X' 'Y'" (counters or spaces).
 */
export function montroseRuleset(getMap: () => BoardMap, placement: BoardPlacement): Ruleset {
  const board = (state: TableState, options: Readonly<Record<string, OptionValue>>) =>
    boardState(state, getMap(), placement, options);
  const spaceOrCounter = (b: BoardState, ref: string): Space => {
    try {
      return findSpace(b.map, ref);
    } catch {
      const p = findCounter(b, ref);
      const s = spaceOfCounter(p);
      if (!s) throw new QuestionError(`${p.counter.name} is not clearly on a space (${whereWords(p)})`);
      return s;
    }
  };
  const ruleset: Ruleset = {
    id: RULESET_ID,
    name: 'Campaigns of Montrose (board)',
    unit: 'in',
    optionSpecs: MON_OPTION_SPECS,
    defaultPolicy: EXACT_POLICY,
    answers: ['distance'],
    ask(
      state: TableState,
      q: Question,
      options: Readonly<Record<string, OptionValue>> = {},
      _policy: ThresholdPolicy = EXACT_POLICY,
    ): Verdict {
      void _policy;
      const b = board(state, options);
      if (q.kind === 'distance' && q.object)
        return spaceDistanceVerdict(b, spaceOrCounter(b, q.subject), spaceOrCounter(b, q.object));
      throw new QuestionError(
        `Montrose is a board game: ask "where is 'X'?", "can 'X' move to 'Y'?", "can 'X' move to 'Y' via 'A', 'B'?", "can 'X' retreat to 'Y'?", "can 'X' be displaced to 'Y'?", "what is in 'Y'?", "winter check 'royalist'" or "distance 'X' 'Y'"`,
      );
    },
    askText(
      state: TableState,
      text: string,
      options: Readonly<Record<string, OptionValue>> = {},
    ): Verdict | undefined {
      const t = text.trim();
      const all = [...t.matchAll(ANY_NAME)].map((m) => names(m as RegExpExecArray)[0] as string);
      const b = () => board(state, options);
      let m: RegExpExecArray | null;
      if (
        (m = new RegExp(
          String.raw`^(?:where\s+is|which\s+space\s+is|what\s+space\s+is)\s+${NAME}(?:\s+in)?\s*\??$`,
          'i',
        ).exec(t))
      ) {
        const bs = b();
        return whereVerdict(bs, findCounter(bs, names(m)[0] as string));
      }
      if (
        new RegExp(String.raw`^(?:can|may)\s+${NAME}\s+(?:move|march|go)\s+(?:to|into)\s+${NAME}`, 'i').test(
          t,
        )
      ) {
        const bs = b();
        const [who, to, ...via] = all as [string, string, ...string[]];
        return moveToVerdict(
          bs,
          findCounter(bs, who),
          findSpace(bs.map, to),
          via.map((v) => findSpace(bs.map, v)),
        );
      }
      if (
        (m = new RegExp(
          String.raw`^(?:can|may)\s+${NAME}\s+retreat\s+(?:to|into)\s+${NAME}\s*\??$`,
          'i',
        ).exec(t))
      ) {
        const bs = b();
        const [who, to] = names(m) as [string, string];
        return retreatVerdict(bs, findCounter(bs, who), to);
      }
      if (
        (m = new RegExp(
          String.raw`^(?:can|may)\s+${NAME}\s+(?:be\s+)?displaced?\s+(?:to|into)\s+${NAME}\s*\??$`,
          'i',
        ).exec(t))
      ) {
        const bs = b();
        const [who, to] = names(m) as [string, string];
        return displaceVerdict(bs, findCounter(bs, who), to);
      }
      if ((m = new RegExp(String.raw`^(?:what|who)\s+is\s+(?:in|on)\s+${NAME}\s*\??$`, 'i').exec(t))) {
        const bs = b();
        return stackVerdict(bs, findSpace(bs.map, names(m)[0] as string));
      }
      if ((m = new RegExp(String.raw`^winter\s+check\s+${NAME}\s*$`, 'i').exec(t)))
        return winterEndVerdict(b(), sideOf(names(m)[0] as string));
      if (/^(?:has|does)\s+the\s+royalists?\s+(?:won|win)(?:\s+in\s+england)?\s*\??$/i.test(t))
        return englandWinVerdict(b());
      return undefined;
    },
    forScenario(scenario: Scenario): Ruleset {
      if (!scenario.board) return ruleset;
      const file = scenario.board.map;
      let map: BoardMap | undefined;
      return montroseRuleset(() => (map ??= loadBoardMap(file)), scenario.board);
    },
  };
  return ruleset;
}

/** The registered default: the sample map lying square at the table origin, 1:1. */
export const montrose: Ruleset = montroseRuleset(sampleBoardMap, IDENTITY_PLACEMENT);

registerRuleset(montrose);
