import { possessive } from '../engine/measure.ts';
import { findSpace, routeBetween, spaceLabel, type Space } from '../../board/board-map.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import {
  enemyCombatIn,
  friendlyCombatIn,
  isCombat,
  isWinter,
  monVerdict,
  spaceOfCounter,
  placeInDoubt,
  stackIn,
  type BoardState,
  type Counter,
  type PlacedCounter,
} from './state.ts';
import { combatPresence, triAnd, triNot, triOr, type Tri } from './presence.ts';
import { GATE_BURGHS } from './tables.ts';

/** Movement points of one route. */
export const routeCost = (board: BoardState, kind: 'land' | 'mountain'): number =>
  kind === 'land' ? board.options.landCost : board.options.mountainCost;

/**
 * Why the counter may not enter a space because of the frontiers, if it may not: Irish and
 * Royalist Highlanders stay north of the Royalist Limit until both Inveraray and Inverlochy have
 * fallen; Irish and all Highlanders never enter England (unless optional 18.2).
 */
export function regionBar(board: BoardState, c: Counter, s: Space): string | undefined {
  const clansmen = c.kind === 'irish' || c.kind === 'highland';
  if (clansmen && s.region === 'england' && !board.options.highlandersIntoEngland182)
    return `${c.kind === 'irish' ? 'the Irish' : 'Highlanders'} may never enter England (${spaceLabel(s)})`;
  const royalistClansmen = c.kind === 'irish' || (c.kind === 'highland' && c.side === 'royalist');
  if (royalistClansmen && (s.region === 'southernLowlands' || s.region === 'england')) {
    const missing = GATE_BURGHS.filter((b) => !board.defeatedBurghs.has(b));
    if (missing.length > 0)
      return `${c.kind === 'irish' ? 'the Irish' : 'Royalist Highlanders'} may not go south of the Royalist Limit (${spaceLabel(s)}) until both Inveraray and Inverlochy are defeated (not yet: ${missing.map((m) => spaceLabel(board.map.byId.get(m) as Space)).join(', ')})`;
  }
  return undefined;
}

/** Allowance this March Phase, MP, with the optional leader bonus (which assumes the unit stays with the leader). */
export function allowance(board: BoardState, placed: PlacedCounter): { mp: number; why: string[] } {
  const c = placed.counter;
  const why = [`${possessive(c.name)} movement allowance is ${c.movement}`];
  let mp = c.movement;
  const start = spaceOfCounter(placed);
  if (board.options.leaderBonus189a && isCombat(c) && start) {
    const leader = stackIn(board, start.id).find(
      (x) => x.counter.side === c.side && x.counter.kind === 'leader',
    );
    if (leader) {
      const bonus = board.options.forceMarch ? 2 : 1;
      mp += bonus;
      why.push(
        `+${bonus} for starting stacked with ${leader.counter.name} (optional 18.9a; it must stay with him all March Phase)`,
      );
    }
  }
  return { mp, why };
}

/** Resolves a path given as space names: the counter's own space first is optional. */
export function resolvePath(board: BoardState, placed: PlacedCounter, refs: readonly string[]): Space[] {
  const spaces = refs.map((r) => findSpace(board.map, r));
  const start = spaceOfCounter(placed);
  if (start && spaces[0]?.id !== start.id) spaces.unshift(start);
  return spaces;
}

/**
 * The cheapest path from the counter's space to `to` that a move could legally follow: along
 * routes, never through (only into) a space holding enemy combat units, never into a barred region.
 */
export function cheapestPath(board: BoardState, placed: PlacedCounter, to: Space): Space[] | undefined {
  const start = spaceOfCounter(placed);
  if (!start) return undefined;
  const c = placed.counter;
  const dist = new Map<string, number>([[start.id, 0]]);
  const prev = new Map<string, string>();
  const open = new Set<string>([start.id]);
  while (open.size > 0) {
    let cur = '';
    let best = Infinity;
    for (const id of open) {
      const d = dist.get(id) ?? Infinity;
      if (d < best) {
        best = d;
        cur = id;
      }
    }
    open.delete(cur);
    if (cur === to.id) break;
    if (cur !== start.id && enemyCombatIn(board, cur, c.side).length > 0) continue; // entering ends the move
    for (const n of board.map.adjacency.get(cur) ?? []) {
      const s = board.map.byId.get(n.to) as Space;
      if (regionBar(board, c, s)) continue;
      const d = best + routeCost(board, n.kind);
      if (d < (dist.get(n.to) ?? Infinity)) {
        dist.set(n.to, d);
        prev.set(n.to, cur);
        open.add(n.to);
      }
    }
  }
  if (!dist.has(to.id)) return undefined;
  const path: Space[] = [to];
  let at = to.id;
  while (at !== start.id) {
    at = prev.get(at) as string;
    path.unshift(board.map.byId.get(at) as Space);
  }
  return path;
}

export interface MoveExtras {
  /** Other counters moving along with this one (a leader with his stack). */
  readonly companions?: readonly string[];
}

/**
 * "May this counter move along this path?" Routes only; total cost within the allowance (a Force
 * March card lets it go further at the price of a Disband roll at −2); movement stops on entering
 * a space with enemy combat units; leaders enter such spaces only with or to join friendly combat
 * units; inactive leaders never move; the frontier limits on the Irish and Highlanders; in winter
 * the move must end in a named space.
 */
export function moveVerdict(
  board: BoardState,
  placed: PlacedCounter,
  path: readonly Space[],
  extras: MoveExtras = {},
): Verdict {
  const c = placed.counter;
  const checks: Verdict[] = [];
  const dest = path[path.length - 1];
  const asked = `can ${c.name} move to ${dest ? spaceLabel(dest) : '?'}${path.length > 2 ? ` via ${path.slice(1, -1).map(spaceLabel).join(', ')}` : ''}?`;
  const start = spaceOfCounter(placed);
  checks.push(
    monVerdict({
      question: 'placed',
      asked: `is ${c.name} clearly on a space?`,
      answer: placeInDoubt(placed) ? 'borderline' : start ? 'yes' : 'no',
      lean: start ? 'yes' : 'no',
      reasons: [
        start
          ? `${c.name} is in ${spaceLabel(start)}`
          : `${possessive(c.name)} position is ${placed.snap.status}: ${'why' in placed.snap ? placed.snap.why : ''}; set it squarely on a space`,
      ],
    }),
  );
  if (c.inactive)
    checks.push(
      monVerdict({
        question: 'active',
        asked: `is ${c.name} active?`,
        answer: 'no',
        reasons: [`${c.name} is an inactive leader and may not move`],
      }),
    );
  let cost = 0;
  const legs: string[] = [];
  let broken: string | undefined;
  for (let i = 0; i + 1 < path.length; i++) {
    const a = path[i] as Space;
    const b = path[i + 1] as Space;
    const kind = routeBetween(board.map, a.id, b.id);
    if (!kind) {
      broken ??= `no route joins ${spaceLabel(a)} and ${spaceLabel(b)}`;
      continue;
    }
    cost += routeCost(board, kind);
    legs.push(`${spaceLabel(a)}–${spaceLabel(b)} ${kind} (${routeCost(board, kind)})`);
  }
  checks.push(
    monVerdict({
      question: 'routes',
      asked: 'does the path follow routes?',
      answer: broken || path.length < 2 ? 'no' : 'yes',
      reasons: [broken ?? (path.length < 2 ? 'the path goes nowhere' : legs.join(', '))],
    }),
  );
  const a = allowance(board, placed);
  const over = cost > a.mp;
  const forced = over && board.options.forceMarch;
  checks.push(
    monVerdict({
      question: 'allowance',
      asked: `is ${cost} MP within ${possessive(c.name)} allowance?`,
      answer: over && !forced ? 'no' : 'yes',
      value: cost,
      limit: a.mp,
      margin: cost - a.mp,
      unit: 'MP',
      reasons: [
        `the path costs ${cost} MP; ${a.why.join('; ')}`,
        ...(forced
          ? [
              `beyond its allowance under the Force March card: ${c.name} must roll on the Disband Table at −2`,
            ]
          : over
            ? ['a unit may never exceed its movement allowance (a Force March card would allow it)']
            : []),
      ],
      options: {
        forceMarch: board.options.forceMarch,
        leaderBonus189a: board.options.leaderBonus189a,
        landCost: board.options.landCost,
        mountainCost: board.options.mountainCost,
      },
      facts: { forceMarchDisband: forced },
    }),
  );
  const stops = path.slice(1, -1).filter((s) => enemyCombatIn(board, s.id, c.side).length > 0);
  // Whether an enemy counter stands on a space on the way may be too close to call.
  const stopsTri = path
    .slice(1, -1)
    .reduce<Tri>((t, s) => triOr(t, combatPresence(board, s.id, c.side, true)), 'no');
  checks.push(
    monVerdict({
      question: 'stopsOnEnemy',
      asked: 'does the path pass through enemy combat units?',
      answer: stops.length || stopsTri === 'yes' ? 'no' : stopsTri === 'maybe' ? 'borderline' : 'yes',
      lean: stops.length ? 'no' : 'yes',
      reasons: [
        stops.length
          ? `entering ${spaceLabel(stops[0] as Space)} (enemy combat units) ends the move there`
          : 'no enemy combat units before the last space',
        ...(!stops.length && stopsTri === 'maybe'
          ? ['whether an enemy counter stands on a space on the way is too close to call']
          : []),
      ],
    }),
  );
  if (c.kind === 'leader') {
    const companions = new Set(extras.companions ?? []);
    const escorted = board.counters.some(
      (x) => companions.has(x.counter.id) && x.counter.side === c.side && isCombat(x.counter),
    );
    const bad = path
      .slice(1)
      .filter(
        (s) =>
          enemyCombatIn(board, s.id, c.side).length > 0 &&
          !escorted &&
          friendlyCombatIn(board, s.id, c.side).length === 0,
      );
    const badTri: Tri = escorted
      ? 'no'
      : path
          .slice(1)
          .reduce<Tri>(
            (t, s) =>
              triOr(
                t,
                triAnd(
                  combatPresence(board, s.id, c.side, true),
                  triNot(combatPresence(board, s.id, c.side, false)),
                ),
              ),
            'no',
          );
    checks.push(
      monVerdict({
        question: 'leaderIntoEnemy',
        asked: `may ${c.name} enter those spaces?`,
        // The bare numbers (`bad`) lean; within a counter's band of a circle's edge it is too
        // close to call either way.
        answer: badTri === 'yes' ? 'no' : badTri === 'maybe' ? 'borderline' : 'yes',
        lean: bad.length ? 'no' : 'yes',
        reasons: [
          bad.length
            ? `a leader may not enter ${spaceLabel(bad[0] as Space)} (enemy combat units) unless with, or joining, friendly combat units`
            : 'no enemy combat units in the way of a lone leader',
          ...(badTri === 'maybe'
            ? ['whether enemy (or friendly) counters stand on a space on the way is too close to call']
            : []),
        ],
      }),
    );
  }
  const barred = path
    .slice(1)
    .map((s) => regionBar(board, c, s))
    .find(Boolean);
  checks.push(
    monVerdict({
      question: 'frontiers',
      asked: 'do the frontiers allow it?',
      answer: barred ? 'no' : 'yes',
      reasons: [barred ?? 'no frontier bars the way'],
      options: {
        highlandersIntoEngland182: board.options.highlandersIntoEngland182,
        defeatedBurghs: board.options.defeatedBurghs,
      },
    }),
  );
  if (isWinter(board) && dest && !dest.named) {
    const exempt = c.kind === 'leader' && board.options.leadersExemptInWinter188;
    if (!exempt)
      checks.push(
        monVerdict({
          question: 'winter',
          asked: `may ${c.name} end a winter turn in ${spaceLabel(dest)}?`,
          answer: 'no',
          reasons: [
            `winter (turn ${board.options.turn}): every unit must end its own player turn in a named space; ${c.kind === 'leader' ? 'a leader left there is eliminated' : 'a combat unit left there goes to the off-map pool'}`,
          ],
          options: {
            turn: board.options.turn,
            leadersExemptInWinter188: board.options.leadersExemptInWinter188,
          },
        }),
      );
  }
  const { answer, lean } = allOf(checks);
  return monVerdict({
    question: 'move',
    asked,
    answer,
    lean,
    value: cost,
    limit: a.mp,
    margin: cost - a.mp,
    unit: 'MP',
    reasons:
      answer === 'no' || answer === 'borderline'
        ? checks.filter((x) => x.answer !== 'yes').flatMap((x) => x.reasons)
        : [
            `${cost} MP of ${a.mp}: ${legs.join(', ')}`,
            ...(forced ? [`Force March: roll on the Disband Table at −2`] : []),
          ],
    options: { forceMarch: board.options.forceMarch },
    facts: { path: path.map((s) => s.id).join(' > '), cost, allowance: a.mp, forceMarchDisband: forced },
    checks,
  });
}

/** "Can X move to Y?" with no path given: judges the cheapest path a legal move could take (or says none exists). */
export function moveToVerdict(
  board: BoardState,
  placed: PlacedCounter,
  to: Space,
  via: readonly Space[] = [],
): Verdict {
  if (via.length > 0)
    return moveVerdict(board, placed, [
      ...(spaceOfCounter(placed) ? [spaceOfCounter(placed) as Space] : []),
      ...via,
      to,
    ]);
  const path = cheapestPath(board, placed, to);
  if (path) return moveVerdict(board, placed, path);
  // A counter between spaces may stand on either: nothing to say until it is set on one (as
  // moveVerdict's own "placed" check says).
  const unclear = !spaceOfCounter(placed) && placeInDoubt(placed);
  return monVerdict({
    question: 'move',
    asked: `can ${placed.counter.name} move to ${spaceLabel(to)}?`,
    answer: unclear ? 'borderline' : 'no',
    lean: 'no',
    reasons: [
      spaceOfCounter(placed)
        ? `no path of routes reaches ${spaceLabel(to)} without passing enemy combat units or crossing a barred frontier${regionBar(board, placed.counter, to) ? `: ${regionBar(board, placed.counter, to)}` : ''}`
        : `${placed.counter.name} is not clearly on a space${unclear && 'why' in placed.snap ? ` (${placed.snap.why}); set it squarely on one` : ''}`,
    ],
  });
}
