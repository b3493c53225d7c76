import { mapDistance, groundDistance, spaceLabel, type Space } from '../../board/board-map.ts';
import type { Verdict } from '../engine/verdict.ts';
import { isCombat, isWinter, monVerdict, stackIn, type BoardState, type PlacedCounter } from './state.ts';
import { DISBAND_KNOWN, ENGLAND_WIN_UNITS, FORCE_MARCH_DRM, type Side } from './tables.ts';

/**
 * Winter: at the end of its own player turn every unit of `side` must be in a named space (a
 * Burgh or a named Open space); combat units elsewhere go to the off-map pool and leaders are
 * eliminated (optional 18.8 spares leaders).
 */
export function winterEndVerdict(board: BoardState, side: Side): Verdict {
  const asked = `are all ${side} units in named spaces for winter?`;
  if (!isWinter(board))
    return monVerdict({
      question: 'winter',
      asked,
      answer: 'yes',
      reasons: [`turn ${board.options.turn} is not a winter turn`],
      options: { turn: board.options.turn },
    });
  const out: PlacedCounter[] = [];
  const lost: string[] = [];
  for (const p of board.counters.filter((x) => x.counter.side === side)) {
    if (p.snap.status !== 'placed' || p.snap.space.named) continue;
    if (p.counter.kind === 'leader' && board.options.leadersExemptInWinter188) continue;
    out.push(p);
    lost.push(
      `${p.counter.name} in ${spaceLabel(p.snap.space)}: ${isCombat(p.counter) ? 'removed to the off-map pool' : 'eliminated'}`,
    );
  }
  return monVerdict({
    question: 'winter',
    asked,
    answer: out.length ? 'no' : 'yes',
    reasons: out.length ? lost : ['every unit stands in a named space'],
    options: { turn: board.options.turn, leadersExemptInWinter188: board.options.leadersExemptInWinter188 },
    facts: {
      removedToPool: out
        .filter((p) => isCombat(p.counter))
        .map((p) => p.counter.name)
        .join(', '),
      eliminated: out
        .filter((p) => !isCombat(p.counter))
        .map((p) => p.counter.name)
        .join(', '),
    },
  });
}

/** Royalist win at the end of a game turn: a space in England holding Montrose and at least four Royalist Lowland and/or cavalry units. */
export function englandWinVerdict(board: BoardState): Verdict {
  const english = board.map.spaces.filter((s) => s.region === 'england');
  let best: { s: Space; n: number; montrose: boolean } | undefined;
  for (const s of english) {
    const stack = stackIn(board, s.id).filter((p) => p.counter.side === 'royalist');
    const montrose = stack.some((p) => p.counter.kind === 'leader' && /montrose/i.test(p.counter.name));
    const n = stack.filter((p) => p.counter.kind === 'lowland' || p.counter.kind === 'cavalry').length;
    if (!best || (montrose ? n + 100 : n) > (best.montrose ? best.n + 100 : best.n))
      best = { s, n, montrose };
  }
  const ok = !!best && best.montrose && best.n >= ENGLAND_WIN_UNITS;
  return monVerdict({
    question: 'englandWin',
    asked: 'has the Royalist won by reaching England?',
    answer: ok ? 'yes' : 'no',
    value: best?.n ?? 0,
    limit: ENGLAND_WIN_UNITS,
    margin: (best?.n ?? 0) - ENGLAND_WIN_UNITS,
    reasons: [
      !best
        ? 'the map has no space in England'
        : `${spaceLabel(best.s)}: ${best.montrose ? 'Montrose' : 'no Montrose'} with ${best.n} Royalist Lowland/cavalry unit${best.n === 1 ? '' : 's'}; the win needs Montrose and ${ENGLAND_WIN_UNITS}`,
    ],
  });
}

/** Force March disband rolls: each die at −2; the outcome where the text shows it (the table itself is on the map). */
export function forceMarchDisband(rolls: readonly number[]): { modified: number[]; disbanded?: number } {
  const modified = rolls.map((r) => r + FORCE_MARCH_DRM);
  const outcomes = modified.map((m) => DISBAND_KNOWN.get(m));
  return outcomes.every((o) => o !== undefined)
    ? { modified, disbanded: outcomes.reduce<number>((s, o) => s + (o as number), 0) }
    : { modified };
}

/** Straight-line distance between two spaces, in map inches and on the ground. */
export function spaceDistanceVerdict(board: BoardState, a: Space, b: Space): Verdict {
  const d = mapDistance(a, b);
  const g = groundDistance(board.map, d, board.options.distanceFrom);
  return monVerdict({
    question: 'distance',
    asked: `distance between ${spaceLabel(a)} and ${spaceLabel(b)}`,
    answer: 'yes',
    value: d,
    unit: 'in',
    reasons: [
      `${d.toFixed(2)} map inches ≈ ${g.miles.toFixed(1)} miles ≈ ${g.km.toFixed(1)} km as the crow flies (movement counts routes, not distance)`,
    ],
    options: { distanceFrom: board.options.distanceFrom },
    facts: { miles: g.miles, km: g.km },
  });
}
