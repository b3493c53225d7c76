import { hypot } from '../../geometry/hypot.ts';
import { shiftToClear } from '../../geometry/segment-shift.ts';
import { polygonSetSeparation } from '../../geometry/distance.ts';
import { segmentInsidePolygon } from '../../geometry/segment-clip.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { withAlternatives, type Alternative } from '../engine/alternatives.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { pick } from '../engine/options.ts';
import { quarterQuantity } from '../engine/quarter-call.ts';
import { leaderAtTurnStart, turnStartWords } from '../engine/turn-start.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import {
  BP,
  bpVerdict,
  inStr,
  isSkirmish,
  lengthVerdict,
  mmOf,
  moveOf,
  type BpContext,
  type Measured,
  poss,
} from './context.ts';
import { bpQuarterOfPoint } from './quarters.ts';
import { everyBaseBeyond, measureFrom, otherNearestLines, otherReadings, readingLean } from './range.ts';
import { inBuildingCheck, visibleCheck } from './shot-checks.ts';
import { eyeSigma } from './shooting.ts';
import { seen } from './sight.ts';
import { CAVALRY_SQUARE_HALT, OBSTACLE_COST } from './tables.ts';

/** Distance a charge is measured over: from the charger's leader base (option rangeFrom) to the target, both ends named. */
export function chargeDistance(ctx: BpContext, charger: TableUnit, target: TableUnit): Measured {
  return measureFrom(ctx, charger, false, target);
}

/**
 * How far the charge line a → b is from changing whether it crosses an obstacle: the gap to the
 * nearest obstacle when it crosses none, else the least sideways shift that takes it clear.
 */
function obstacleMargin(ctx: BpContext, a: Vec2, b: Vec2): { crosses?: string; mm: number } {
  let crosses: string | undefined;
  let mm = Infinity;
  for (const t of ctx.state.terrain) {
    if (t.kind !== 'obstacle' || !t.polygon) continue;
    if (segmentInsidePolygon(a, b, t.polygon).length > 0) {
      const shift = shiftToClear(a, b, [t.polygon]);
      if (!crosses || shift < mm) {
        crosses = t.label;
        mm = shift;
      }
    } else if (!crosses) mm = Math.min(mm, polygonSetSeparation([t.polygon], [[a, b]]).distance);
  }
  return { ...(crosses ? { crosses } : {}), mm };
}

/** Which face of the target a charge strikes: the target quarter holding the charger's leader at the start of the turn. */
export function chargeFaceVerdict(ctx: BpContext, charger: TableUnit, target: TableUnit): Verdict {
  const start = leaderAtTurnStart(ctx.state, charger);
  const then = ctx.options.chargeFaceFrom === 'turnStart' ? start : undefined;
  const from = then?.point ?? charger.leader;
  const when = then ? turnStartWords(then) : 'now';
  const q = bpQuarterOfPoint(ctx, target, from);
  const face = q.quarter === 'inside' ? 'front' : q.quarter;
  const asked = `which face of ${target.name} does ${charger.name} charge?`;
  const options = pick(ctx.options, 'quarterReading', 'chargeFaceFrom');
  const facts = {
    face,
    across: q.across,
    leaderX: from.x,
    leaderY: from.y,
    leaderFrom: then?.from ?? 'now',
  };
  if (q.allRoundFront)
    return bpVerdict({
      question: 'chargeFace',
      asked,
      answer: 'yes',
      reasons: [`${target.name} has no flanks or rear: every face is a front`],
      options,
      facts,
    });
  const quantity = quarterQuantity(q, 25.4, 'in', then?.sigmaMm ?? charger.sigmaMm, target, from);
  const j = BP.judge(ctx, quantity, 'moreThan', 0);
  const exactlyOn = q.onBoundary || quantity.value < 1e-9;
  return bpVerdict({
    question: 'chargeFace',
    asked,
    answer: j.answer === 'borderline' || exactlyOn ? 'borderline' : 'yes',
    value: quantity.value,
    unit: 'in',
    moveMm: j.moveMm,
    bandMm: j.bandMm,
    epsilon: j.epsilon,
    reasons: [
      exactlyOn
        ? `${poss(charger.name)} leader stands on the line between ${poss(target.name)} ${face} and ${q.across} quarters: roll a D6 (1–3 ${face}, 4–6 ${q.across})`
        : `${poss(charger.name)} leader ${when} is in ${poss(target.name)} ${face} quarter, ${inStr(q.rayDistance)} from its ${q.across} quarter${j.answer === 'borderline' ? ': too close to call (roll a D6)' : ''}`,
    ],
    options,
    facts,
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
  let faceDoubt = false;
  if (isSkirmish(charger)) {
    const formed =
      ['line', 'attackColumn', 'warband', 'mixed', 'square'].includes(target.formationInUse) &&
      target.type !== 'artillery';
    const engagedFlank = target.engaged && face.facts.face !== 'front';
    if (formed && !engagedFlank)
      forbidden.push(
        `skirmishers may not charge a formed ${target.formationInUse} (only its flank or rear when it is already engaged to its front)`,
      );
    // Whether it is the flank that is struck may itself be too close to call.
    faceDoubt = formed && target.engaged === true && face.answer === 'borderline';
  }
  checks.push(
    bpVerdict({
      question: 'mayCharge',
      asked: `may ${C} charge ${T}?`,
      answer: faceDoubt ? 'borderline' : forbidden.length ? 'no' : 'yes',
      lean: forbidden.length ? 'no' : 'yes',
      reasons: [
        ...(forbidden.length ? forbidden : [`${C} may charge`]),
        ...(faceDoubt ? ['which face it strikes is too close to call'] : []),
      ],
    }),
  );

  // A charge the rules forbid (a friend, a shaken charger…) needs no measuring, and one beyond a
  // full move whatever the ground no weighing of obstacles and other bases.
  if (checks[0]?.answer !== 'no')
    checks.push(outOfReachWhateverTheGround(ctx, charger, target) ?? reachCheck(ctx, charger, target));
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
  // Sight last, and only when it matters: a charge already ruled out (a friend, out of reach
  // whatever the ground) is answered without it, and its verdict says so by its other checks.
  if (allOf(checks).answer !== 'no') {
    const view = seen(ctx, charger.leader, eyeSigma(charger), target, {
      exclude: new Set([charger.id, target.id]),
    });
    const sight = visibleCheck(ctx, view, `${poss(C)} leader`, target);
    checks.splice(1, 0, { ...sight, options: pick(ctx.options, 'chargeSightAt', 'woodsSightDepthIn') });
  }
  const { answer, lean } = allOf(checks);
  const reach = checks.find((c) => c.question === 'reach');
  return bpVerdict({
    question: 'charge',
    asked: `can ${C} charge ${T}?`,
    answer,
    lean,
    ...measuredBy(reach),
    reasons: [
      ...(answer === 'yes'
        ? [`${C} can charge ${T}`, reach?.reasons[0] as string]
        : failingReasons(checks, 'notYes')),
      ...face.reasons,
    ],
    options: pick(ctx.options, 'rangeFrom', 'quarterReading', 'chargeFaceFrom'),
    facts: { face: face.facts.face as string, faceBorderline: face.answer === 'borderline', halted },
    checks: [...checks, face],
  });
}

/**
 * The reach check of a target beyond one move whatever the ground: every base of the charger is
 * farther from the target's body than a full move (an obstacle or a building only shortens it)
 * by more than the pose band, so every reading reachCheck weighs (the leader base, another base,
 * another line as short, behind cover or not) is a firm no too, and it is answered on the usual
 * reading alone. Undefined when the target may be within reach. Most enemy pairs on a table are so.
 */
function outOfReachWhateverTheGround(
  ctx: BpContext,
  charger: TableUnit,
  target: TableUnit,
): Verdict | undefined {
  const move = moveOf(charger);
  const m = chargeDistance(ctx, charger, target);
  const bandMm = BP.bandMm(ctx, Math.max(m.sigmaMm, hypot(charger.sigmaMm, target.sigmaMm)));
  if (!everyBaseBeyond(charger, target, mmOf(move), bandMm)) return undefined;
  return lengthVerdict(
    ctx,
    {
      question: 'reach',
      asked: `can ${charger.name} reach ${target.name} in one move?`,
      reasons: [
        `${inStr(m.mm)} from ${m.fromName} to ${m.toName}; one move is ${move}"`,
        `no part of ${target.name} is within one move, whatever the ground`,
      ],
      options: pick(ctx.options, 'rangeFrom'),
    },
    m,
    'atMost',
    move,
  );
}

/** Whether the charger's leader base is within one move of the target (6" less behind cover), with doubts. */
export function reachCheck(ctx: BpContext, charger: TableUnit, target: TableUnit): Verdict {
  const C = charger.name;
  const T = target.name;
  const m = chargeDistance(ctx, charger, target);
  const move = moveOf(charger);
  const bandMm = BP.bandMm(ctx, m.sigmaMm);
  const obstacle = obstacleMargin(ctx, m.from, m.to);
  const building = inBuildingCheck(ctx, target);
  const behind = obstacle.crosses !== undefined || building?.lean === 'yes';
  const limit = behind ? move - OBSTACLE_COST : move;
  const why = obstacle.crosses
    ? ` (${T} is behind ${obstacle.crosses}: 6" must be spare)`
    : building?.lean === 'yes'
      ? ` (${T} is in ${String(building.facts.building)}: 6" must be spare)`
      : '';
  const reach = lengthVerdict(
    ctx,
    {
      question: 'reach',
      asked: `can ${C} reach ${T} in one move?`,
      reasons: [`${inStr(m.mm)} from ${m.fromName} to ${m.toName}; one move is ${move}"${why}`],
      options: pick(ctx.options, 'rangeFrom'),
    },
    m,
    'atMost',
    limit,
  );
  const otherLimit = behind ? move : move - OBSTACLE_COST;
  const doubt = Math.min(obstacle.mm, building ? (building.moveMm ?? Infinity) : Infinity);
  return withAlternatives(
    reach,
    [
      {
        lean: readingLean(m.mm, mmOf(otherLimit), 'atMost', bandMm),
        switchMm: doubt,
        why: behind ? `whether ${T} stands behind cover is close` : `${T} is close to standing behind cover`,
      },
      // Another base's line may cross an obstacle the leader's misses, or miss one it crosses;
      // and whether it does (or the target stands in a building) may itself be close: then the
      // other base's reading is weighed against both limits, the second needing both moves.
      ...[
        ...otherReadings(ctx, charger, false, target, target.bodyPolygons, undefined, bandMm),
        // Another line as short may end past an obstacle's tip the measured one clears.
        ...(ctx.state.terrain.some((t) => t.kind === 'obstacle')
          ? otherNearestLines(ctx, charger, target, m, bandMm)
          : []),
      ].flatMap((o) => {
        const line = obstacleMargin(ctx, o.from, o.to);
        const oBehind = line.crosses !== undefined || building?.lean === 'yes';
        const oDoubt = Math.min(line.mm, building ? (building.moveMm ?? Infinity) : Infinity);
        const against = (behindThen: boolean, switchMm: number, why: string): Alternative => ({
          lean: readingLean(o.mm, mmOf(behindThen ? move - OBSTACLE_COST : move), 'atMost', bandMm),
          switchMm,
          why,
        });
        return [
          against(oBehind, o.switchMm, o.why),
          against(
            !oBehind,
            Math.max(o.switchMm, oDoubt),
            `${o.why}, and from there ${oBehind ? `whether ${T} stands behind cover is close` : `${T} is close to standing behind cover`}`,
          ),
        ];
      }),
    ],
    bandMm,
    'in',
  );
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
