import { findSpace, routeBetween, spaceLabel, type Space } from '../../board/board-map.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { regionBar } from './movement.ts';
import { enemyCombatIn, monVerdict, spaceOfCounter, type BoardState, type PlacedCounter } from './state.ts';

/** Why a retreat (or displacement) into `to` is barred, if it is. */
function barredInto(
  board: BoardState,
  placed: PlacedCounter,
  from: Space,
  to: Space,
  forDisplacement: boolean,
): string[] {
  const c = placed.counter;
  const reasons: string[] = [];
  if (!routeBetween(board.map, from.id, to.id))
    reasons.push(`${spaceLabel(to)} does not adjoin ${spaceLabel(from)}`);
  const enemies = enemyCombatIn(board, to.id, c.side);
  if (enemies.length)
    reasons.push(
      `${spaceLabel(to)} holds enemy combat units (${enemies.map((e) => e.counter.name).join(', ')})${forDisplacement ? ': a displaced leader may not go there' : ''}`,
    );
  const bar = regionBar(board, c, to);
  if (bar) reasons.push(bar);
  return reasons;
}

/** Adjoining spaces a losing unit may retreat into (none: it is eliminated). */
export function retreatTargets(
  board: BoardState,
  placed: PlacedCounter,
  from: Space | undefined = spaceOfCounter(placed),
): Space[] {
  if (!from) return [];
  return (board.map.adjacency.get(from.id) ?? [])
    .map((n) => board.map.byId.get(n.to) as Space)
    .filter((s) => barredInto(board, placed, from, s, false).length === 0);
}

/**
 * Retreat after a lost battle: into an adjoining space free of enemy combat units (enemy leaders
 * alone do not bar it, nor does the space the attacker marched from once its combat units have
 * left); the Irish and Royalist Highlanders keep the frontier limits. No such space: eliminated.
 */
export function retreatVerdict(
  board: BoardState,
  placed: PlacedCounter,
  toRef: string,
  fromRef?: string,
): Verdict {
  const from = fromRef ? findSpace(board.map, fromRef) : spaceOfCounter(placed);
  const to = findSpace(board.map, toRef);
  const c = placed.counter;
  if (!from)
    return monVerdict({
      question: 'retreat',
      asked: `can ${c.name} retreat to ${spaceLabel(to)}?`,
      answer: 'borderline',
      lean: 'no',
      reasons: [`${c.name} is not clearly on a space`],
    });
  const bars = barredInto(board, placed, from, to, false);
  const options = retreatTargets(board, placed, from);
  return monVerdict({
    question: 'retreat',
    asked: `can ${c.name} retreat from ${spaceLabel(from)} to ${spaceLabel(to)}?`,
    answer: bars.length ? 'no' : 'yes',
    reasons: [
      ...(bars.length
        ? bars
        : [`${spaceLabel(to)} adjoins ${spaceLabel(from)} and holds no enemy combat units`]),
      options.length
        ? `legal retreats: ${options.map(spaceLabel).join(', ')}`
        : `no legal retreat: ${c.name} would be eliminated`,
    ],
    options: {
      defeatedBurghs: board.options.defeatedBurghs,
      highlandersIntoEngland182: board.options.highlandersIntoEngland182,
    },
    facts: { legalRetreats: options.map((s) => s.id).join(', '), eliminatedIfNone: options.length === 0 },
  });
}

/**
 * Displacement: enemy combat units entering a space held only by leaders push the leaders to an
 * adjoining space free of the displacing side's combat units; with none, they are eliminated.
 */
export function displaceVerdict(board: BoardState, placed: PlacedCounter, toRef: string): Verdict {
  const c = placed.counter;
  const from = spaceOfCounter(placed);
  const to = findSpace(board.map, toRef);
  const checks: Verdict[] = [
    monVerdict({
      question: 'isLeader',
      asked: `is ${c.name} a leader?`,
      answer: c.kind === 'leader' ? 'yes' : 'no',
      reasons: [
        c.kind === 'leader' ? `${c.name} is a leader` : 'only leaders are displaced; combat units fight',
      ],
    }),
  ];
  if (!from)
    checks.push(
      monVerdict({
        question: 'placed',
        asked: `is ${c.name} on a space?`,
        answer: 'borderline',
        lean: 'no',
        reasons: [`${c.name} is not clearly on a space`],
      }),
    );
  else {
    const bars = [
      ...(routeBetween(board.map, from.id, to.id)
        ? []
        : [`${spaceLabel(to)} does not adjoin ${spaceLabel(from)}`]),
      ...(enemyCombatIn(board, to.id, c.side).length
        ? [`${spaceLabel(to)} holds the displacing side's combat units`]
        : []),
    ];
    checks.push(
      monVerdict({
        question: 'displaceInto',
        asked: `may ${c.name} be displaced into ${spaceLabel(to)}?`,
        answer: bars.length ? 'no' : 'yes',
        reasons: bars.length ? bars : [`${spaceLabel(to)} adjoins and is free of enemy combat units`],
      }),
    );
  }
  const { answer, lean } = allOf(checks);
  return monVerdict({
    question: 'displace',
    asked: `can ${c.name} be displaced to ${spaceLabel(to)}?`,
    answer,
    lean,
    reasons: checks
      .filter((x) => x.answer !== 'yes')
      .flatMap((x) => x.reasons)
      .concat(answer === 'yes' ? (checks[1]?.reasons ?? []) : []),
    checks,
  });
}
