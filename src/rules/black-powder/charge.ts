import { segmentInsidePolygon } from '../../geometry/segment-clip.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { pick } from '../engine/options.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { pointToUnit, unitSeparation } from '../unit-distance.ts';
import {
  bpVerdict,
  inStr,
  isSkirmish,
  lengthVerdict,
  moveOf,
  type BpContext,
  type Measured,
  poss,
} from './context.ts';
import { bpQuarterOfPoint } from './quarters.ts';
import { inBuilding } from './shooting.ts';
import { visibleShare } from './sight.ts';
import { CAVALRY_SQUARE_HALT, OBSTACLE_COST } from './tables.ts';

/** Distance a charge is measured over: from the charger's leader base (option rangeFrom) to the target. */
export function chargeDistance(ctx: BpContext, charger: TableUnit, target: TableUnit): Measured {
  const mode = ctx.options.rangeFrom;
  if (mode === 'leaderPoint') {
    const s = pointToUnit(charger.leader, charger.sigmaMm, target.body);
    return { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
  }
  const s = unitSeparation(mode === 'leaderBase' ? [charger.leaderBase] : charger.body, target.body);
  return { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
}

/** The obstacle (hedge, wall…) the charge line crosses, if any. */
export function obstacleOnLine(ctx: BpContext, a: Vec2, b: Vec2): string | undefined {
  return ctx.state.terrain.find(
    (t) => t.kind === 'obstacle' && t.polygon && segmentInsidePolygon(a, b, t.polygon).length > 0,
  )?.label;
}

/** Which face of the target a charge strikes: the target quarter holding the charger's leader at the start of the turn. */
export function chargeFaceVerdict(ctx: BpContext, charger: TableUnit, target: TableUnit): Verdict {
  const from =
    ctx.options.chargeFaceFrom === 'turnStart' && charger.leaderAtTurnStart
      ? charger.leaderAtTurnStart
      : charger.leader;
  const q = bpQuarterOfPoint(ctx, target, from);
  const eps = Math.max(
    ctx.policy.floor,
    ctx.policy.sigmas * (Math.hypot(charger.sigmaMm, target.sigmaMm) / 25.4),
  );
  const distIn = q.rayDistance / 25.4;
  const close = eps > 0 && distIn < eps && !q.allRoundFront;
  const exactlyOn = q.onBoundary || distIn < 1e-9;
  const face = q.quarter === 'inside' ? 'front' : q.quarter;
  const when =
    ctx.options.chargeFaceFrom === 'turnStart' && charger.leaderAtTurnStart
      ? 'at the start of the turn'
      : 'now';
  return bpVerdict({
    question: 'chargeFace',
    asked: `which face of ${target.name} does ${charger.name} charge?`,
    answer: close || exactlyOn ? 'borderline' : 'yes',
    value: distIn,
    unit: 'in',
    reasons: [
      q.allRoundFront
        ? `${target.name} has no flanks or rear: every face is a front`
        : exactlyOn
          ? `${poss(charger.name)} leader stands on the line between ${poss(target.name)} ${face} and ${q.across} quarters: roll a D6 (1–3 ${face}, 4–6 ${q.across})`
          : `${poss(charger.name)} leader ${when} is in ${poss(target.name)} ${face} quarter${close ? ` (only ${distIn.toFixed(2)} in from the ${q.across} quarter: too close to call)` : ''}`,
    ],
    options: pick(ctx.options, 'quarterReading', 'chargeFaceFrom'),
    facts: { face, across: q.across, leaderX: from.x, leaderY: from.y },
  });
}

/**
 * "Can C charge T?": the charger may charge at all, its leader sees the target, and its leader
 * base is within one move of the nearest part of the enemy (6" less when the enemy is behind an
 * obstacle or in a building). Cavalry may not contact an unshaken, ordered square.
 */
export function chargeVerdict(ctx: BpContext, charger: TableUnit, target: TableUnit): Verdict {
  const C = charger.name;
  const T = target.name;
  const checks: Verdict[] = [];
  const forbidden: string[] = [];
  if (charger.side === target.side) forbidden.push(`${T} is a friend`);
  if (charger.shaken) forbidden.push(`${C} is shaken`);
  if (charger.formationInUse === 'marchColumn') forbidden.push(`${C} is in march column`);
  if (charger.type === 'artillery') forbidden.push('artillery never charges');
  if (charger.formationInUse === 'square') forbidden.push(`${C} is in square`);
  const face = chargeFaceVerdict(ctx, charger, target);
  if (isSkirmish(charger)) {
    const formed =
      ['line', 'attackColumn', 'warband', 'mixed', 'square'].includes(target.formationInUse) &&
      target.type !== 'artillery';
    const engagedFlank = target.engaged && face.facts.face !== 'front';
    if (formed && !engagedFlank)
      forbidden.push(
        `skirmishers may not charge a formed ${target.formationInUse} (only its flank or rear when it is already engaged to its front)`,
      );
  }
  checks.push(
    bpVerdict({
      question: 'mayCharge',
      asked: `may ${C} charge ${T}?`,
      answer: forbidden.length ? 'no' : 'yes',
      reasons: forbidden.length ? forbidden : [`${C} may charge`],
    }),
  );

  const seen = visibleShare(ctx, charger.leader, charger, target);
  checks.push(
    bpVerdict({
      question: 'visible',
      asked: `can ${poss(C)} leader see ${T}?`,
      answer: seen.fraction > 0 ? 'yes' : 'no',
      reasons: [
        seen.fraction > 0
          ? `${(seen.fraction * 100).toFixed(0)}% of ${T} can be seen from ${poss(C)} leader`
          : `${poss(C)} leader cannot see ${T}`,
      ],
      options: pick(ctx.options, 'chargeSightAt'),
    }),
  );

  const m = chargeDistance(ctx, charger, target);
  const move = moveOf(charger);
  const obstacle = obstacleOnLine(ctx, m.from, m.to);
  const building = inBuilding(ctx, target);
  const limit = obstacle || building ? move - OBSTACLE_COST : move;
  const why = obstacle
    ? ` (${T} is behind ${obstacle}: 6" must be spare)`
    : building
      ? ` (${T} is in ${building}: 6" must be spare)`
      : '';
  checks.push(
    lengthVerdict(
      ctx,
      {
        question: 'reach',
        asked: `can ${C} reach ${T} in one move?`,
        reasons: [
          `${inStr(m.mm)} from ${poss(C)} leader base to the nearest part of ${T}; one move is ${move}"${why}`,
        ],
        options: pick(ctx.options, 'rangeFrom'),
      },
      m,
      'atMost',
      limit,
    ),
  );
  let halted = false;
  if (
    charger.type === 'cavalry' &&
    target.formationInUse === 'square' &&
    !target.shaken &&
    !target.disordered
  ) {
    halted = true;
    checks.push(
      bpVerdict({
        question: 'square',
        asked: `may ${C} contact the square?`,
        answer: 'no',
        reasons: [
          `cavalry may not charge home on an unshaken, ordered square: ${C} halts ${CAVALRY_SQUARE_HALT}" short`,
        ],
        facts: { haltIn: CAVALRY_SQUARE_HALT },
      }),
    );
  }
  const { answer, lean } = allOf(checks);
  const reach = checks.find((c) => c.question === 'reach') as Verdict;
  return bpVerdict({
    question: 'charge',
    asked: `can ${C} charge ${T}?`,
    answer,
    lean,
    ...measuredBy(reach),
    reasons: [
      ...(answer === 'yes' ? [`${C} can charge ${T}`] : failingReasons(checks, 'notYes')),
      ...face.reasons,
    ],
    options: pick(ctx.options, 'rangeFrom', 'quarterReading', 'chargeFaceFrom'),
    facts: { face: face.facts.face as string, faceBorderline: face.answer === 'borderline', halted },
    checks: [...checks, face],
  });
}

/** Countercharging cavalry and its target meet halfway between the two leaders. */
export const counterchargeMeetingPoint = (a: TableUnit, b: TableUnit): Vec2 => ({
  x: (a.leader.x + b.leader.x) / 2,
  y: (a.leader.y + b.leader.y) / 2,
});

/** Length covered by intervals on [0, length], merged. */
export function coveredLength(length: number, intervals: ReadonlyArray<readonly [number, number]>): number {
  const clipped = intervals
    .map(([a, b]) => [Math.max(0, Math.min(a, b)), Math.min(length, Math.max(a, b))] as const)
    .filter(([a, b]) => b > a)
    .sort((p, q) => p[0] - q[0]);
  let total = 0;
  let end = -Infinity;
  let start = -Infinity;
  for (const [a, b] of clipped) {
    if (a > end) {
      if (end > start) total += end - start;
      start = a;
      end = b;
    } else end = Math.max(end, b);
  }
  if (end > start) total += end - start;
  return total;
}

/**
 * A second charger on a face already engaged: at least half the face must still be open and at
 * least half the charger's frontage must be able to touch it.
 */
export function secondChargerAllowed(
  faceLength: number,
  occupied: ReadonlyArray<readonly [number, number]>,
  chargerFrontage: number,
): { allowed: boolean; free: number; contact: number } {
  const free = faceLength - coveredLength(faceLength, occupied);
  const contact = Math.min(chargerFrontage, free);
  return { allowed: free >= faceLength / 2 && contact >= chargerFrontage / 2, free, contact };
}

/** An adjacent enemy touched by a charge is engaged only if at least half of its facing is covered. */
export function adjacentEngaged(
  faceLength: number,
  covered: ReadonlyArray<readonly [number, number]>,
): boolean {
  return coveredLength(faceLength, covered) >= faceLength / 2;
}
