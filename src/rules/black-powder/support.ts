import type { QuarterName } from '../../geometry/quarters.ts';
import { friendsOf } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { pick } from '../engine/options.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { unitSeparation } from '../unit-distance.ts';
import { contactsOf, engagedFaces } from './contacts.ts';
import { bpVerdict, isSkirmish, lengthVerdict, type BpContext, poss } from './context.ts';
import { bpQuarterOfPoint, unitShareInQuarter } from './quarters.ts';
import { inBuilding } from './shooting.ts';
import { SUPPORT_DISTANCE } from './tables.ts';

/** Which flank/rear quarter of the engaged unit the supporter lies in (option supportPoint). */
function supportQuarter(ctx: BpContext, f: TableUnit, e: TableUnit): QuarterName | undefined {
  const opt = ctx.options.supportPoint;
  if (opt === 'leader') {
    const q = bpQuarterOfPoint(ctx, e, f.leader).quarter;
    return q === 'inside' ? undefined : q;
  }
  const shares = (['left', 'right', 'rear'] as const).map(
    (q) => [q, unitShareInQuarter(ctx, f, e, q)] as const,
  );
  const best = shares.reduce((a, b) => (b[1] > a[1] ? b : a));
  if (opt === 'majority') return best[1] > 0.5 ? best[0] : undefined;
  return best[1] > 0 ? best[0] : undefined;
}

/** Is the unit in a fight: flagged engaged in the scenario, or touching an enemy on the table? */
export const isEngaged = (ctx: BpContext, u: TableUnit): boolean =>
  u.engaged === true || engagedFaces(ctx, u).length > 0;

/**
 * The flanks of E that are not outer flanks of its fight: faces touched by a friend that is
 * itself engaged (units fighting side by side are supported only on the outside).
 */
function innerFlanks(ctx: BpContext, e: TableUnit): Set<QuarterName> {
  const friends = friendsOf(ctx.state, e).filter((u) => isEngaged(ctx, u));
  return new Set(
    contactsOf(ctx, e, friends)
      .map((c) => c.face)
      .filter((f) => f === 'left' || f === 'right'),
  );
}

/**
 * "Does F support E?": F is a friend, not engaged, not in march column or limbered, within 6" of
 * E, and lies in E's flank or rear quarter; E itself may be supported (not artillery, skirmishers,
 * a square, in a building, or fighting to its flank or rear, found from the enemies touching its
 * faces); a flank shared with a friend fighting alongside is not an outer flank.
 */
export function supportVerdict(ctx: BpContext, f: TableUnit, e: TableUnit): Verdict {
  const problems: string[] = [];
  if (f.side !== e.side) problems.push(`${f.name} is not a friend of ${e.name}`);
  if (isEngaged(ctx, f)) problems.push(`${f.name} is itself engaged`);
  const eFaces = engagedFaces(ctx, e).filter((face) => face !== 'front');
  if (eFaces.length > 0)
    problems.push(`${e.name} is fighting to its ${eFaces.join(' and ')} and cannot be supported`);
  if (f.formationInUse === 'marchColumn' || f.formationInUse === 'limbered')
    problems.push(
      `${f.name} is in ${f.formationInUse === 'limbered' ? 'limber' : 'march column'} and cannot support`,
    );
  if (e.type === 'artillery') problems.push('artillery is never supported');
  if (isSkirmish(e)) problems.push('skirmishers are never supported');
  if (e.formationInUse === 'square') problems.push('squares are never supported');
  const b = inBuilding(ctx, e);
  if (b) problems.push(`${e.name} is in ${b} and cannot be supported`);
  const eligible = bpVerdict({
    question: 'supportEligible',
    asked: `may ${f.name} support ${e.name}?`,
    answer: problems.length ? 'no' : 'yes',
    reasons: problems.length ? problems : ['both are eligible'],
  });
  const s = unitSeparation(f.bases, e.bases);
  const dist = lengthVerdict(
    ctx,
    { question: 'supportDistance', asked: `is ${f.name} within 6" of ${e.name}?`, reasons: [] },
    { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB },
    'atMost',
    SUPPORT_DISTANCE,
  );
  const q = supportQuarter(ctx, f, e);
  const inner = q !== undefined && innerFlanks(ctx, e).has(q);
  const quarter = bpVerdict({
    question: 'supportQuarter',
    asked: `is ${f.name} in ${poss(e.name)} flank or rear quarter?`,
    answer: q && q !== 'front' && !inner ? 'yes' : 'no',
    reasons: [
      q
        ? `${f.name} is in ${poss(e.name)} ${q} quarter${inner ? `, but a friend fights alongside on that flank (only outer flanks are supported)` : ''}`
        : `${f.name} is not in a flank or rear quarter of ${e.name}`,
    ],
    options: pick(ctx.options, 'supportPoint', 'quarterReading'),
    facts: { quarter: q ?? 'none' },
  });
  const checks = [eligible, dist, quarter];
  const { answer, lean } = allOf(checks);
  const bonus =
    q === 'rear' ? '+1 rear support' : q === 'left' || q === 'right' ? `+1 ${q} flank support` : '';
  return bpVerdict({
    question: 'support',
    asked: `does ${f.name} support ${e.name}?`,
    answer,
    lean,
    ...measuredBy(dist),
    reasons: [
      `${(dist.value as number).toFixed(2)} in apart; ${quarter.reasons[0]}`,
      ...(answer === 'yes' ? [bonus] : failingReasons(checks, 'notYes')),
    ],
    options: pick(ctx.options, 'supportPoint', 'quarterReading'),
    facts: { quarter: q ?? 'none' },
    checks,
  });
}
