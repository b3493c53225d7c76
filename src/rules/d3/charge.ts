import { quarterOfPoint, type QuarterName } from '../../geometry/quarters.ts';
import { add, normalize, scale, sub, type Vec2 } from '../../geometry/vec.ts';
import { friendsOf } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { withAlternatives } from '../engine/alternatives.ts';
import { lengthWords } from '../engine/words.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { unitCentroid, possessive } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { pointName } from '../engine/parts.ts';
import { probeMove } from '../engine/probe.ts';
import { quarterQuantity } from '../engine/quarter-call.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { unitSeparation } from '../unit-distance.ts';
import { degToRad } from '../../geometry/angle.ts';
import { pointToPolygon } from '../../geometry/distance.ts';
import {
  boxTurned,
  bestChargeLine,
  pivotFor,
  sweepObstacles,
  turnLimits,
  limitWithBlockerMoved,
  type ChargeLine,
} from './charge-line.ts';
import { farReach } from './charge-far.ts';
import { lineWithTargetAside, pathEdgeAlternatives } from './charge-path-edge.ts';
import { runBlockedBy, runSwitchMm, type RunObstacle } from './charge-run.ts';
import type { Alternative } from '../engine/alternatives.ts';
import {
  D3,
  d3Verdict,
  inches,
  inStr,
  lengthVerdict,
  mmOf,
  moveOf,
  troopOf,
  type D3Context,
} from './context.ts';
import { CHARGE_TURN_DEG, FLANK_REAR_BONUS_HITS } from './tables.ts';

export { bestChargeLine, pivotFor, turnedBox, turnLimits, type ChargeLine } from './charge-line.ts';

/** Bases closer than this touch (are in contact), mm. */
const CONTACT_MM = 1;

/**
 * "Can C charge T?": only cavalry and Highlanders charge; one turn of up to 45° at the start, then
 * straight ahead into contact within one move; only one attacker per defender. `settleFar`: a
 * target farther off than any turn and move can reach, by more than any doubt could close, is
 * answered by its gap alone (`farReach`), not by searching its best line (false: always searched,
 * for the test that the answers agree).
 */
export function chargeVerdict(
  ctx: D3Context,
  charger: TableUnit,
  target: TableUnit,
  settleFar = true,
): Verdict {
  const C = charger.name;
  const T = target.name;
  const troop = troopOf(charger);
  const problems: string[] = [];
  if (troop !== 'cavalry' && troop !== 'highlander') problems.push('only cavalry and Highlanders may charge');
  if (charger.side === target.side) problems.push(`${T} is a friend`);
  const checks: Verdict[] = [
    d3Verdict({
      question: 'mayCharge',
      asked: `may ${C} charge ${T}?`,
      answer: problems.length ? 'no' : 'yes',
      reasons: problems.length ? problems : [`${C} may charge`],
    }),
  ];
  // One attacker per defender: a friend already in contact (within 1 mm) engages it.
  const friend = friendsOf(ctx.state, charger)
    .map((f) => ({ f, s: unitSeparation(f.bases, target.bases) }))
    .reduce<{ f: TableUnit; s: ReturnType<typeof unitSeparation> } | undefined>(
      (a, b) => (!a || b.s.distance < a.s.distance ? b : a),
      undefined,
    );
  if (friend && friend.s.distance < 50)
    checks.push(
      lengthVerdict(
        ctx,
        {
          question: 'oneAttacker',
          asked: `is ${T} free of another attacker?`,
          reasons: [
            friend.s.distance <= CONTACT_MM
              ? `${friend.f.name} is already engaging ${T}: one attacker per defender`
              : `${friend.f.name} is ${inStr(friend.s.distance)} from ${T}, not in contact`,
          ],
        },
        { mm: friend.s.distance, sigmaMm: friend.s.sigmaMm, from: friend.s.onA, to: friend.s.onB },
        'moreThan',
        inches(CONTACT_MM),
      ),
    );
  const move = moveOf(charger);
  const far = settleFar ? farReach(ctx, charger, target, move) : undefined;
  if (far)
    return chargeOf(ctx, charger, target, [...checks, far], { face: attackFace(ctx, charger, target) });
  const limits = turnLimits(ctx, charger, target);
  const allowed = { leftDeg: limits.left.deg, rightDeg: limits.right.deg };
  // Only what lies within reach of a run can stand in one: the turned front edge stays within a
  // frontage of the leader, and no run goes past the target's farthest corner.
  const reachMm =
    Math.max(
      ...target.allPolygons.flat().map((p) => Math.hypot(p.x - charger.leader.x, p.y - charger.leader.y)),
    ) +
    3 * charger.box.width +
    charger.box.depth;
  const inTheWay = sweepObstacles(ctx, charger, target).filter(
    (o) => pointToPolygon(charger.leader, o.polygon).distance <= reachMm,
  );
  const line = bestChargeLine(ctx, charger, target, allowed, inTheWay);
  const search = { ctx, charger, target, allowed, inTheWay, moveMm: mmOf(move) };
  const run = runInTheWay(ctx, charger, target, allowed, inTheWay, line, move);
  const asked = `can ${C} reach ${T} straight ahead after one turn of up to ${CHARGE_TURN_DEG}°?`;
  const sweepWords = [limits.left, limits.right]
    .map((l, k) =>
      l.by
        ? `turning ${k === 0 ? 'left' : 'right'} more than ${l.deg.toFixed(1)}° would sweep through ${l.by.name}`
        : '',
    )
    .filter(Boolean);
  // Where a unit stops the turn, its place decides how far the charger may turn: the straight run
  // with every such limit moved by `mm` of the blocker (its contact corner swinging on its lever).
  const blockers = [limits.left.by, limits.right.by].filter((b) => b !== undefined);
  const runWithBlockersMoved = (mm: number): number => {
    const l = bestChargeLine(
      ctx,
      charger,
      target,
      {
        leftDeg: limitWithBlockerMoved(limits.left, mm),
        rightDeg: limitWithBlockerMoved(limits.right, mm),
      },
      inTheWay,
    );
    return l ? inches(l.contact.distance) : Infinity;
  };
  const blockerSigma = Math.max(0, ...blockers.map((b) => b.sigmaMm));
  const stoppers = [...new Set(blockers.map((b) => b.name))];
  const blockerWhy = `where ${stoppers.join(' and ')} stops the turn`;
  // What the sweep only just misses could stop it sooner, a hair closer (a line that turns far).
  const near = [...new Set([...limits.left.near, ...limits.right.near].map((o) => o.name))].filter(
    (n) => !stoppers.includes(n),
  );
  const tighterWhy = stoppers.length
    ? `${blockerWhy}${near.length ? ` (or ${near.join(' and ')} would, a hair closer)` : ''}`
    : `where ${near.join(' and ')} would stop the turn a hair closer`;
  if (!line) {
    const band = D3.bandMm(ctx, Math.hypot(charger.sigmaMm, target.sigmaMm, blockerSigma));
    const p = blockers.length ? probeMove(runWithBlockersMoved, Infinity, 'atMost', move, band) : undefined;
    const turnClose = p !== undefined && !p.lowerBound && p.moveMm <= band;
    const runClose = run.alternatives.find((a) => a.switchMm < run.bandMm);
    const passClose = runPastClose(ctx, charger, target, allowed, inTheWay, move);
    const aside = lineWithTargetAside(search, band);
    const close = turnClose || runClose !== undefined || passClose !== undefined || aside !== undefined;
    const moveMm = Math.min(
      turnClose ? p.moveMm : Infinity,
      runClose?.switchMm ?? Infinity,
      passClose?.clearanceMm ?? Infinity,
      aside?.asideMm ?? Infinity,
    );
    checks.push(
      d3Verdict({
        question: 'reach',
        asked,
        answer: close ? 'borderline' : 'no',
        lean: 'no',
        reasons: [
          run.words.length
            ? `no turn of up to ${CHARGE_TURN_DEG}° gives ${C} a clear straight run to ${T}`
            : `no turn of up to ${CHARGE_TURN_DEG}° lines ${C} up on ${T}`,
          ...sweepWords,
          ...run.words,
          ...(turnClose ? [`too close to call: ${blockerWhy}`] : []),
          ...(runClose ? [`too close to call: ${runClose.why}`] : []),
          ...(passClose ? [`too close to call: ${passClose.why}`] : []),
          ...(aside
            ? [
                `too close to call: ${T} ${lengthWords(aside.asideMm, 'in')} further round would be in reach, turning ${Math.abs(aside.line.turnDeg).toFixed(1)}° ${aside.line.turnDeg >= 0 ? 'left' : 'right'}`,
              ]
            : []),
        ],
        options: pick(ctx.options, 'chargePivot'),
        ...(close ? { moveMm, bandMm: Math.max(band, run.bandMm) } : {}),
      }),
    );
  } else {
    const m = {
      mm: line.contact.distance,
      sigmaMm: Math.hypot(charger.sigmaMm, target.sigmaMm),
      from: line.contact.from,
      to: line.contact.at,
      fromName: `${possessive(C)} front edge`,
      toName: pointName(target, line.contact.at),
    };
    const reach = lengthVerdict(
      ctx,
      {
        question: 'reach',
        asked,
        reasons: [
          `turning ${Math.abs(line.turnDeg).toFixed(1)}° ${line.turnDeg >= 0 ? 'left' : 'right'}, then ${inStr(m.mm)} straight ahead from ${m.fromName} to ${m.toName}; one move is ${move}"`,
          ...sweepWords,
          ...run.words,
        ],
        options: pick(ctx.options, 'chargePivot'),
        facts: { turnDeg: line.turnDeg },
      },
      m,
      'atMost',
      move,
    );
    const band = D3.bandMm(ctx, Math.hypot(m.sigmaMm, blockerSigma));
    const alt = (() => {
      if (!blockers.length && !near.length) return [];
      const p = probeMove(runWithBlockersMoved, inches(m.mm), 'atMost', move, band);
      return p.lowerBound
        ? []
        : [
            {
              lean: reach.lean === 'yes' ? ('no' as const) : ('yes' as const),
              switchMm: p.moveMm,
              why: tighterWhy,
            },
          ];
    })();
    // The target only just inside the path (at the full turn, or between turns a wood or a unit
    // stops): a step aside and no line.
    const atEdge = pathEdgeAlternatives(search, line, band);
    checks.push(
      withAlternatives(reach, [...alt, ...run.alternatives, ...atEdge], Math.max(band, run.bandMm), 'in'),
    );
  }
  return chargeOf(ctx, charger, target, checks, {
    ...(line ? { turnDeg: line.turnDeg, straightIn: inches(line.contact.distance) } : {}),
    face: attackFace(ctx, charger, target),
    turnLimitLeftDeg: limits.left.deg,
    turnLimitRightDeg: limits.right.deg,
  });
}

/** The charge verdict from its checks (may charge, one attacker, reach). */
function chargeOf(
  ctx: D3Context,
  charger: TableUnit,
  target: TableUnit,
  checks: Verdict[],
  facts: Verdict['facts'],
): Verdict {
  const { answer, lean } = allOf(checks);
  const reachCheck = checks.find((c) => c.question === 'reach') as Verdict;
  return d3Verdict({
    question: 'charge',
    asked: `can ${charger.name} charge ${target.name}?`,
    answer,
    lean,
    ...measuredBy(reachCheck),
    reasons: answer === 'yes' ? reachCheck.reasons : failingReasons(checks, 'notYes'),
    options: pick(ctx.options, 'chargePivot'),
    facts,
    checks,
  });
}

/** The turned box a charge line runs from. */
const lineBox = (ctx: D3Context, charger: TableUnit, l: ChargeLine) =>
  boxTurned(charger.box, pivotFor(ctx, charger.box, l.turnDeg), degToRad(l.turnDeg));

/**
 * Units or ground standing in the way of the straight run: what stops the line that would be
 * shortest without them (in words), and the moves that would change whether a run is clear (a
 * blocker leaving the shorter line's strip, or one stepping into the chosen line's strip), with
 * the band those moves are judged against.
 */
function runInTheWay(
  ctx: D3Context,
  charger: TableUnit,
  target: TableUnit,
  allowed: { leftDeg: number; rightDeg: number },
  inTheWay: readonly RunObstacle[],
  line: ChargeLine | undefined,
  move: number,
): { words: string[]; alternatives: Alternative[]; bandMm: number } {
  const none = { words: [], alternatives: [], bandMm: 0 };
  if (inTheWay.length === 0) return none;
  const reaches = (l: ChargeLine | undefined) => l !== undefined && inches(l.contact.distance) <= move;
  const words: string[] = [];
  const alternatives: Alternative[] = [];
  let sigma = 0;
  const free = bestChargeLine(ctx, charger, target, allowed);
  if (free && (!line || free.contact.distance < line.contact.distance - 1e-9)) {
    const box = lineBox(ctx, charger, free);
    const by = runBlockedBy(box, free.contact.distance, inTheWay);
    if (by) {
      const dir = free.turnDeg >= 0 ? 'left' : 'right';
      words.push(
        `turning ${Math.abs(free.turnDeg).toFixed(1)}° ${dir}, the ${inStr(free.contact.distance)} straight run would go through ${by.name}`,
      );
      if (reaches(free) && !reaches(line)) {
        sigma = Math.max(sigma, by.sigmaMm);
        alternatives.push({
          lean: 'yes',
          switchMm: runSwitchMm(box, free.contact.distance, by),
          why: `${by.name} stands in the way of the shorter line`,
        });
      }
    }
  }
  if (line && reaches(line)) {
    const box = lineBox(ctx, charger, line);
    for (const o of inTheWay) {
      const gap = runSwitchMm(box, line.contact.distance, o);
      if (!Number.isFinite(gap)) continue;
      sigma = Math.max(sigma, o.sigmaMm);
      alternatives.push({ lean: 'no', switchMm: gap, why: `${o.name} stands by the straight run` });
    }
  }
  return { words, alternatives, bandMm: D3.bandMm(ctx, Math.hypot(charger.sigmaMm, target.sigmaMm, sigma)) };
}

/**
 * When no turn gives a clear run: the least clearance (mm, within the band of what stands in the
 * way) at which one would, were everything beside the runs that much further off. A run that
 * passes a unit by less than the band is as likely clear as blocked (undefined when none is).
 */
function runPastClose(
  ctx: D3Context,
  charger: TableUnit,
  target: TableUnit,
  allowed: { leftDeg: number; rightDeg: number },
  inTheWay: readonly RunObstacle[],
  move: number,
): { clearanceMm: number; why: string } | undefined {
  if (inTheWay.length === 0) return undefined;
  const sigma = Math.max(0, ...inTheWay.map((o) => o.sigmaMm));
  const band = D3.bandMm(ctx, Math.hypot(charger.sigmaMm, target.sigmaMm, sigma));
  const clearAt = (c: number) => {
    const l = bestChargeLine(ctx, charger, target, allowed, inTheWay, c);
    return l !== undefined && inches(l.contact.distance) <= move ? l : undefined;
  };
  let loose = clearAt(band);
  if (!loose) return undefined;
  // The least clearance that opens a run, to a sixteenth of the band.
  let lo = 0;
  let hi = band;
  for (let i = 0; i < 4; i++) {
    const mid = (lo + hi) / 2;
    const l = clearAt(mid);
    if (l) [hi, loose] = [mid, l];
    else lo = mid;
  }
  const box = lineBox(ctx, charger, loose);
  const by = runBlockedBy(box, loose.contact.distance, inTheWay);
  const dir = loose.turnDeg >= 0 ? 'left' : 'right';
  return {
    clearanceMm: hi,
    why: `turning ${Math.abs(loose.turnDeg).toFixed(1)}° ${dir}, the straight run passes ${by?.name ?? 'what stands beside it'} within ${lengthWords(hi, 'in')}`,
  };
}

/** Face of the defender the attacker strikes (its front centre's quarter); flank or rear earns +2 hits. */
export function attackFace(ctx: D3Context, attacker: TableUnit, defender: TableUnit): QuarterName {
  const q = quarterOfPoint(defender.box, attacker.leader, ctx.options.quarterReading);
  return q.quarter === 'inside' ? 'front' : q.quarter;
}

export function attackFaceVerdict(ctx: D3Context, attacker: TableUnit, defender: TableUnit): Verdict {
  const q = quarterOfPoint(defender.box, attacker.leader, ctx.options.quarterReading);
  const face = q.quarter === 'inside' ? 'front' : q.quarter;
  const quantity = quarterQuantity(q, 25.4, 'in', attacker.sigmaMm, defender, attacker.leader);
  const j = D3.judge(ctx, quantity, 'moreThan', 0);
  const close = q.quarter !== 'inside' && (j.answer === 'borderline' || q.onBoundary);
  return d3Verdict({
    question: 'attackFace',
    asked: `which face of ${defender.name} does ${attacker.name} attack?`,
    answer: close ? 'borderline' : 'yes',
    value: quantity.value,
    unit: 'in',
    moveMm: j.moveMm,
    bandMm: j.bandMm,
    epsilon: j.epsilon,
    reasons: [
      `${possessive(attacker.name)} front centre is in ${possessive(defender.name)} ${face} quarter, ${inStr(q.rayDistance)} from the ${q.across}${face !== 'front' ? `: +${FLANK_REAR_BONUS_HITS} hits` : ''}${close ? ' (too close to call)' : ''}`,
    ],
    options: pick(ctx.options, 'quarterReading'),
    facts: { face, bonusHits: face === 'front' ? 0 : FLANK_REAR_BONUS_HITS },
  });
}

/**
 * After a melee that did not rout the enemy, the attacker retreats half its move (straight back,
 * or directly away from the target, by option) and ends facing the target.
 */
export function meleeRetreat(
  ctx: D3Context,
  attacker: TableUnit,
  target: TableUnit,
): { distanceIn: number; move: Vec2; facing: Vec2 } {
  const troop = troopOf(attacker);
  const column = attacker.formationInUse === 'attackColumn' || attacker.formationInUse === 'marchColumn';
  const full =
    troop === 'infantry' && column && ctx.options.columnRetreat === 'lineMove' ? 6 : moveOf(attacker);
  const distanceIn = full / 2;
  const away =
    ctx.options.retreatDirection === 'awayFromTarget'
      ? normalize(sub(unitCentroid(attacker), unitCentroid(target)))
      : scale(attacker.facing, -1);
  const move = scale(away, mmOf(distanceIn));
  const facing = normalize(sub(unitCentroid(target), add(unitCentroid(attacker), move)));
  return { distanceIn, move, facing };
}

/** After routing the enemy, the attacker must advance a full move straight ahead. */
export const meleeAdvance = (attacker: TableUnit): { distanceIn: number; move: Vec2 } => ({
  distanceIn: moveOf(attacker),
  move: scale(attacker.facing, mmOf(moveOf(attacker))),
});
