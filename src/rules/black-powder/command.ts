import type { Vec2 } from '../../geometry/vec.ts';
import type { Commander } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { pointName } from '../engine/parts.ts';
import {
  BP,
  bpVerdict,
  inches,
  inStr,
  lengthVerdict,
  thresholdVerdict,
  type BpContext,
  poss,
} from './context.ts';
import { pointToUnit, unitSeparation } from '../unit-distance.ts';
import { enemyWithin12Verdict } from './proximity.ts';
import { BRIGADE_SPREAD, COMMAND_STEP, STAFF_MAX, STAFF_MIN } from './tables.ts';
import type { Verdict } from '../engine/verdict.ts';

/** Command distance penalty for a distance in inches (option commandDistance decides exact multiples of 12"). */
export function commandPenalty(distanceIn: number, reading: 'moreThan12' | 'eachFull12'): number {
  const full = Math.floor(distanceIn / COMMAND_STEP + 1e-9);
  if (reading === 'eachFull12') return full;
  return distanceIn > COMMAND_STEP + 1e-9 ? full : 0;
}

/** Staff rating after modifiers, clamped to 5…10. */
export const effectiveStaff = (rating: number, modifier: number): number =>
  Math.max(STAFF_MIN, Math.min(STAFF_MAX, rating + modifier));

/**
 * "Can commander K order these units?": the distance penalty (to the closest point of one unit;
 * for a brigade order, of the farthest unit), −1 if an enemy is within 12" of any of them, column
 * bonuses, and the resulting staff rating. Marauders ignore distance.
 */
export function orderVerdict(
  ctx: BpContext,
  k: Commander,
  units: readonly TableUnit[],
  marauders = false,
): Verdict {
  const names = units.map((u) => u.name).join(', ');
  const asked = `can ${k.name} order ${names}?`;
  const problems: string[] = [];
  for (const u of units) {
    if (u.side !== k.side) problems.push(`${u.name} is not on ${poss(k.name)} side`);
    else if (!k.general && k.brigade && u.brigade && u.brigade !== k.brigade)
      problems.push(
        `${u.name} is not in ${poss(k.name)} brigade (only the commander-in-chief orders across brigades)`,
      );
  }
  let far: { u: TableUnit; mm: number; sigmaMm: number; from: Vec2; to: Vec2 } | undefined;
  for (const u of units) {
    const s = pointToUnit(k.head, k.sigmaMm, u.bases);
    if (!far || s.distance > far.mm) far = { u, mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
  }
  const dIn = far ? inches(far.mm) : 0;
  const distance = marauders ? 0 : -commandPenalty(dIn, ctx.options.commandDistance);
  // The penalty steps at every 12": the step nearest the distance, as a check of its own.
  const step = Math.max(COMMAND_STEP, Math.round(dIn / COMMAND_STEP) * COMMAND_STEP);
  const strictFirst = ctx.options.commandDistance === 'moreThan12' && step === COMMAND_STEP;
  const nearStep =
    far && !marauders
      ? lengthVerdict(
          ctx,
          {
            question: 'commandStep',
            asked: `is ${far.u.name} ${strictFirst ? 'more than' : 'at least'} ${step}" from ${k.name}?`,
            role: 'modifier',
            reasons: [
              `${inStr(far.mm)} from ${poss(k.name)} head to ${pointName(far.u, far.to)}; the penalty steps at ${step}"`,
            ],
            options: { commandDistance: ctx.options.commandDistance },
          },
          {
            mm: far.mm,
            sigmaMm: far.sigmaMm,
            from: far.from,
            to: far.to,
            fromName: `${poss(k.name)} head`,
            toName: pointName(far.u, far.to),
          },
          strictFirst ? 'moreThan' : 'atLeast',
          step,
        )
      : undefined;
  const enemyChecks = units.map((u) => ({ ...enemyWithin12Verdict(ctx, u), role: 'modifier' as const }));
  const enemyClose = enemyChecks.some((c) => c.lean === 'yes') ? -1 : 0;
  const allIn = (...fs: string[]) => units.every((u) => fs.includes(u.formationInUse));
  let column = 0;
  if (allIn('marchColumn', 'limbered')) column = 1;
  else if (allIn('attackColumn', 'marchColumn', 'limbered')) column = 1;
  const total = distance + enemyClose + column;
  const rating = k.staffRating ?? 8;
  const staff = effectiveStaff(rating, total);
  const reasons = [
    far
      ? `${inStr(far.mm)} from ${k.name} to ${units.length > 1 ? `the farthest unit, ${far.u.name}` : far.u.name}: ${distance === 0 ? 'no distance penalty' : `${distance}`}${marauders ? ' (marauders ignore distance)' : ''}`
      : '',
    enemyClose
      ? `−1: an enemy is within 12" (${enemyChecks.find((c) => c.lean === 'yes')?.reasons[0] ?? ''})`
      : 'no enemy within 12"',
    column ? '+1: all in column' : '',
    `staff rating ${rating} → ${staff} (never below ${STAFF_MIN} nor above ${STAFF_MAX})`,
    ...problems,
  ].filter(Boolean);
  return bpVerdict({
    question: 'command',
    asked,
    answer: problems.length
      ? 'no'
      : nearStep?.answer === 'borderline' || enemyChecks.some((c) => c.answer === 'borderline')
        ? 'borderline'
        : 'yes',
    lean: problems.length ? 'no' : 'yes',
    value: dIn,
    unit: 'in',
    ...(far ? { between: [far.from, far.to] as const } : {}),
    reasons,
    options: { commandDistance: ctx.options.commandDistance },
    facts: {
      distancePenalty: distance,
      enemyClose,
      columnBonus: column,
      modifier: total,
      staffRating: rating,
      effectiveStaff: staff,
    },
    checks: [...(nearStep ? [nearStep] : []), ...enemyChecks],
  });
}

/**
 * Brigade order cohesion: no unit more than 6" from the group. Chain reading: the units form one
 * connected cluster with links ≤ 6"; pairwise: every pair ≤ 6".
 */
export function brigadeCohesionVerdict(ctx: BpContext, units: readonly TableUnit[]): Verdict {
  const n = units.length;
  const d: number[][] = units.map(() => units.map(() => 0));
  const sig: number[][] = units.map(() => units.map(() => 0));
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const s = unitSeparation((units[i] as TableUnit).bases, (units[j] as TableUnit).bases);
      (d[i] as number[])[j] = (d[j] as number[])[i] = inches(s.distance);
      (sig[i] as number[])[j] = (sig[j] as number[])[i] = inches(s.sigmaMm);
    }
  const asked = `do ${units.map((u) => u.name).join(', ')} hold together for a brigade order?`;
  let value: number;
  if (ctx.options.brigadeCohesion === 'pairwise') {
    value = 0;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) value = Math.max(value, (d[i] as number[])[j] as number);
  } else {
    // Minimum spanning tree (Prim): the longest link needed to join everyone.
    const inTree = new Set<number>([0]);
    value = 0;
    while (inTree.size < n) {
      let best = Infinity;
      let pick = -1;
      for (const i of inTree)
        for (let j = 0; j < n; j++)
          if (!inTree.has(j) && ((d[i] as number[])[j] as number) < best) {
            best = (d[i] as number[])[j] as number;
            pick = j;
          }
      inTree.add(pick);
      value = Math.max(value, best);
    }
  }
  const sigma = Math.max(0, ...sig.flat());
  if (n < 2)
    return bpVerdict({
      question: 'brigadeCohesion',
      asked,
      answer: 'yes',
      reasons: ['a single unit holds together'],
    });
  return thresholdVerdict(
    ctx,
    {
      question: 'brigadeCohesion',
      asked,
      reasons: [
        ctx.options.brigadeCohesion === 'pairwise'
          ? `the widest pair is ${value.toFixed(2)} in apart; no more than ${BRIGADE_SPREAD}" is allowed`
          : `the longest link needed to join the group is ${value.toFixed(2)} in; no more than ${BRIGADE_SPREAD}" is allowed`,
      ],
      options: { brigadeCohesion: ctx.options.brigadeCohesion },
    },
    BP.length(value, sigma),
    'atMost',
    BRIGADE_SPREAD,
  );
}

/** Follow Me / Rally: the unit must be within 12" of the commander (Rally: and have 2+ casualties). */
export function withinCommanderReach(
  ctx: BpContext,
  k: Commander,
  u: TableUnit,
  what: 'follow me' | 'rally',
): Verdict {
  const s = pointToUnit(k.head, k.sigmaMm, u.bases);
  return lengthVerdict(
    ctx,
    {
      question: what === 'rally' ? 'rally' : 'followMe',
      asked: `can ${k.name} ${what === 'rally' ? 'rally' : 'lead ("Follow Me")'} ${u.name}?`,
      reasons: [
        `${inStr(s.distance)} from ${poss(k.name)} head to ${pointName(u, s.onB)}; the limit is ${COMMAND_STEP}"`,
      ],
    },
    {
      mm: s.distance,
      sigmaMm: s.sigmaMm,
      from: s.onA,
      to: s.onB,
      fromName: `${poss(k.name)} head`,
      toName: pointName(u, s.onB),
    },
    'atMost',
    COMMAND_STEP,
  );
}
