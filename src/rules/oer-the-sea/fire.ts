import { shareInsideConvex } from '../../geometry/convex-clip.ts';
import { minBearingToPolygons } from '../../geometry/bearing.ts';
import { corridorPolygon } from '../../geometry/corridor.ts';
import { polygonSetSeparation } from '../../geometry/distance.ts';
import { frameFromHeading, toLocal } from '../../geometry/frame.ts';
import { ZONE_REACH } from '../../geometry/quarters.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { enemiesOf } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { separation, type Measured, possessive } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { enemiesNearestFirst } from '../engine/targets.ts';
import { epsilonFor } from '../engine/threshold.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { cm, cmStr, isLightHorse, lengthVerdict, otsVerdict, seenShare, type OtsContext } from './context.ts';
import type { OtsOptions } from './options.ts';
import { findGun, gunBand, MUSKET_RANGE, musketBand, type GunSpec } from './tables.ts';

/** The strips "directly ahead" of a unit, by reading (one polygon, or one per front stand). */
function aheadZones(unit: TableUnit, reading: OtsOptions['ahead']): Polygon[] {
  if (reading === 'standCorridors') {
    const tol = Math.max(2, 0.25 * Math.min(...unit.bases.map((b) => b.footprint.depth)));
    return unit.bases
      .filter((b) => Math.max(...b.polygon.map((p) => toLocal(unit.box.frame, p).y)) >= -tol)
      .map((b) => {
        const f = b.footprint;
        const front = frameFromHeading(f.center, f.headingDeg);
        return corridorPolygon(
          { frame: front, xMin: -f.width / 2, xMax: f.width / 2, yMin: f.depth / 2, yMax: Infinity },
          ZONE_REACH,
        );
      });
  }
  const box = unit.box;
  return [
    corridorPolygon(
      { frame: box.frame, xMin: -box.width / 2, xMax: box.width / 2, yMin: 0, yMax: Infinity },
      ZONE_REACH,
    ),
  ];
}

/** Is the target directly ahead of the unit (option ahead)? Touching the strip's edge only is too close to call. */
export function aheadVerdict(
  ctx: OtsContext,
  shooter: TableUnit,
  target: TableUnit,
  reading: OtsOptions['ahead'] = ctx.options.ahead,
): Verdict {
  const asked = `is ${target.name} directly ahead of ${shooter.name}?`;
  if (reading === 'centreRay') {
    const b = minBearingToPolygons(shooter.leader, shooter.facing, target.bodyPolygons);
    return otsVerdict({
      question: 'ahead',
      asked,
      answer: b.deg === 0 ? 'yes' : 'no',
      value: b.deg,
      unit: 'deg',
      reasons: [
        b.deg === 0
          ? `the line straight ahead from ${possessive(shooter.name)} centre meets ${target.name}`
          : `the line straight ahead from ${possessive(shooter.name)} centre misses ${target.name} (${b.deg.toFixed(1)}° off)`,
      ],
      options: { ahead: reading },
    });
  }
  const zones = aheadZones(shooter, reading);
  // Strips are convex; several stand strips may overlap, so take the best-covered reading per base.
  const share =
    zones.length === 1
      ? shareInsideConvex(target.bodyPolygons, zones[0] as Polygon)
      : Math.max(...zones.map((z) => shareInsideConvex(target.bodyPolygons, z)));
  const gap = polygonSetSeparation(target.bodyPolygons, zones);
  const eps = epsilonFor(ctx.policy, cm(Math.hypot(shooter.sigmaMm, target.sigmaMm)));
  const touching = share <= 1e-9 && cm(gap.distance) <= Math.max(eps, 1e-6);
  return otsVerdict({
    question: 'ahead',
    asked,
    answer: share > 1e-9 ? 'yes' : touching ? 'borderline' : 'no',
    lean: share > 1e-9 ? 'yes' : 'no',
    value: share,
    reasons: [
      share > 1e-9
        ? `${(share * 100).toFixed(0)}% of ${target.name} lies straight ahead of ${possessive(shooter.name)} ${reading === 'corridor' ? 'frontage' : 'front stands'}`
        : touching
          ? `${target.name} only touches the edge of the strip ahead of ${shooter.name}: too close to call`
          : `${target.name} is not straight ahead of ${shooter.name} (${cmStr(gap.distance)} to the side)`,
    ],
    options: { ahead: reading },
    facts: { share },
  });
}

export interface SeenEnemy {
  readonly unit: TableUnit;
  readonly gap: Measured;
  readonly ahead: Verdict;
}

/** Enemies the shooter can see, nearest first, each with whether it is directly ahead. */
export function visibleEnemies(ctx: OtsContext, shooter: TableUnit): SeenEnemy[] {
  return enemiesNearestFirst(
    ctx.state,
    shooter,
    (e) =>
      seenShare(ctx, shooter, e).share > 0
        ? { unit: e, gap: separation(shooter.bases, e.bases), ahead: aheadVerdict(ctx, shooter, e) }
        : undefined,
    (s) => s.gap.mm,
  );
}

/**
 * Small-arms fire: only at the nearest visible enemy (among those ahead, or overall and then only
 * if it is ahead — option targetChoice), within 30 cm; +1 to hit within 15 cm.
 */
export function smallArmsVerdict(ctx: OtsContext, shooter: TableUnit, target: TableUnit): Verdict {
  const S = shooter.name;
  const T = target.name;
  const problems: string[] = [];
  if (shooter.type === 'artillery') problems.push(`${S} fires as artillery`);
  if (shooter.type === 'cavalry' && !isLightHorse(shooter))
    problems.push(`${S} is mounted and cannot fire (only Light Horse fire mounted)`);
  if (target.side === shooter.side) problems.push(`${T} is a friend`);
  const checks: Verdict[] = [
    otsVerdict({
      question: 'mayFire',
      asked: `may ${S} fire?`,
      answer: problems.length ? 'no' : 'yes',
      reasons: problems.length ? problems : [`${S} may fire`],
    }),
  ];
  const seen = visibleEnemies(ctx, shooter);
  const ahead = aheadVerdict(ctx, shooter, target);
  checks.push(ahead);
  const pool =
    ctx.options.targetChoice === 'nearestAhead' ? seen.filter((s) => s.ahead.lean === 'yes') : seen;
  const chosen = pool[0];
  const isChosen = chosen?.unit.id === target.id;
  checks.push(
    otsVerdict({
      question: 'target',
      asked: `is ${T} the enemy ${S} must fire at?`,
      answer:
        isChosen && (ctx.options.targetChoice === 'nearestAhead' || ahead.lean === 'yes') ? 'yes' : 'no',
      reasons: [
        !chosen
          ? `${S} sees no enemy${ctx.options.targetChoice === 'nearestAhead' ? ' directly ahead' : ''}`
          : isChosen
            ? `${T} is the nearest visible enemy${ctx.options.targetChoice === 'nearestAhead' ? ' directly ahead' : ''} (${cmStr(chosen.gap.mm)})`
            : ctx.options.targetChoice === 'nearestVisible' && chosen.ahead.lean !== 'yes'
              ? `the nearest visible enemy, ${chosen.unit.name} (${cmStr(chosen.gap.mm)}), is not directly ahead: ${S} cannot fire`
              : `${chosen.unit.name} is nearer (${cmStr(chosen.gap.mm)}) and must be fired at`,
      ],
      options: pick(ctx.options, 'targetChoice'),
      facts: { mustTarget: chosen?.unit.name ?? 'none' },
    }),
  );
  const g = separation(shooter.bases, target.bases);
  const range = lengthVerdict(
    ctx,
    { question: 'range', asked: `is ${T} within ${MUSKET_RANGE} cm?`, reasons: [`${cmStr(g.mm)} to ${T}`] },
    g,
    'atMost',
    MUSKET_RANGE,
  );
  checks.push(range);
  const band = musketBand(cm(g.mm));
  const { answer, lean } = allOf(checks);
  return otsVerdict({
    question: 'shoot',
    asked: `can ${S} shoot ${T}?`,
    answer,
    lean,
    ...measuredBy(range),
    reasons:
      answer === 'no'
        ? failingReasons(checks)
        : [`${cmStr(g.mm)}: ${band} range, hits on ${band === 'short' ? 4 : 5}+`],
    options: pick(ctx.options, 'ahead', 'targetChoice', 'sightBlockers'),
    facts: { band, hitOn: band === 'short' ? 4 : 5 },
    checks,
  });
}

/**
 * Artillery: any enemy it can see (or only those ahead, option artilleryArc), by its range table;
 * an enemy within short range that it can see must be engaged first. Siege guns fire only at
 * fortifications; mortars refuse targets under their minimum.
 */
export function artilleryVerdict(ctx: OtsContext, gun: TableUnit, target: TableUnit): Verdict {
  const spec: GunSpec | undefined =
    findGun(gun.weapon) ??
    findGun(gun.troop) ??
    (gun.type === 'artillery' ? findGun('light gun') : undefined);
  const G = gun.name;
  const T = target.name;
  const problems: string[] = [];
  if (!spec) problems.push(`${G} is not artillery`);
  if (spec?.siege) problems.push('siege guns fire only at fortifications');
  if (target.side === gun.side) problems.push(`${T} is a friend`);
  const checks: Verdict[] = [
    otsVerdict({
      question: 'mayFire',
      asked: `may ${G} fire at ${T}?`,
      answer: problems.length ? 'no' : 'yes',
      reasons: problems.length ? problems : [`${G} may fire`],
    }),
  ];
  const sight = seenShare(ctx, gun, target);
  checks.push(
    otsVerdict({
      question: 'visible',
      asked: `can ${G} see ${T}?`,
      answer: sight.share > 0 ? 'yes' : 'no',
      reasons: [
        sight.share > 0
          ? `${(sight.share * 100).toFixed(0)}% of ${T} in sight`
          : `${T} is out of sight (${sight.hiddenBy.join(', ')})`,
      ],
      options: pick(ctx.options, 'sightBlockers'),
    }),
  );
  if (ctx.options.artilleryArc === 'ahead') checks.push(aheadVerdict(ctx, gun, target));
  const g = separation(gun.body, target.bases);
  const d = cm(g.mm);
  const minInclusive = ctx.options.mortarMinimum === 'inclusive';
  const band = spec ? gunBand(spec, d, minInclusive) : 'out';
  if (spec) {
    const [, , long] = spec.bands;
    checks.push(
      lengthVerdict(
        ctx,
        {
          question: 'range',
          asked: `is ${T} within ${long} cm?`,
          reasons: [`${cmStr(g.mm)}: ${band} range`],
        },
        g,
        'atMost',
        long,
      ),
    );
    if (spec.min !== undefined)
      checks.push(
        lengthVerdict(
          ctx,
          {
            question: 'minimumRange',
            asked: `is ${T} beyond the ${possessive(spec.type)} ${spec.min} cm minimum?`,
            reasons: [`${cmStr(g.mm)}; a ${spec.type} has no band under ${spec.min} cm`],
            options: pick(ctx.options, 'mortarMinimum'),
          },
          g,
          minInclusive ? 'atLeast' : 'moreThan',
          spec.min,
        ),
      );
    if (band !== 'short' && !spec.mortar) {
      const threats = enemiesOf(ctx.state, gun)
        .filter((e) => e.id !== target.id)
        .map((e) => ({ e, m: separation(gun.body, e.bases) }))
        .filter(
          ({ e, m }) => gunBand(spec, cm(m.mm), minInclusive) === 'short' && seenShare(ctx, gun, e).share > 0,
        )
        .sort((a, b) => a.m.mm - b.m.mm);
      const first = threats[0];
      checks.push(
        otsVerdict({
          question: 'priority',
          asked: `must ${G} engage a closer threat first?`,
          answer: first ? 'no' : 'yes',
          reasons: [
            first
              ? `${first.e.name} is within short range (${cmStr(first.m.mm)}) and must be engaged first`
              : 'no visible enemy within short range',
          ],
          facts: { mustTarget: first?.e.name ?? 'none' },
        }),
      );
    }
  }
  const { answer, lean } = allOf(checks);
  const mods = band === 'short' ? '+1 short range' : band === 'long' ? '−1 long range' : '';
  return otsVerdict({
    question: 'shoot',
    asked: `can ${G} shoot ${T}?`,
    answer,
    lean,
    value: d,
    ...(spec ? { limit: spec.bands[2] } : {}),
    unit: 'cm',
    between: [g.from, g.to],
    reasons:
      answer === 'no'
        ? failingReasons(checks)
        : [`${cmStr(g.mm)}: ${band} range, ${spec?.dice ?? 0}D6 per gun${mods ? `, ${mods}` : ''}`],
    options: pick(ctx.options, 'artilleryArc', 'mortarMinimum', 'sightBlockers'),
    facts: { band, dice: spec?.dice ?? 0, gun: spec?.type ?? 'none' },
    checks,
  });
}

export const shootVerdict = (ctx: OtsContext, shooter: TableUnit, target: TableUnit): Verdict =>
  shooter.type === 'artillery'
    ? artilleryVerdict(ctx, shooter, target)
    : smallArmsVerdict(ctx, shooter, target);
