import { regionIntersection } from '../../geometry/boolean.ts';
import { pointToPolygonSet } from '../../geometry/distance.ts';
import type { Gap } from '../../geometry/gap.ts';
import { containsPoint, type Polygon } from '../../geometry/polygon.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { failingReasons, measuredBy } from '../engine/composite.ts';
import { pick } from '../engine/options.ts';
import { pairCached } from '../engine/pair-cache.ts';
import { enemiesNearestFirst } from '../engine/targets.ts';
import { allOf, type OptionValue, type Verdict } from '../engine/verdict.ts';
import { bandOf, minimumRangeVerdict, overheadVerdict } from './artillery.ts';
import {
  bpVerdict,
  inches,
  inStr,
  isDeployedArtillery,
  isSkirmish,
  mmOf,
  poss,
  weaponOf,
  type BpContext,
  type Measured,
} from './context.ts';
import { priorityVerdict } from './priority.ts';
import { bpQuarterPolygon } from './quarters.ts';
import {
  arcChecks,
  coverCheck,
  frontQuarterChecks,
  inBuildingCheck,
  visibilityChecks,
} from './shot-checks.ts';
import { hiderWords, seen, sightBlocker } from './sight.ts';
import { bandChecks, outOfRangeWhateverSeen, rangeLimitsIn, shotRange } from './shot-range.ts';
import { clearTarget, shotModifiers } from './shot-clear.ts';
import { gapChecks } from './shot-gap.ts';
import {
  narrowPartReadings,
  seenPartAcrossReadings,
  seenPartHiderReadings,
  seenPastWoodReadings,
  seenPastWoodAlongReadings,
} from './seen-part-readings.ts';
import { measureFrom, type OtherReading } from './range.ts';
import { inCombat } from './in-combat.ts';
import { smallArmsBand, type Weapon } from './tables.ts';
import type { ShotAssessment } from './shot-assessment.ts';
import { hypot } from '../../geometry/hypot.ts';

const isGun = (u: TableUnit, w: Weapon | undefined): boolean =>
  u.type === 'artillery' && !!u.barrel && !!w && w.kind !== 'smallArms';

/** A check of conditions: no when any problem stands, else too close to call when one is in doubt. */
function flagCheck(
  question: string,
  asked: string,
  problems: readonly string[],
  fine: string,
  doubt?: string,
): Verdict {
  if (problems.length === 0 && doubt)
    return bpVerdict({ question, asked, answer: 'borderline', lean: 'yes', reasons: [fine, doubt] });
  return bpVerdict({
    question,
    asked,
    answer: problems.length ? 'no' : 'yes',
    reasons: problems.length ? [problems.join('; ')] : [fine],
  });
}

/** Is the unit inside a building (its leader point within a building outline)? */
export function inBuilding(ctx: BpContext, u: TableUnit): string | undefined {
  return ctx.state.terrain.find(
    (t) => t.kind === 'building' && t.polygon && containsPoint(t.polygon, u.leader),
  )?.label;
}

/** The eye's one-sigma position error: the unit's, plus its heading error across the leader base. */
export const eyeSigma = (u: TableUnit): number =>
  hypot(u.sigmaMm, (u.frontage / 2) * ((u.sigmaHeadingDeg * Math.PI) / 180));

/**
 * Decides everything about `shooter` shooting `target` except which target it must choose
 * (remembered per pair while a pair cache is active: target priority assesses every enemy).
 */
export const assessShot = (ctx: BpContext, shooter: TableUnit, target: TableUnit): ShotAssessment =>
  pairCached(ctx, 'bp.assessShot', shooter, target, () => assessShotAfresh(ctx, shooter, target));

function assessShotAfresh(ctx: BpContext, shooter: TableUnit, target: TableUnit): ShotAssessment {
  const weapon = weaponOf(shooter);
  const gun = isGun(shooter, weapon);
  const eye = gun && shooter.barrel ? shooter.barrel.tip : shooter.leader;
  const checks: Verdict[] = [];
  const facts: Record<string, OptionValue> = {};
  const S = shooter.name;
  const T = target.name;

  // In hand-to-hand combat: flagged so, or touching an enemy on the table (too close to call
  // within the band of the contact tolerance, as for supports).
  const shooterFight = inCombat(ctx, shooter);
  const targetFight = inCombat(ctx, target);
  const shooterProblems: string[] = [];
  if (!weapon) shooterProblems.push(`${S} has no missile weapon`);
  if (shooterFight.tri === 'yes') shooterProblems.push(`${S} is in hand-to-hand combat and may not shoot`);
  if (shooter.formationInUse === 'marchColumn')
    shooterProblems.push(`${S} is in march column and has no shooting dice`);
  if (shooter.type === 'artillery' && !isDeployedArtillery(shooter)) shooterProblems.push(`${S} is limbered`);
  checks.push(
    flagCheck(
      'mayShoot',
      `may ${S} shoot at all?`,
      shooterProblems,
      `${S} is free to shoot`,
      shooterFight.tri === 'maybe'
        ? `whether ${S} touches an enemy (and so is in combat) is too close to call`
        : undefined,
    ),
  );
  const targetProblems: string[] = [];
  if (target.side === shooter.side) targetProblems.push(`${T} is on the same side`);
  if (targetFight.tri === 'yes') targetProblems.push(`${T} is in hand-to-hand combat and cannot be targeted`);
  checks.push(
    flagCheck(
      'validTarget',
      `is ${T} a valid target?`,
      targetProblems,
      `${T} is an enemy not in combat`,
      targetFight.tri === 'maybe'
        ? `whether ${T} touches an enemy (and so is in combat) is too close to call`
        : undefined,
    ),
  );

  // Early outs: what no sight, quarter or cover could turn into a yes is answered without them.
  const settled = (
    why: NonNullable<ShotAssessment['settledEarly']>,
    out?: { range: Measured; rangeCheck: Verdict },
  ): ShotAssessment => {
    if (out) {
      checks.push(out.rangeCheck);
      facts.range = inches(out.range.mm);
      facts.band = 'out';
    }
    return {
      shooter,
      target,
      ...(weapon ? { weapon } : {}),
      eye,
      ...(out ? { range: out.range, rangeCheck: out.rangeCheck } : {}),
      overhead: false,
      eligible: false,
      answer: 'no',
      clear: false,
      clearBorderline: false,
      notClear: [],
      band: 'out',
      checks,
      facts,
      settledEarly: why,
    };
  };
  if (shooterProblems.length > 0 || targetProblems.length > 0) return settled('notAllowed');
  const far = weapon && outOfRangeWhateverSeen(ctx, shooter, gun, weapon, target);
  if (far) return settled('outOfRange', far);

  // Front quarter, or a gun's arc; the half tests feed the clear-target verdict.
  const zone = gun ? arcChecks(ctx, shooter, target) : frontQuarterChecks(ctx, shooter, target);
  checks.push(zone.any);
  if (zone.half) checks.push(zone.half);
  facts.frontShare = zone.share;

  // Sight, exact (howitzers, mortars and rockets see and shoot over their own troops).
  const overSide =
    weapon && (weapon.kind === 'howitzer' || weapon.kind === 'rocket') ? shooter.side : undefined;
  const sightOpts = { exclude: new Set([shooter.id, target.id]), ...(overSide ? { overSide } : {}) };
  let view = seen(ctx, eye, eyeSigma(shooter), target, sightOpts);
  let overhead = false;
  let overheadCheck: Verdict | undefined;
  if (gun && weapon?.kind === 'cannon' && view.region.share < 1) {
    const past = seen(ctx, eye, eyeSigma(shooter), target, { ...sightOpts, ignoreUnits: true });
    if (past.region.share > view.region.share && past.region.nearest) {
      const aim = past.region.nearest;
      overheadCheck = overheadVerdict(
        ctx,
        shooter,
        target,
        aim,
        bandOf(weapon, inches(hypot(aim.x - eye.x, aim.y - eye.y))),
      );
      if (overheadCheck.answer !== 'no' && view.region.share === 0) {
        overhead = true;
        view = past;
      }
    }
  }
  const visible = view.region;
  const viewOpts = overhead ? { ...sightOpts, ignoreUnits: true } : sightOpts;
  facts.visibleShare = visible.share;
  // With nothing seen, say what stands on the straight line to the nearest part of the target.
  const blocker =
    visible.share === 0
      ? sightBlocker(ctx, eye, pointToPolygonSet(eye, target.bodyPolygons).onB, sightOpts)
      : undefined;
  const sight = visibilityChecks(
    ctx,
    view,
    `${poss(S)} ${gun ? 'gun crew' : 'leader'}`,
    target,
    overhead ? ' by firing overhead' : '',
    blocker ? hiderWords(blocker) : undefined,
  );
  // Seen only by firing overhead, and whether the gun may is too close to call: so is any of it seen.
  const any =
    overhead && overheadCheck?.answer === 'borderline' && sight.any.answer === 'yes'
      ? {
          ...sight.any,
          answer: 'borderline' as const,
          reasons: [
            ...sight.any.reasons,
            'too close to call: whether the gun may fire overhead is too close to call',
          ],
        }
      : sight.any;
  checks.push(any, sight.half);
  if (overheadCheck && overhead) checks.push(overheadCheck);

  // Range, to the nearest part seen (optionally only the part in the front quarter).
  let range: Measured | undefined;
  let rangeCheck: Verdict | undefined;
  let band = 'out';
  let gap: Gap | undefined;
  if (weapon && visible.share > 0) {
    const rangePart = (seenPolys: readonly Polygon[]): readonly Polygon[] => {
      if (!ctx.options.rangeToFrontQuarterPart || gun || isSkirmish(shooter)) return seenPolys;
      const part = regionIntersection(seenPolys, [bpQuarterPolygon(ctx, shooter, 'front')]);
      return part.length > 0 ? part : seenPolys;
    };
    const polys = rangePart(visible.share < 1 ? visible.polygons : target.bodyPolygons);
    const toWords = polys === target.bodyPolygons ? undefined : `the nearest seen part of ${T}`;
    if (polys !== target.bodyPolygons) facts.rangeToVisiblePart = true;
    let others: readonly OtherReading[];
    // The part seen ends at shadows' edges, which move with the hiders: its nearest point may be
    // on one, or a shadow may sweep over it. The range to it is as unsure as the sight is.
    const edgeSigma = visible.share < 1 ? view.sigmaMm : 0;
    const seenRange = { ctx, shooter, gun, target, view, rangePart, toWords };
    ({ range, rangeCheck, others } = shotRange(
      ctx,
      shooter,
      gun,
      weapon,
      target,
      polys,
      toWords,
      [],
      edgeSigma,
      [
        ...seenPastWoodReadings(seenRange, eye, eyeSigma(shooter), viewOpts),
        ...narrowPartReadings(seenRange),
        // Where the part seen slides along the target, against every range that changes the answer.
        ...rangeLimitsIn(weapon).flatMap((limit) => [
          ...seenPartAcrossReadings(seenRange, mmOf(limit)),
          ...seenPartHiderReadings(seenRange, mmOf(limit)),
          ...seenPastWoodAlongReadings(seenRange, mmOf(limit)),
        ]),
      ],
    ));
    const r = range;
    checks.push(rangeCheck);
    const rIn = inches(r.mm);
    band = weapon.kind === 'smallArms' ? smallArmsBand(weapon.max, rIn) : bandOf(weapon, rIn);
    checks.push(...bandChecks(ctx, weapon, r, T, others));
    const minCheck = minimumRangeVerdict(ctx, weapon, r);
    if (minCheck) checks.push(minCheck);
    facts.range = rIn;
    facts.band = band;

    // Gaps the line of fire passes through.
    const gaps = gapChecks(
      ctx,
      shooter,
      target,
      eye,
      r,
      gun,
      weapon,
      polys,
      new Set(visible.hiddenBy.map((h) => h.id)),
      others,
    );
    gap = gaps.gap;
    checks.push(...gaps.checks);
    if (gap) facts.gap = inches(gap.width);
    if (overhead) facts.overhead = true;
  }

  // Clear-target tests that depend on the target alone.
  const building = inBuildingCheck(ctx, target);
  if (building) checks.push({ ...building, role: 'modifier' });
  if (!building || building.lean === 'no') {
    const cover = coverCheck(ctx, eye, eyeSigma(shooter), target);
    facts.coverShare = cover.share;
    if (cover.check) {
      checks.push(cover.check);
      if (cover.check.lean === 'yes') facts.coverSave = cover.kind === 'heavy' ? 2 : 1;
    }
  }
  const { notClear, clearBorderline } = clearTarget(checks, shooter, target);
  const { answer } = allOf(checks);
  const clear = notClear.length === 0;
  facts.clear = clear;
  if (clearBorderline) facts.clearBorderline = true;
  const modifiers: string[] = [];
  if (weapon && range) {
    const m = shotModifiers(ctx, checks, { shooter, target, weapon, gun, overhead, clear, clearBorderline });
    modifiers.push(...m.modifiers);
    checks.push(m.enfilade);
    facts.enfiladed = m.enfilade.lean === 'yes';
  }
  facts.modifiers = modifiers.join(', ');
  return {
    shooter,
    target,
    ...(weapon ? { weapon } : {}),
    eye,
    ...(range ? { range } : {}),
    ...(!range && weapon && visible.share === 0 && sight.any.answer === 'borderline'
      ? { rangeIfSeen: measureFrom(ctx, shooter, gun, target) }
      : {}),
    ...(rangeCheck ? { rangeCheck } : {}),
    frontShare: zone.share,
    visible,
    overhead,
    ...(gap ? { gap } : {}),
    eligible: answer !== 'no',
    answer,
    clear,
    clearBorderline,
    notClear,
    band,
    checks,
    facts,
  };
}

/** Every enemy the shooter could shoot (eligible, or too close to call), nearest first. */
export function shootCandidates(ctx: BpContext, shooter: TableUnit): ShotAssessment[] {
  return enemiesNearestFirst(
    ctx.state,
    shooter,
    (t) => {
      const a = assessShot(ctx, shooter, t);
      if (!a.eligible) return undefined;
      if (a.range) return a;
      return a.rangeIfSeen ? { ...a, range: a.rangeIfSeen } : undefined;
    },
    (a) => a.range?.mm ?? Infinity,
  );
}

/** "Can S shoot T?": eligibility, range, gaps and target priority, with the clear-target verdict and modifiers as facts. */
export function shootVerdict(ctx: BpContext, shooter: TableUnit, target: TableUnit): Verdict {
  const shot = assessShot(ctx, shooter, target);
  const checks = [...shot.checks];
  if (shot.eligible && shot.range) checks.push(priorityVerdict(ctx, shot, shootCandidates(ctx, shooter)));
  const { answer, lean } = allOf(checks);
  const clearWords = shot.clear
    ? `${target.name} is a clear target${shot.clearBorderline ? ' (too close to call)' : ''}`
    : `not a clear target (−1${shot.clearBorderline ? ', too close to call' : ''}): ${shot.notClear.join('; ')}`;
  const reasons =
    answer === 'no'
      ? failingReasons(checks, 'notYes')
      : [
          ...(answer === 'yes'
            ? [
                `${shooter.name} may shoot ${target.name}${shot.range ? ` at ${inStr(shot.range.mm)} (${shot.band})` : ''}`,
              ]
            : failingReasons(checks, 'notYes')),
          ...(shot.rangeCheck && answer === 'yes' ? [shot.rangeCheck.reasons[0] as string] : []),
          clearWords,
        ];
  return bpVerdict({
    question: 'shoot',
    asked: `can ${shooter.name} shoot ${target.name}?`,
    answer,
    lean,
    ...measuredBy(shot.rangeCheck),
    reasons: [
      ...reasons,
      ...(answer !== 'no' && shot.facts.modifiers ? [`modifiers: ${String(shot.facts.modifiers)}`] : []),
    ],
    options: pick(
      ctx.options,
      'quarterReading',
      'rangeFrom',
      'halfMeasure',
      'gapReading',
      'woodsSightDepthIn',
    ),
    facts: shot.settledEarly ? shot.facts : { ...shot.facts, notClear: shot.notClear.join('; ') },
    checks,
  });
}

export { priorityVerdict } from './priority.ts';
