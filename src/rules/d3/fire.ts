import { intersectionArea, regionArea } from '../../geometry/boolean.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { withAlternatives } from '../engine/alternatives.ts';
import { pointName } from '../engine/parts.ts';
import { probedQuantity } from '../engine/probe.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { separation, type Measured } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { sightVerdict } from '../engine/sight-verdict.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import {
  D3,
  d3Seen,
  d3Verdict,
  fromFrontCentre,
  inches,
  inStr,
  isSeasoned,
  lengthVerdict,
  thresholdVerdict,
  troopOf,
  type D3Context,
} from './context.ts';
import { fieldOfFireVerdict } from './field.ts';
import { ARTILLERY_INCHES_PER_PIP, COVER_DIE_PENALTY, MORTAR_MIN_RANGE, MUSKET_RANGE } from './tables.ts';

/** Can the shooter's front centre see the target (some of it, exactly)? */
function sightCheck(ctx: D3Context, shooter: TableUnit, target: TableUnit): Verdict {
  return sightVerdict(
    D3,
    ctx,
    d3Seen(ctx, shooter, target),
    {
      question: 'visible',
      asked: `can ${shooter.name} see ${target.name}?`,
      options: pick(ctx.options, 'sightBlockers'),
    },
    shooter,
    target,
  );
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
      reasons: [`${inStr(m.mm)} from ${m.fromName} to ${m.toName}`],
    },
    m,
    'atMost',
    MUSKET_RANGE,
  );
  checks.push(range, sightCheck(ctx, shooter, target));
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
): { covered: boolean; share: number; label: string; check?: Verdict } {
  const cover = ctx.state.terrain.filter(
    (t) => t.polygon && (t.kind === 'wood' || t.kind === 'building' || t.cover !== 'none'),
  );
  const total = regionArea(target.bodyPolygons);
  const shareOf = (polys: readonly Polygon[]): { share: number; label: string } => {
    let best = { share: 0, label: '' };
    for (const t of cover) {
      const s = total === 0 ? 0 : intersectionArea(polys, [t.polygon ?? []]) / total;
      if (s > best.share) best = { share: s, label: t.label };
    }
    return best;
  };
  const now = shareOf(target.bodyPolygons);
  const any = ctx.options.coverRule === 'anyPart';
  const covered = any ? now.share > 1e-9 : now.share >= 0.5 - 1e-9;
  if (cover.length === 0) return { covered, ...now };
  // How far the target would have to move to change it: probed along the table's two axes.
  const sigma = target.sigmaMm;
  const band = D3.bandMm(ctx, sigma);
  const shifted = (dx: number, dy: number) => (o: number) =>
    shareOf(target.bodyPolygons.map((p) => p.map((q) => ({ x: q.x + dx * o, y: q.y + dy * o })))).share * 100;
  const q = probedQuantity(
    now.share * 100,
    '%',
    [shifted(1, 0), shifted(0, 1)],
    sigma,
    any ? 'moreThan' : 'atLeast',
    any ? 0 : 50,
    band,
  );
  const check = thresholdVerdict(
    ctx,
    {
      question: 'inCover',
      asked: `is ${target.name} in cover, woods or buildings?`,
      role: 'modifier',
      reasons: [`${(now.share * 100).toFixed(0)}% of ${target.name} is inside ${now.label || 'cover'}`],
      options: pick(ctx.options, 'coverRule'),
    },
    q,
    any ? 'moreThan' : 'atLeast',
    any ? 0 : 50,
  );
  return { covered, ...now, check };
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
      : (() => {
          const s = separation(gun.body, target.bases);
          return { ...s, fromName: pointName(gun, s.from), toName: pointName(target, s.to) };
        })();
  const rangeIn = inches(m.mm);
  const atEighteen = ctx.options.mortarMinimum === 'eighteenAllowed';
  const minimum = mortar
    ? lengthVerdict(
        ctx,
        {
          question: 'mortarMinimum',
          asked: `is ${target.name} beyond the mortar's ${MORTAR_MIN_RANGE}" minimum?`,
          reasons: [
            `${inStr(m.mm)}: mortars cannot target units ${atEighteen ? 'under' : 'at or under'} ${MORTAR_MIN_RANGE}"`,
          ],
          options: pick(ctx.options, 'mortarMinimum'),
        },
        m,
        atEighteen ? 'atLeast' : 'moreThan',
        MORTAR_MIN_RANGE,
      )
    : undefined;
  if (minimum) checks.push(minimum);
  const cover = targetInCover(ctx, target);
  if (cover.check && !mortar) checks.push(cover.check);
  const penalised = cover.covered && !mortar;
  let minRoll: number | undefined;
  // Under the mortar's minimum no roll hits, however far it would reach.
  for (let r = 1; r <= 6 && minRoll === undefined && minimum?.lean !== 'no'; r++)
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
    const otherReach = artilleryReach(d6, !cover.covered, mortar);
    checks.push(
      withAlternatives(
        lengthVerdict(
          ctx,
          {
            question: 'reach',
            asked: `does a roll of ${d6} reach ${target.name}?`,
            reasons: [
              `${d6}${penalised ? ` − ${COVER_DIE_PENALTY} (target in ${cover.label})` : ''} × ${ARTILLERY_INCHES_PER_PIP}" = ${reach}" against ${inStr(m.mm)} from ${m.fromName} to ${m.toName}${cover.covered && mortar ? '; mortars ignore cover' : ''}`,
            ],
            options: pick(ctx.options, 'artilleryFrom', 'coverRule'),
          },
          m,
          'atMost',
          reach,
        ),
        cover.check && !mortar
          ? [
              {
                lean: inches(m.mm) <= otherReach + 1e-9 ? 'yes' : 'no',
                switchMm: cover.check.moveMm ?? Infinity,
                why: `whether ${target.name} counts as in cover is close`,
              },
            ]
          : [],
        D3.bandMm(ctx, m.sigmaMm),
        'in',
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
          ...(reachCheck.moveMm !== undefined ? { moveMm: reachCheck.moveMm } : {}),
          ...(reachCheck.bandMm !== undefined ? { bandMm: reachCheck.bandMm } : {}),
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

export { fieldOfFireVerdict, fieldHalfAngle } from './field.ts';
