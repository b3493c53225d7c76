import { closedRanks } from '../engine/closed-ranks.ts';
import { shiftToClear } from '../../geometry/segment-shift.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { possessive } from '../engine/measure.ts';
import { frontCentre } from '../../geometry/faced-box.ts';
import { nearCandidates, pointToPolygonSet, polygonSetSeparation } from '../../geometry/distance.ts';
import { gapAlongLine } from '../../geometry/gap.ts';
import { makeBlocker, sightObstructions } from '../../geometry/line-of-sight.ts';
import { toLocal } from '../../geometry/frame.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import { pick } from '../engine/options.ts';
import { withAlternatives, type Alternative } from '../engine/alternatives.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import {
  inches,
  inStr,
  lengthVerdict,
  mmOf,
  PP,
  ppVerdict,
  thresholdVerdict,
  troopOf,
  unitGap,
  type PpContext,
} from './context.ts';
import { inFrontVerdict } from './front.ts';
import {
  CANNON_DICE,
  CANNON_GAP,
  CLOSE_RANGE,
  FIGURES_PER_BASE,
  FIRE_DISCIPLINE_ADD,
  MUSKET_RANGE,
  SHOOTING_MORALE_SHARE,
  SHORT_RANGE,
  type ShotBand,
} from './tables.ts';

export interface BandReading {
  readonly band: ShotBand;
  /** Score needed on a D6. */
  readonly hitOn?: number;
}

/** The musket band for a range in inches (options rangeBands and closeHitOn; close only when standing and shooting unless closeAlways). */
export function musketBand(ctx: PpContext, rangeIn: number, standAndShoot = false): BandReading {
  if (rangeIn > MUSKET_RANGE) return { band: 'out' };
  if (ctx.options.rangeBands === 'sheetOnly') return { band: 'long', hitOn: 6 };
  const closeAllowed = standAndShoot || ctx.options.rangeBands === 'closeAlways';
  if (closeAllowed && rangeIn <= CLOSE_RANGE) return { band: 'close', hitOn: ctx.options.closeHitOn };
  if (rangeIn <= SHORT_RANGE) return { band: 'short', hitOn: 5 };
  return { band: 'long', hitOn: 6 };
}

/** Bases in the unit's front rank: those whose front edge lies on the unit's front edge. */
export function frontRankBases(unit: TableUnit): number {
  const tol = Math.max(2, 0.25 * Math.min(...unit.bases.map((b) => b.footprint.depth)));
  return unit.bases.filter((b) => {
    const ys = b.polygon.map((p) => toLocal(unit.box.frame, p).y);
    return Math.max(...ys) >= -tol;
  }).length;
}

function basicChecks(ctx: PpContext, shooter: TableUnit, target: TableUnit): Verdict[] {
  const S = shooter.name;
  const T = target.name;
  const problems: string[] = [];
  const troop = troopOf(shooter);
  if (troop === 'cavalry') problems.push(`${S} is cavalry and has no muskets`);
  if (shooter.engaged) problems.push(`${S} has fought a round of melee and may not shoot until it ends`);
  if (target.side === shooter.side) problems.push(`${T} is a friend`);
  if (target.engaged) problems.push(`${T} is in a melee and may not be shot at`);
  return [
    ppVerdict({
      question: 'mayShoot',
      asked: `may ${S} shoot at ${T} at all?`,
      answer: problems.length ? 'no' : 'yes',
      reasons: problems.length ? problems : [`${S} may shoot at ${T}`],
    }),
    inFrontVerdict(ctx, shooter, target),
  ];
}

/** Musket fire: in front, within 12" (any base in range lets the whole unit fire), and the band. */
export function musketVerdict(
  ctx: PpContext,
  shooter: TableUnit,
  target: TableUnit,
  standAndShoot = false,
): Verdict {
  const checks = basicChecks(ctx, shooter, target);
  const gap = unitGap(ctx, shooter, target);
  const range = lengthVerdict(
    ctx,
    {
      question: 'range',
      asked: `is ${target.name} within ${possessive(shooter.name)} ${MUSKET_RANGE}" musket range?`,
      reasons: [
        `${inStr(gap.mm)} from ${gap.fromName} to ${gap.toName}; if any base is in range every base may fire`,
      ],
      options: pick(ctx.options, 'measureFrom'),
    },
    gap,
    'atMost',
    MUSKET_RANGE,
  );
  checks.push(range);
  const b = musketBand(ctx, inches(gap.mm), standAndShoot);
  // The band edges are thresholds too (they decide the score needed), checked as modifiers.
  if (ctx.options.rangeBands !== 'sheetOnly') {
    const band = (question: string, words: string, limit: number) =>
      lengthVerdict(
        ctx,
        {
          question,
          asked: `is ${target.name} at ${words} range?`,
          role: 'modifier',
          reasons: [`${inStr(gap.mm)}; ${words} range is ${limit}"`],
        },
        gap,
        'atMost',
        limit,
      );
    checks.push(band('shortRange', 'short', SHORT_RANGE));
    if (standAndShoot || ctx.options.rangeBands === 'closeAlways')
      checks.push(band('closeRange', 'close', CLOSE_RANGE));
  }
  const front = frontRankBases(shooter);
  const dice = front * (shooter.type === 'cavalry' ? FIGURES_PER_BASE.cavalry : FIGURES_PER_BASE.infantry);
  const { answer, lean } = allOf(checks);
  return ppVerdict({
    question: 'shoot',
    asked: `can ${shooter.name} shoot ${target.name}?`,
    answer,
    lean,
    ...measuredBy(range),
    reasons:
      answer === 'no'
        ? failingReasons(checks)
        : [
            `${inStr(gap.mm)}: ${b.band} range${b.hitOn ? `, hits on ${b.hitOn}+` : ''}`,
            `${dice} dice (${front} front-rank bases)`,
            ...checks.filter((c) => c.answer === 'borderline').flatMap((c) => c.reasons),
          ],
    options: pick(ctx.options, 'inFront', 'rangeBands', 'closeHitOn', 'measureFrom'),
    facts: {
      band: b.band,
      ...(b.hitOn ? { hitOn: b.hitOn } : {}),
      dice,
      frontRankBases: front,
      standAndShoot,
    },
    checks,
  });
}

/**
 * Cannon fire: range is unlimited; the target must be in front; the line of fire (gun's front
 * centre to the nearest point of the target) may not pass over any unit; and where it passes
 * between two friendly units the gap must be at least 3".
 */
export function cannonVerdict(ctx: PpContext, gun: TableUnit, target: TableUnit): Verdict {
  const checks = basicChecks(ctx, gun, target);
  const eye = gun.barrel?.tip ?? frontCentre(gun.box);
  const aim = pointToPolygonSet(eye, target.bodyPolygons).onB;
  const blockers = ctx.state.units.filter(
    (u) =>
      u.id !== gun.id &&
      u.id !== target.id &&
      (ctx.options.cannonBlockedBy === 'anyUnit' || u.side === gun.side),
  );
  // A unit's bases in contact are one body: fire does not pass through the crack between two of
  // them that the camera reports a millimetre apart (as sight does not: closedRanks).
  const bodies = new Map(blockers.map((u) => [u.id, closedRanks(u.bases)]));
  const blockerPolys = blockers.flatMap((u) =>
    (bodies.get(u.id) ?? []).map((p) => makeBlocker(u.id, u.name, p)),
  );
  const over = sightObstructions(eye, aim, blockerPolys);
  const overNames = [...new Set(over.map((o) => o.blocker.label))];
  // How far the line of fire is from changing whether it passes over a unit: the gap to the
  // nearest unit beside it, or the sideways shift that would clear the ones on it.
  let clearMm = Infinity;
  let sigmaMm = Math.hypot(gun.sigmaMm, target.sigmaMm);
  // How far a line of fire is from changing whether it passes over unit u: the gap to it beside the
  // line, or the sideways shift that clears it when on it.
  const unitMargin = (u: TableUnit, to: Vec2, on: boolean): number => {
    const body = bodies.get(u.id) ?? [];
    return on ? shiftToClear(eye, to, body) : polygonSetSeparation(body, [[eye, to]]).distance;
  };
  for (const u of blockers) {
    const d = unitMargin(
      u,
      aim,
      over.some((o) => o.blocker.id === u.id),
    );
    if (d < clearMm) {
      clearMm = d;
      sigmaMm = Math.hypot(gun.sigmaMm, target.sigmaMm, u.sigmaMm);
    }
  }
  // The nearest point of the target can jump along a face square to the line of fire: another
  // point within the band of being nearest gives another line of fire, which may be clear (or not).
  const nearestMm = Math.hypot(aim.x - eye.x, aim.y - eye.y);
  const aimBand = PP.bandMm(ctx, Math.hypot(gun.sigmaMm, target.sigmaMm));
  const lineBand = PP.bandMm(ctx, sigmaMm);
  // Each base's corners, and its own nearest point (a face square to the line of fire is as near
  // all along: another base's may as well be the nearest).
  const candidates = nearCandidates(eye, target.bodyPolygons).map((c) => ({
    q: c.point,
    what: c.corner ? 'corner' : 'base',
  }));
  const otherAims: Alternative[] = candidates
    .map((c) => ({ ...c, extra: Math.hypot(c.q.x - eye.x, c.q.y - eye.y) - nearestMm }))
    .filter(({ q, extra }) => extra < aimBand && Math.hypot(q.x - aim.x, q.y - aim.y) > 1e-6)
    .map(({ q, what, extra }) => {
      const crossed = new Set(sightObstructions(eye, q, blockerPolys).map((o) => o.blocker.id));
      const clear = crossed.size === 0;
      // That line's own margin: it may pass a unit by a hair (or cross one by a hair) itself; once
      // it crosses one, those beside it change nothing.
      const margin = Math.min(
        ...blockers.map((u) =>
          crossed.has(u.id) ? unitMargin(u, q, true) : clear ? unitMargin(u, q, false) : Infinity,
        ),
      );
      return {
        lean: margin < lineBand ? ('borderline' as const) : clear ? ('yes' as const) : ('no' as const),
        switchMm: Math.max(0, extra),
        why: `another ${what} of ${target.name} is as near the gun, and the line of fire to it is ${clear ? '' : 'not '}clear${margin < lineBand ? ` by ${inStr(margin)}` : ''}`,
      };
    });
  checks.push(
    withAlternatives(
      thresholdVerdict(
        ctx,
        {
          question: 'overUnits',
          asked: `is ${possessive(gun.name)} line of fire clear of units?`,
          reasons: over.length
            ? over
                .slice(0, 1)
                .map(
                  (o) =>
                    `cannons may not fire over units: ${o.blocker.label} stands on the line of fire between ${inStr(o.fromMm)} and ${inStr(o.toMm)}`,
                )
            : [
                `no unit stands on the line of fire${Number.isFinite(clearMm) ? ` (the nearest is ${inStr(clearMm)} beside it)` : ''}`,
              ],
          options: pick(ctx.options, 'cannonBlockedBy'),
          facts: { firedOver: overNames.join(', ') },
        },
        {
          value: over.length ? -inches(clearMm) : inches(Math.min(clearMm, 1e9)),
          unit: 'in',
          perMm: 1 / 25.4,
          sigmaMm,
          moveMm: clearMm,
        },
        'moreThan',
        0,
      ),
      otherAims,
      aimBand,
      'in',
    ),
  );
  const friends = ctx.state.units
    .filter((u) => u.side === gun.side && u.id !== gun.id)
    .flatMap((u) =>
      (bodies.get(u.id) ?? closedRanks(u.bases)).map((p) => ({ id: u.id, label: u.name, polygon: p })),
    );
  const g = gapAlongLine(eye, aim, friends, mmOf(CANNON_GAP + 1), 'closestApproach');
  if (g)
    checks.push(
      lengthVerdict(
        ctx,
        {
          question: 'gap',
          asked: `is the gap wide enough for ${gun.name} to fire through?`,
          reasons: [
            `the line of fire passes between ${g.left.label} and ${g.right.label}, ${inStr(g.width)} apart; a cannon needs ${CANNON_GAP}"`,
          ],
        },
        {
          mm: g.width,
          sigmaMm: gun.sigmaMm,
          from: g.onLeft,
          to: g.onRight,
          fromName: g.left.label,
          toName: g.right.label,
        },
        'atLeast',
        CANNON_GAP,
      ),
    );
  const { answer, lean } = allOf(checks);
  const d = Math.hypot(aim.x - eye.x, aim.y - eye.y);
  return ppVerdict({
    question: 'shoot',
    asked: `can ${gun.name} shoot ${target.name}?`,
    answer,
    lean,
    value: inches(d),
    unit: 'in',
    between: [eye, aim],
    reasons:
      answer === 'no'
        ? failingReasons(checks)
        : [`range is unlimited: ${CANNON_DICE}D6, hits on 6; 4 hits in one turn silence a cannon`],
    options: pick(ctx.options, 'inFront', 'cannonBlockedBy'),
    facts: { dice: CANNON_DICE, hitOn: 6, ...(g ? { gapIn: inches(g.width) } : {}) },
    checks,
  });
}

/** Any shot: cannons by the cannon rules, everything else by the musket rules. */
export const shootVerdict = (
  ctx: PpContext,
  shooter: TableUnit,
  target: TableUnit,
  standAndShoot = false,
): Verdict =>
  troopOf(shooter) === 'cannon'
    ? cannonVerdict(ctx, shooter, target)
    : musketVerdict(ctx, shooter, target, standAndShoot);

export type FireDiscipline = 'close' | 'normal' | 'none';

/** Hanoverian infantry charged: D6 + 6 against the bases left — less: close-range fire; equal: normal; more: none. */
export function fireDiscipline(d6: number, basesLeft: number): { result: FireDiscipline; hitOn?: number } {
  const total = d6 + FIRE_DISCIPLINE_ADD;
  if (total < basesLeft) return { result: 'close', hitOn: 5 };
  if (total === basesLeft) return { result: 'normal', hitOn: 6 };
  return { result: 'none' };
}

/** Losing a quarter or more of the unit in one turn of shooting forces a leadership test. */
export const shootingMoraleTest = (lost: number, unitSize: number): boolean =>
  lost >= SHOOTING_MORALE_SHARE * unitSize;
