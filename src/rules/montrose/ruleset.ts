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
import type { ThresholdPolicy } from '../engine/threshold.ts';
import type { OptionValue, Verdict } from '../engine/verdict.ts';
import { englandWinVerdict, spaceDistanceVerdict, winterEndVerdict } from './campaign.ts';
import { moveToVerdict } from './movement.ts';
import { MON_OPTION_SPECS } from './options.ts';
import { displaceVerdict, retreatVerdict } from './retreat.ts';
import {
  boardState,
  doubtful,
  findCounter,
  MONTROSE_POLICY,
  monVerdict,
  withCounterAt,
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
  const near = doubtful(p);
  const edge = s.boundary;
  return monVerdict({
    question: 'space',
    asked: `which space is ${p.counter.name} in?`,
    answer: s.status === 'placed' && !near ? 'yes' : s.status === 'unplaced' && !near ? 'no' : 'borderline',
    lean: s.status === 'placed' ? 'yes' : 'no',
    value: s.distanceIn,
    unit: 'in',
    ...(edge
      ? {
          moveMm: edge.distanceIn * board.placement.mmPerMapInch,
          bandMm: p.bandIn * board.placement.mmPerMapInch,
        }
      : {}),
    reasons: [
      `${p.counter.name} is ${whereWords(p)}`,
      ...(s.status === 'placed'
        ? [`${s.distanceIn.toFixed(2)} in from the centre of the ${s.space.radius} in circle`]
        : []),
      ...(edge
        ? [
            `${edge.distanceIn.toFixed(2)} in from ${edge.what}${near ? `: too close to call, inside the ± ${p.bandIn.toFixed(2)} in the camera can vouch for` : ''}`,
          ]
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

/** A question in Montrose's own phrasing, answered on a board (undefined: not recognised). */
function answerOn(bs: BoardState, t: string): Verdict | undefined {
  const all = [...t.matchAll(ANY_NAME)].map((m) => names(m as RegExpExecArray)[0] as string);
  let m: RegExpExecArray | null;
  if (
    (m = new RegExp(
      String.raw`^(?:where\s+is|which\s+space\s+is|what\s+space\s+is)\s+${NAME}(?:\s+in)?\s*\??$`,
      'i',
    ).exec(t))
  )
    return whereVerdict(bs, findCounter(bs, names(m)[0] as string));
  if (
    new RegExp(String.raw`^(?:can|may)\s+${NAME}\s+(?:move|march|go)\s+(?:to|into)\s+${NAME}`, 'i').test(t)
  ) {
    const [who, to, ...via] = all as [string, string, ...string[]];
    return moveToVerdict(
      bs,
      findCounter(bs, who),
      findSpace(bs.map, to),
      via.map((v) => findSpace(bs.map, v)),
    );
  }
  if (
    (m = new RegExp(String.raw`^(?:can|may)\s+${NAME}\s+retreat\s+(?:to|into)\s+${NAME}\s*\??$`, 'i').exec(t))
  ) {
    const [who, to] = names(m) as [string, string];
    return retreatVerdict(bs, findCounter(bs, who), to);
  }
  if (
    (m = new RegExp(
      String.raw`^(?:can|may)\s+${NAME}\s+(?:be\s+)?displaced?\s+(?:to|into)\s+${NAME}\s*\??$`,
      'i',
    ).exec(t))
  ) {
    const [who, to] = names(m) as [string, string];
    return displaceVerdict(bs, findCounter(bs, who), to);
  }
  if ((m = new RegExp(String.raw`^(?:what|who)\s+is\s+(?:in|on)\s+${NAME}\s*\??$`, 'i').exec(t)))
    return stackVerdict(bs, findSpace(bs.map, names(m)[0] as string));
  if ((m = new RegExp(String.raw`^winter\s+check\s+${NAME}\s*$`, 'i').exec(t)))
    return winterEndVerdict(bs, sideOf(names(m)[0] as string));
  if (/^(?:has|does)\s+the\s+royalists?\s+(?:won|win)(?:\s+in\s+england)?\s*\??$/i.test(t))
    return englandWinVerdict(bs);
  return undefined;
}

/**
 * Counters within their band of a circle's or route band's edge could as well be across it: the
 * question is asked again with each such counter moved just across, and when that changes the
 * answer (or the space named) the verdict is too close to call and says which counter and why.
 */
function withDoubts(bs: BoardState, v: Verdict, again: (b: BoardState) => Verdict | undefined): Verdict {
  const reasons: string[] = [];
  let moveMm = v.moveMm ?? Infinity;
  let bandMm = v.bandMm ?? 0;
  for (const c of bs.counters) {
    if (!doubtful(c) || !c.snap.boundary) continue;
    let w: Verdict | undefined;
    try {
      w = again(withCounterAt(bs, c.counter.id, c.snap.boundary.across));
    } catch {
      // Across the edge the question cannot be asked (the counter is on no space): that is a change.
      w = undefined;
    }
    if (w && w.lean === v.lean && w.facts.space === v.facts.space) continue;
    const k = bs.placement.mmPerMapInch;
    moveMm = Math.min(moveMm, c.snap.boundary.distanceIn * k);
    bandMm = Math.max(bandMm, c.bandIn * k);
    reasons.push(
      `too close to call: ${c.counter.name} is ${c.snap.boundary.distanceIn.toFixed(2)} in from ${c.snap.boundary.what} (± ${c.bandIn.toFixed(2)} in); just across it the answer would be ${w ? w.lean : 'unanswerable'}`,
    );
  }
  if (reasons.length === 0) return v;
  return { ...v, answer: 'borderline', moveMm, bandMm, reasons: [...v.reasons, ...reasons] };
}

/**
 * Campaigns of Montrose on a map lying on the table, bound to one map and placement. Questions in
 * its own phrasing (askText): "where is 'X'?", "can 'X' move to 'Y' [via 'A', 'B']?", "can 'X'
 * retreat to 'Y'?", "can 'X' be displaced to 'Y'?", "what is in 'Y'?", "winter check 'royalist'",
 * "has the Royalist won in England?"; and "distance 'X' 'Y'" (counters or spaces).
 */
export function montroseRuleset(getMap: () => BoardMap, placement: BoardPlacement): Ruleset {
  const board = (
    state: TableState,
    options: Readonly<Record<string, OptionValue>>,
    policy: ThresholdPolicy,
  ) => boardState(state, getMap(), placement, options, policy);
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
    defaultPolicy: MONTROSE_POLICY,
    answers: ['distance'],
    ask(
      state: TableState,
      q: Question,
      options: Readonly<Record<string, OptionValue>> = {},
      policy: ThresholdPolicy = MONTROSE_POLICY,
    ): Verdict {
      const b = board(state, options, policy);
      if (q.kind === 'distance' && q.object) {
        const object = q.object;
        return withDoubts(
          b,
          spaceDistanceVerdict(b, spaceOrCounter(b, q.subject), spaceOrCounter(b, object)),
          (bb) => spaceDistanceVerdict(bb, spaceOrCounter(bb, q.subject), spaceOrCounter(bb, object)),
        );
      }
      throw new QuestionError(
        `Montrose is a board game: ask "where is 'X'?", "can 'X' move to 'Y'?", "can 'X' move to 'Y' via 'A', 'B'?", "can 'X' retreat to 'Y'?", "can 'X' be displaced to 'Y'?", "what is in 'Y'?", "winter check 'royalist'" or "distance 'X' 'Y'"`,
      );
    },
    askText(
      state: TableState,
      text: string,
      options: Readonly<Record<string, OptionValue>> = {},
      policy: ThresholdPolicy = MONTROSE_POLICY,
    ): Verdict | undefined {
      const t = text.trim();
      const bs = board(state, options, policy);
      const v = answerOn(bs, t);
      return v ? withDoubts(bs, v, (b) => answerOn(b, t)) : undefined;
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
