import { intersectionArea, regionArea } from '../../geometry/boolean.ts';
import { shareInsideConvex } from '../../geometry/convex-clip.ts';
import { maxBearingToPolygon, minBearingToPolygons } from '../../geometry/bearing.ts';
import { bearingDeg } from '../../geometry/cone.ts';
import { pointToPolygonSet } from '../../geometry/distance.ts';
import { quarterPolygon } from '../../geometry/quarters.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { separation, type Measured, possessive } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { compare } from '../engine/threshold.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import {
  d3Verdict,
  frontCentreOf,
  fromFrontCentre,
  inches,
  inStr,
  isSeasoned,
  lengthVerdict,
  troopOf,
  visibility,
  type D3Context,
} from './context.ts';
import {
  ARTILLERY_INCHES_PER_PIP,
  COVER_DIE_PENALTY,
  FIELD_OF_FIRE_DEG,
  MORTAR_MIN_RANGE,
  MUSKET_RANGE,
} from './tables.ts';

/** Half-angle of the field of fire under the option in force. */
export const fieldHalfAngle = (ctx: D3Context): number =>
  ctx.options.arc === 'total45' ? FIELD_OF_FIRE_DEG / 2 : FIELD_OF_FIRE_DEG;

/**
 * Field of fire: the target must lie within 45° of the shooter's frontal facing. Value: the
 * target's bearing off the facing (smallest over it, at its nearest point, or largest, by
 * option arcPart), limit: the half-angle.
 */
export function fieldOfFireVerdict(ctx: D3Context, shooter: TableUnit, target: TableUnit): Verdict {
  const apex = frontCentreOf(shooter);
  const axis = shooter.barrel?.axis ?? shooter.facing;
  const half = fieldHalfAngle(ctx);
  const asked = `is ${target.name} within ${possessive(shooter.name)} field of fire?`;
  const options = pick(ctx.options, 'arc', 'arcApex', 'arcPart');
  if (ctx.options.arcApex === 'frontCorners') {
    const zone = quarterPolygon(shooter.box, 'front', 'bisector');
    const share = shareInsideConvex(target.bodyPolygons, zone);
    const ok = ctx.options.arcPart === 'wholeUnit' ? share >= 1 - 1e-9 : share > 1e-9;
    return d3Verdict({
      question: 'fieldOfFire',
      asked,
      answer: ok ? 'yes' : 'no',
      value: share,
      reasons: [
        `${(share * 100).toFixed(0)}% of ${target.name} lies between the 45° rays from ${possessive(shooter.name)} front corners`,
      ],
      options,
      facts: { share },
    });
  }
  const minB = minBearingToPolygons(apex, axis, target.bodyPolygons);
  const nearest = pointToPolygonSet(apex, target.bodyPolygons).onB;
  const maxB = Math.max(...target.bodyPolygons.map((p) => maxBearingToPolygon(apex, axis, p).deg));
  const value =
    ctx.options.arcPart === 'anyPart'
      ? minB.deg
      : ctx.options.arcPart === 'nearestPoint'
        ? bearingDeg(apex, axis, nearest)
        : maxB;
  const dist = Math.max(1, Math.hypot(nearest.x - apex.x, nearest.y - apex.y));
  const sigmaDeg = Math.hypot(
    shooter.sigmaHeadingDeg,
    (Math.atan2(Math.hypot(shooter.sigmaMm, target.sigmaMm), dist) * 180) / Math.PI,
  );
  const c = compare(value, 'atMost', half, sigmaDeg, {
    floor: ctx.policy.floor > 0 ? 0.5 : 0,
    sigmas: ctx.policy.sigmas,
  });
  return d3Verdict({
    question: 'fieldOfFire',
    asked,
    answer: c.answer,
    lean: c.lean,
    value,
    limit: half,
    margin: c.margin,
    epsilon: c.epsilon,
    unit: 'deg',
    between: [apex, ctx.options.arcPart === 'anyPart' ? minB.at : nearest],
    reasons: [
      `${target.name} lies ${value.toFixed(1)}° off ${possessive(shooter.name)} facing (${ctx.options.arcPart === 'anyPart' ? 'its nearest edge to the axis' : ctx.options.arcPart === 'nearestPoint' ? 'its nearest point' : 'all of it'}); the field reaches ${half}° either side`,
    ],
    options,
    facts: {
      minBearingDeg: minB.deg,
      nearestBearingDeg: bearingDeg(apex, axis, nearest),
      maxBearingDeg: maxB,
    },
  });
}

function sightVerdict(ctx: D3Context, shooter: TableUnit, target: TableUnit): Verdict {
  const v = visibility(ctx, frontCentreOf(shooter), shooter, target);
  return d3Verdict({
    question: 'visible',
    asked: `can ${shooter.name} see ${target.name}?`,
    answer: v.fraction > 0 ? 'yes' : 'no',
    value: v.fraction,
    reasons: [
      v.fraction > 0
        ? `${(v.fraction * 100).toFixed(0)}% of ${target.name} is in sight`
        : `${target.name} is hidden: ${v.hiddenBy.map((h) => h.hider.label).join(', ')}`,
    ],
    options: pick(ctx.options, 'sightBlockers'),
  });
}

/** Musket fire: infantry (not Highlanders) and skirmishers that have not moved, one target in the field, 12" from the front centre. */
export function musketVerdict(
  ctx: D3Context,
  shooter: TableUnit,
  target: TableUnit,
  movedThisTurn = false,
): Verdict {
  const troop = troopOf(shooter);
  const problems: string[] = [];
  if (troop === 'cavalry' || troop === 'highlander')
    problems.push(`${troop === 'cavalry' ? 'cavalry' : 'Highlanders'} never shoot`);
  if (troop === 'artillery' || troop === 'mortar')
    problems.push(`${shooter.name} fires as artillery, not muskets`);
  if (movedThisTurn) problems.push(`${shooter.name} moved this turn and may not shoot`);
  if (target.side === shooter.side) problems.push(`${target.name} is a friend`);
  const checks: Verdict[] = [
    d3Verdict({
      question: 'mayShoot',
      asked: `may ${shooter.name} shoot?`,
      answer: problems.length ? 'no' : 'yes',
      reasons: problems.length ? problems : [`${shooter.name} may shoot`],
    }),
    fieldOfFireVerdict(ctx, shooter, target),
  ];
  const m = fromFrontCentre(shooter, target);
  const range = lengthVerdict(
    ctx,
    {
      question: 'range',
      asked: `is ${target.name} within ${MUSKET_RANGE}"?`,
      reasons: [
        `${inStr(m.mm)} from ${possessive(shooter.name)} front centre to the nearest part of ${target.name}`,
      ],
    },
    m,
    'atMost',
    MUSKET_RANGE,
  );
  checks.push(range, sightVerdict(ctx, shooter, target));
  const { answer, lean } = allOf(checks);
  const mods = [
    isSeasoned(shooter) ? '+1 seasoned' : '',
    troop === 'skirmishers' ? '−1 skirmishers' : '',
    targetInCover(ctx, target).covered ? '−1 target in cover' : '',
  ].filter(Boolean);
  return d3Verdict({
    question: 'shoot',
    asked: `can ${shooter.name} shoot ${target.name}?`,
    answer,
    lean,
    ...measuredBy(range),
    reasons:
      answer === 'no'
        ? failingReasons(checks)
        : [
            `${inStr(m.mm)} from the front centre: roll a D3 for hits${mods.length ? ` (${mods.join(', ')})` : ''}`,
          ],
    options: pick(ctx.options, 'arc', 'arcApex', 'arcPart', 'sightBlockers'),
    facts: { modifiers: mods.join(', ') },
    checks,
  });
}

/** Whether the target is in cover, woods or buildings (option coverRule), and which piece. */
export function targetInCover(
  ctx: D3Context,
  target: TableUnit,
): { covered: boolean; share: number; label: string } {
  const cover = ctx.state.terrain.filter(
    (t) => t.polygon && (t.kind === 'wood' || t.kind === 'building' || t.cover !== 'none'),
  );
  const total = regionArea(target.bodyPolygons);
  let share = 0;
  let label = '';
  for (const t of cover) {
    const s = total === 0 ? 0 : intersectionArea(target.bodyPolygons, [t.polygon ?? []]) / total;
    if (s > share) {
      share = s;
      label = t.label;
    }
  }
  const covered = ctx.options.coverRule === 'anyPart' ? share > 1e-9 : share >= 0.5 - 1e-9;
  return { covered, share, label };
}

/** Reach of an artillery roll, inches: D6 × 6, less 2 on the die against cover (mortars ignore cover). */
export const artilleryReach = (d6: number, inCover: boolean, mortar: boolean): number =>
  ARTILLERY_INCHES_PER_PIP * Math.max(0, d6 - (inCover && !mortar ? COVER_DIE_PENALTY : 0));

/**
 * Artillery and mortars: only infantry, Highlanders and cavalry are targets; the target must be
 * in the field of fire; a mortar may not fire under 18". With a die roll, the shot hits when the
 * range is within D6 × 6" (−2 on the die against cover, except mortars); without one, the facts
 * give the lowest roll that would reach.
 */
export function artilleryVerdict(ctx: D3Context, gun: TableUnit, target: TableUnit, d6?: number): Verdict {
  const troop = troopOf(gun);
  const mortar = troop === 'mortar';
  const tt = troopOf(target);
  const problems: string[] = [];
  if (troop !== 'artillery' && troop !== 'mortar') problems.push(`${gun.name} is not artillery`);
  if (!['infantry', 'highlander', 'cavalry'].includes(tt))
    problems.push(`only infantry, Highlanders and cavalry may be targeted (${target.name} is ${tt})`);
  if (target.side === gun.side) problems.push(`${target.name} is a friend`);
  const checks: Verdict[] = [
    d3Verdict({
      question: 'validTarget',
      asked: `may ${gun.name} target ${target.name}?`,
      answer: problems.length ? 'no' : 'yes',
      reasons: problems.length ? problems : [`${target.name} is a valid target`],
    }),
    fieldOfFireVerdict(ctx, gun, target),
  ];
  const m: Measured =
    ctx.options.artilleryFrom === 'frontCentre'
      ? fromFrontCentre(gun, target)
      : separation(gun.body, target.bases);
  const rangeIn = inches(m.mm);
  if (mortar)
    checks.push(
      lengthVerdict(
        ctx,
        {
          question: 'mortarMinimum',
          asked: `is ${target.name} beyond the mortar's ${MORTAR_MIN_RANGE}" minimum?`,
          reasons: [`${inStr(m.mm)}: mortars cannot target units under ${MORTAR_MIN_RANGE}"`],
          options: pick(ctx.options, 'mortarMinimum'),
        },
        m,
        ctx.options.mortarMinimum === 'eighteenAllowed' ? 'atLeast' : 'moreThan',
        MORTAR_MIN_RANGE,
      ),
    );
  const cover = targetInCover(ctx, target);
  const penalised = cover.covered && !mortar;
  let minRoll: number | undefined;
  for (let r = 1; r <= 6 && minRoll === undefined; r++)
    if (artilleryReach(r, cover.covered, mortar) >= rangeIn) minRoll = r;
  const hits = isSeasoned(gun) ? 2 : 1;
  const facts: Record<string, string | number | boolean> = {
    rangeIn,
    inCover: cover.covered,
    coverShare: cover.share,
    minimumRoll: minRoll ?? 'none',
    hits,
  };
  if (d6 !== undefined) {
    const reach = artilleryReach(d6, cover.covered, mortar);
    facts.reachIn = reach;
    checks.push(
      lengthVerdict(
        ctx,
        {
          question: 'reach',
          asked: `does a roll of ${d6} reach ${target.name}?`,
          reasons: [
            `${d6}${penalised ? ` − ${COVER_DIE_PENALTY} (target in ${cover.label})` : ''} × ${ARTILLERY_INCHES_PER_PIP}" = ${reach}" against ${inStr(m.mm)}${cover.covered && mortar ? '; mortars ignore cover' : ''}`,
          ],
          options: pick(ctx.options, 'artilleryFrom', 'coverRule'),
        },
        m,
        'atMost',
        reach,
      ),
    );
  }
  const { answer, lean } = allOf(checks);
  const reachCheck = checks.find((c) => c.question === 'reach');
  return d3Verdict({
    question: 'shoot',
    asked:
      d6 === undefined
        ? `can ${gun.name} shoot ${target.name}?`
        : `does ${gun.name} hit ${target.name} with a ${d6}?`,
    answer,
    lean,
    value: rangeIn,
    ...(reachCheck
      ? {
          limit: reachCheck.limit as number,
          margin: reachCheck.margin as number,
          epsilon: reachCheck.epsilon as number,
        }
      : {}),
    unit: 'in',
    between: [m.from, m.to],
    reasons:
      answer === 'no'
        ? failingReasons(checks)
        : d6 === undefined
          ? [
              `${inStr(m.mm)}: a D6 of ${minRoll ?? '(none)'} or more reaches${penalised ? ` (−${COVER_DIE_PENALTY} on the die: ${target.name} is in ${cover.label})` : ''}`,
              `each hit-roll that reaches causes ${hits} hit${hits > 1 ? 's' : ''}`,
            ]
          : [`hit: ${hits} hit${hits > 1 ? 's' : ''}`, ...(reachCheck?.reasons ?? [])],
    options: pick(ctx.options, 'arc', 'arcApex', 'arcPart', 'artilleryFrom', 'coverRule', 'mortarMinimum'),
    facts,
    checks,
  });
}

/** Either kind of shot, by the shooter's type. */
export const shootVerdict = (ctx: D3Context, shooter: TableUnit, target: TableUnit, d6?: number): Verdict =>
  shooter.type === 'artillery'
    ? artilleryVerdict(ctx, shooter, target, d6)
    : musketVerdict(ctx, shooter, target);
