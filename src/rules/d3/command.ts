import type { Commander } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { failingReasons } from '../engine/composite.ts';
import { pick } from '../engine/options.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { pointToUnit } from '../unit-distance.ts';
import { d3Verdict, inStr, lengthVerdict, mmOf, troopOf, type D3Context } from './context.ts';
import { COMMANDER_EXCLUSION, COMMANDER_JOIN } from './tables.ts';

/** The friendly unit a commander has joined (his base centre within attachWithinIn of it), if any. */
export function joinedUnit(ctx: D3Context, k: Commander): TableUnit | undefined {
  const limit = mmOf(ctx.options.attachWithinIn);
  return ctx.state.units.find((u) => u.side === k.side && pointToUnit(k.head, 0, u.bases).distance <= limit);
}

/** An unattached commander must stay at least 12" from every enemy unit. */
export function commanderPoseVerdict(ctx: D3Context, k: Commander, attached?: boolean): Verdict {
  const joined = attached ?? joinedUnit(ctx, k) !== undefined;
  const asked = `may ${k.name} stand where he is?`;
  if (joined)
    return d3Verdict({
      question: 'commanderPose',
      asked,
      answer: 'yes',
      reasons: [`${k.name} has joined a unit`],
    });
  let best: { e: TableUnit; s: ReturnType<typeof pointToUnit> } | undefined;
  for (const e of ctx.state.units.filter((u) => u.side !== k.side)) {
    const s = pointToUnit(k.head, k.sigmaMm, e.bases);
    if (!best || s.distance < best.s.distance) best = { e, s };
  }
  if (!best)
    return d3Verdict({ question: 'commanderPose', asked, answer: 'yes', reasons: ['no enemy on the table'] });
  return lengthVerdict(
    ctx,
    {
      question: 'commanderPose',
      asked,
      reasons: [
        `${best.e.name} is ${inStr(best.s.distance)} from ${k.name}; an unattached commander must stay ${COMMANDER_EXCLUSION}" from every enemy unit`,
      ],
      options: pick(ctx.options, 'attachWithinIn'),
    },
    { mm: best.s.distance, sigmaMm: best.s.sigmaMm, from: best.s.onA, to: best.s.onB },
    'atLeast',
    COMMANDER_EXCLUSION,
  );
}

/** A commander may join (and rally) an infantry, Highlander or cavalry unit within 12". */
export function joinVerdict(ctx: D3Context, k: Commander, unit: TableUnit): Verdict {
  const t = troopOf(unit);
  const ok = unit.side === k.side && ['infantry', 'highlander', 'cavalry'].includes(t);
  const s = pointToUnit(k.head, k.sigmaMm, unit.bases);
  const kind = d3Verdict({
    question: 'joinable',
    asked: `may ${k.name} rally ${unit.name}?`,
    answer: ok ? 'yes' : 'no',
    reasons: [
      ok
        ? `${unit.name} may be rallied`
        : unit.side !== k.side
          ? `${unit.name} is an enemy`
          : `commanders rally infantry, Highlanders and cavalry only (${unit.name} is ${t})`,
    ],
  });
  const dist = lengthVerdict(
    ctx,
    {
      question: 'joinRange',
      asked: `is ${unit.name} within ${COMMANDER_JOIN}" of ${k.name}?`,
      reasons: [`${inStr(s.distance)} from ${k.name} to ${unit.name}`],
    },
    { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB },
    'atMost',
    COMMANDER_JOIN,
  );
  const { answer, lean } = allOf([kind, dist]);
  return d3Verdict({
    ...dist,
    question: 'join',
    asked: `can ${k.name} join and rally ${unit.name}?`,
    answer,
    lean,
    reasons:
      answer === 'no'
        ? failingReasons([kind, dist])
        : [...dist.reasons, 'joining halves its hits (rounded up), once per unit per game'],
    checks: [kind, dist],
  });
}

/** Enemy units a commander is too close to (for UIs listing them). */
export const enemiesWithinExclusion = (ctx: D3Context, k: Commander): TableUnit[] =>
  ctx.state.units.filter(
    (u) => u.side !== k.side && pointToUnit(k.head, 0, u.bases).distance < mmOf(COMMANDER_EXCLUSION),
  );
