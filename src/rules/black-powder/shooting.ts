import { regionIntersection } from '../../geometry/boolean.ts';
import { pointToPolygonSet, polygonSetSeparation } from '../../geometry/distance.ts';
import { gapAlongLine, type Gap } from '../../geometry/gap.ts';
import { containsPoint, type Polygon } from '../../geometry/polygon.ts';
import { segmentInsidePolygon } from '../../geometry/segment-clip.ts';
import { visibleFractionBy, type Hider, type VisibilityResult } from '../../geometry/visibility.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { pick } from '../engine/options.ts';
import { enemiesNearestFirst } from '../engine/targets.ts';
import { compare } from '../engine/threshold.ts';
import { allOf, type OptionValue, type Verdict } from '../engine/verdict.ts';
import { pointToUnit, unitSeparation } from '../unit-distance.ts';
import { arcShare, bandOf, minimumRangeVerdict, overheadVerdict } from './artillery.ts';
import {
  bpVerdict,
  inches,
  inStr,
  isDeployedArtillery,
  isSkirmish,
  lengthVerdict,
  mmOf,
  weaponOf,
  type BpContext,
  type Measured,
  poss,
} from './context.ts';
import { enfiladeVerdict } from './enfilade.ts';
import { bpQuarterPolygon, frontFraction } from './quarters.ts';
import { gapObstacles, hiderWords, sightBlocker, visiblePart, visibleShare } from './sight.ts';
import { GAP_CANNON, GAP_SMALL_ARMS, smallArmsBand, type Weapon } from './tables.ts';

/** Everything decided about one shooter–target pair, before target priority. */
export interface ShotAssessment {
  readonly shooter: TableUnit;
  readonly target: TableUnit;
  readonly weapon?: Weapon;
  /** Where seeing is judged from: the leader, or a gun's barrel tip. */
  readonly eye: Vec2;
  readonly range?: Measured;
  /** Share in the front quarter (or, for guns, in the 45° arc). */
  readonly frontShare: number;
  readonly visible: VisibilityResult;
  readonly overhead: boolean;
  readonly gap?: Gap;
  /** Eligible: front quarter, visible, in range, not in combat, not under a minimum range. */
  readonly eligible: boolean;
  readonly answer: Verdict['answer'];
  readonly clear: boolean;
  readonly notClear: readonly string[];
  readonly band: string;
  readonly checks: readonly Verdict[];
  readonly facts: Readonly<Record<string, OptionValue>>;
}

const isGun = (u: TableUnit, w: Weapon | undefined): boolean =>
  u.type === 'artillery' && !!u.barrel && !!w && w.kind !== 'smallArms';

function check(
  question: string,
  asked: string,
  ok: boolean,
  reason: string,
  facts: Record<string, OptionValue> = {},
): Verdict {
  return bpVerdict({ question, asked, answer: ok ? 'yes' : 'no', reasons: [reason], facts });
}

/** Share of the target in cover as seen from the eye: inside woods/buildings, or behind an obstacle. */
function coverShare(
  ctx: BpContext,
  eye: Vec2,
  target: TableUnit,
): { share: number; kind: string; label: string } {
  const cover = ctx.state.terrain.filter((t) => t.cover !== 'none' && t.polygon);
  if (cover.length === 0) return { share: 0, kind: 'none', label: '' };
  let heavy = false;
  let label = '';
  const covered = (e: Vec2, p: Vec2): Hider | undefined => {
    for (const t of cover) {
      const poly = t.polygon as Polygon;
      const linear = t.kind === 'obstacle';
      if ((!linear && containsPoint(poly, p)) || (linear && segmentInsidePolygon(e, p, poly).length > 0)) {
        if (t.cover === 'heavy') heavy = true;
        label = t.label;
        return { id: t.id, label: t.label };
      }
    }
    return undefined;
  };
  const r = visibleFractionBy(eye, target.bodyPolygons, covered, ctx.options.samplesPerSide);
  return { share: 1 - r.fraction, kind: heavy ? 'heavy' : 'light', label };
}

/** Is the unit inside a building (its leader point within a building outline)? */
export function inBuilding(ctx: BpContext, u: TableUnit): string | undefined {
  return ctx.state.terrain.find(
    (t) => t.kind === 'building' && t.polygon && containsPoint(t.polygon, u.leader),
  )?.label;
}

/** Range from the shooter's range origin (option rangeFrom; barrel tip for guns) to a set of target polygons. */
function rangeTo(
  ctx: BpContext,
  shooter: TableUnit,
  gun: boolean,
  target: TableUnit,
  polys: readonly Polygon[],
  to?: Vec2,
): Measured {
  if (gun && shooter.barrel) {
    const tip = shooter.barrel.tip;
    if (to)
      return {
        mm: Math.hypot(to.x - tip.x, to.y - tip.y),
        sigmaMm: Math.hypot(shooter.sigmaMm, target.sigmaMm),
        from: tip,
        to,
      };
    const s = pointToPolygonSet(tip, polys);
    return { mm: s.distance, sigmaMm: Math.hypot(shooter.sigmaMm, target.sigmaMm), from: tip, to: s.onB };
  }
  const mode = ctx.options.rangeFrom;
  if (to) {
    if (mode === 'leaderPoint')
      return {
        mm: Math.hypot(to.x - shooter.leader.x, to.y - shooter.leader.y),
        sigmaMm: Math.hypot(shooter.sigmaMm, target.sigmaMm),
        from: shooter.leader,
        to,
      };
    const s = pointToUnit(to, target.sigmaMm, mode === 'leaderBase' ? [shooter.leaderBase] : shooter.body);
    return { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onB, to };
  }
  if (polys === target.bodyPolygons) {
    if (mode === 'leaderPoint') {
      const s = pointToUnit(shooter.leader, shooter.sigmaMm, target.body);
      return { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
    }
    const s = unitSeparation(mode === 'leaderBase' ? [shooter.leaderBase] : shooter.body, target.body);
    return { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
  }
  const originPolys =
    mode === 'leaderPoint'
      ? [[shooter.leader]]
      : (mode === 'leaderBase' ? [shooter.leaderBase] : shooter.body).map((b) => b.polygon);
  const s = polygonSetSeparation(originPolys, polys);
  return { mm: s.distance, sigmaMm: Math.hypot(shooter.sigmaMm, target.sigmaMm), from: s.onA, to: s.onB };
}

/** Decides everything about `shooter` shooting `target` except which target it must choose. */
export function assessShot(ctx: BpContext, shooter: TableUnit, target: TableUnit): ShotAssessment {
  const weapon = weaponOf(shooter);
  const gun = isGun(shooter, weapon);
  const eye = gun && shooter.barrel ? shooter.barrel.tip : shooter.leader;
  const checks: Verdict[] = [];
  const notClear: string[] = [];
  const facts: Record<string, OptionValue> = {};
  const S = shooter.name;
  const T = target.name;

  // The shooter.
  const shooterProblems: string[] = [];
  if (!weapon) shooterProblems.push(`${S} has no missile weapon`);
  if (shooter.engaged) shooterProblems.push(`${S} is in hand-to-hand combat and may not shoot`);
  if (shooter.formationInUse === 'marchColumn')
    shooterProblems.push(`${S} is in march column and has no shooting dice`);
  if (shooter.type === 'artillery' && !isDeployedArtillery(shooter)) shooterProblems.push(`${S} is limbered`);
  checks.push(
    check(
      'mayShoot',
      `may ${S} shoot at all?`,
      shooterProblems.length === 0,
      shooterProblems.join('; ') || `${S} is free to shoot`,
    ),
  );

  // The target.
  const targetProblems: string[] = [];
  if (target.side === shooter.side) targetProblems.push(`${T} is on the same side`);
  if (target.engaged) targetProblems.push(`${T} is in hand-to-hand combat and cannot be targeted`);
  checks.push(
    check(
      'validTarget',
      `is ${T} a valid target?`,
      targetProblems.length === 0,
      targetProblems.join('; ') || `${T} is an enemy not in combat`,
    ),
  );

  // Front quarter or arc of fire.
  let frontShare: number;
  if (gun) {
    const a = arcShare(shooter, target);
    frontShare = a.share > 0 ? a.share : a.any ? 1e-6 : 0;
    checks.push(
      check(
        'arc',
        `is ${T} in ${poss(S)} arc of fire?`,
        a.any,
        a.any
          ? `${(a.share * 100).toFixed(0)}% of ${T} lies within 45° of the barrel`
          : `${T} is outside the 45° arc either side of the barrel`,
        {
          arcShare: a.share,
        },
      ),
    );
    if (a.any && a.share < 0.5 && ctx.options.artilleryArcHalfRule)
      notClear.push(`less than half of ${T} is inside the arc of fire (${(a.share * 100).toFixed(0)}%)`);
  } else {
    frontShare = frontFraction(ctx, shooter, target);
    checks.push(
      check(
        'frontQuarter',
        `is ${T} in ${poss(S)} front quarter?`,
        frontShare > 0,
        frontShare > 0
          ? `${(frontShare * 100).toFixed(1)}% of ${T} is in ${poss(S)} front quarter`
          : `no part of ${T} is in ${poss(S)} front quarter`,
        { frontShare },
      ),
    );
    if (frontShare > 0 && frontShare < 0.5)
      notClear.push(`less than half of ${T} is in the front quarter (${(frontShare * 100).toFixed(1)}%)`);
  }
  facts.frontShare = frontShare;

  // Visibility (howitzers, mortars and rockets see and shoot over their own troops).
  const overSide =
    weapon && (weapon.kind === 'howitzer' || weapon.kind === 'rocket') ? shooter.side : undefined;
  let visible = visibleShare(ctx, eye, shooter, target, overSide ? { overSide } : {});
  let overhead = false;
  let overheadCheck: Verdict | undefined;
  if (gun && weapon?.kind === 'cannon' && visible.fraction < 1) {
    const past = visibleShare(ctx, eye, shooter, target, { ignoreUnits: true });
    if (past.fraction > visible.fraction && past.nearestVisible) {
      const aim = past.nearestVisible;
      const band = bandOf(weapon, inches(Math.hypot(aim.x - eye.x, aim.y - eye.y)));
      overheadCheck = overheadVerdict(ctx, shooter, target, aim, band);
      if (overheadCheck.answer !== 'no' && visible.fraction === 0) {
        overhead = true;
        visible = past;
      }
    }
  }
  facts.visibleShare = visible.fraction;
  let hiders = visible.hiddenBy.map((h) => `${(h.share * 100).toFixed(0)}% ${hiderWords(h.hider)}`);
  if (visible.fraction === 0) {
    // Say what stands on the straight line to the nearest part of the target.
    const nearest = pointToPolygonSet(eye, target.bodyPolygons).onB;
    const h = sightBlocker(ctx, eye, nearest, {
      exclude: new Set([shooter.id, target.id]),
      ...(overSide ? { overSide } : {}),
    });
    if (h) hiders = [hiderWords(h), ...hiders.filter((x) => !x.includes(h.label))];
  }
  checks.push(
    check(
      'visible',
      `can ${poss(S)} ${gun ? 'gun crew' : 'leader'} see ${T}?`,
      visible.fraction > 0,
      visible.fraction > 0
        ? `${(visible.fraction * 100).toFixed(0)}% of ${T} is visible${overhead ? ' by firing overhead' : ''}${hiders.length ? ` (${hiders.join('; ')})` : ''}`
        : `${T} cannot be seen: ${hiders.join('; ') || 'hidden'}`,
      { visibleShare: visible.fraction },
    ),
  );
  if (overheadCheck && overhead) checks.push(overheadCheck);
  if (visible.fraction > 0 && visible.fraction < 0.5)
    notClear.push(`less than half of ${T} can be seen (${(visible.fraction * 100).toFixed(0)}%)`);

  // Range, to the closest visible part (optionally only the part in the front quarter).
  let range: Measured | undefined;
  let band = 'out';
  if (weapon && visible.fraction > 0) {
    let polys: readonly Polygon[] = target.bodyPolygons;
    if (ctx.options.rangeToFrontQuarterPart && !gun && !isSkirmish(shooter)) {
      const part = regionIntersection(target.bodyPolygons, [bpQuarterPolygon(ctx, shooter, 'front')]);
      if (part.length > 0) polys = part;
    }
    range = rangeTo(ctx, shooter, gun, target, polys);
    const exclude = {
      exclude: new Set([shooter.id, target.id]),
      ...(overSide ? { overSide } : {}),
      ...(overhead ? { ignoreUnits: true } : {}),
    };
    if (sightBlocker(ctx, eye, range.to, exclude)) {
      // The nearest point is hidden: measure to the nearest point of the part that is seen.
      const part = visiblePart(ctx, eye, polys, exclude);
      const exact = part.polygons.length > 0 ? rangeTo(ctx, shooter, gun, target, part.polygons) : undefined;
      // Woods hide by depth, which the outline of the seen part cannot show: check the point.
      if (exact && !(part.woodsNear && sightBlocker(ctx, eye, exact.to, exclude))) {
        range = exact;
        facts.rangeToVisiblePart = true;
      } else if (visible.nearestVisible) {
        range = rangeTo(ctx, shooter, gun, target, polys, visible.nearestVisible);
        facts.rangeToNearestVisibleSample = true;
      }
    }
    const rangeCheck = lengthVerdict(
      ctx,
      {
        question: 'range',
        asked: `is ${T} within ${poss(S)} ${weapon.max}" range?`,
        reasons: [
          `${inStr(range.mm)} from ${gun ? 'the barrel' : ctx.options.rangeFrom === 'leaderBase' ? "the leader's base" : ctx.options.rangeFrom === 'leaderPoint' ? 'the leader' : S} to the nearest visible part of ${T}; ${weapon.name} reaches ${weapon.max}"`,
        ],
        options: pick(ctx.options, 'rangeFrom', 'rangeToFrontQuarterPart'),
      },
      range,
      'atMost',
      weapon.max,
    );
    checks.push(rangeCheck);
    const rIn = inches(range.mm);
    band = weapon.kind === 'smallArms' ? smallArmsBand(weapon.max, rIn) : bandOf(weapon, rIn);
    const minCheck = minimumRangeVerdict(ctx, weapon, range.mm, range.sigmaMm, [range.from, range.to]);
    if (minCheck) checks.push(minCheck);
    facts.range = rIn;
    facts.band = band;

    // Gaps the line of fire passes through.
    const minGap = gun && weapon.kind === 'cannon' ? GAP_CANNON : GAP_SMALL_ARMS;
    const gap = gapAlongLine(
      eye,
      range.to,
      gapObstacles(ctx, new Set([shooter.id, target.id])),
      Math.max(shooter.frontage, mmOf(minGap)) + 1,
      ctx.options.gapReading,
    );
    if (gap) {
      const g = compare(
        inches(gap.width),
        'atLeast',
        minGap,
        inches(Math.hypot(shooter.sigmaMm, target.sigmaMm)),
        ctx.policy,
      );
      checks.push(
        bpVerdict({
          question: 'gap',
          asked: `is the gap wide enough for ${S} to shoot through?`,
          answer: g.answer,
          lean: g.lean,
          value: inches(gap.width),
          limit: minGap,
          margin: g.margin,
          epsilon: g.epsilon,
          unit: 'in',
          between: [gap.onLeft, gap.onRight],
          reasons: [
            `the line of fire passes a ${inStr(gap.width)} gap between ${gap.left.label} and ${gap.right.label}; ${gun ? 'a gun' : 'infantry and cavalry'} need ${minGap}"`,
          ],
          options: pick(ctx.options, 'gapReading'),
        }),
      );
      facts.gap = inches(gap.width);
      if (gap.width < shooter.frontage)
        notClear.push(
          `seen through a ${inStr(gap.width)} gap, narrower than ${poss(S)} ${inStr(shooter.frontage)} frontage`,
        );
    }
    if (overhead) facts.overhead = true;
    return finish(range, gap);
  }
  return finish(undefined, undefined);

  function finish(r: Measured | undefined, gap: Gap | undefined): ShotAssessment {
    // Clear-target reasons that depend on the target alone.
    if (isSkirmish(target)) notClear.unshift(`${T} is in skirmish order`);
    if (isDeployedArtillery(target)) notClear.unshift(`${T} is deployed artillery`);
    const building = inBuilding(ctx, target);
    if (building) notClear.push(`${T} is in ${building}`);
    else {
      const cover = coverShare(ctx, eye, target);
      facts.coverShare = cover.share;
      if (cover.share >= 0.5) {
        notClear.push(`${(cover.share * 100).toFixed(0)}% of ${T} is in cover (${cover.label})`);
        facts.coverSave = cover.kind === 'heavy' ? 2 : 1;
      }
    }
    const { answer } = allOf(checks);
    const clear = notClear.length === 0;
    facts.clear = clear;
    const modifiers: string[] = [];
    if (weapon && r) {
      if (weapon.kind === 'smallArms' && band === 'close' && weapon.firearm) modifiers.push('+1 close range');
      if (weapon.kind === 'cannon' && band === 'short') modifiers.push('+1 close range (canister)');
      if (weapon.kind === 'cannon' && band === 'long') modifiers.push('−1 long range');
      if (weapon.kind === 'howitzer' && inches(r.mm) > weapon.max / 2) modifiers.push('−1 beyond half range');
      if (gun && ['attackColumn', 'marchColumn', 'square'].includes(target.formationInUse))
        modifiers.push('+1 target is a column or square');
      if (overhead) modifiers.push('−1 firing overhead');
      if (!clear) modifiers.push('−1 not a clear target');
      const enf = enfiladeVerdict(ctx, shooter, target, weapon, overhead);
      facts.enfiladed = enf.answer === 'yes';
      if (enf.answer !== 'no')
        modifiers.push(
          enf.answer === 'yes'
            ? 'double dice (enfilade)'
            : 'perhaps double dice (enfilade too close to call)',
        );
    }
    facts.modifiers = modifiers.join(', ');
    return {
      shooter,
      target,
      ...(weapon ? { weapon } : {}),
      eye,
      ...(r ? { range: r } : {}),
      frontShare,
      visible,
      overhead,
      ...(gap ? { gap } : {}),
      eligible: answer !== 'no',
      answer,
      clear,
      notClear,
      band,
      checks,
      facts,
    };
  }
}

/** Every enemy the shooter could shoot (eligible), nearest first. */
export function shootCandidates(ctx: BpContext, shooter: TableUnit): ShotAssessment[] {
  return enemiesNearestFirst(
    ctx.state,
    shooter,
    (t) => {
      const a = assessShot(ctx, shooter, t);
      return a.eligible && a.range ? a : undefined;
    },
    (a) => a.range?.mm ?? Infinity,
  );
}

/**
 * Target priority. Small arms: the closest eligible target, though a target that is not clear
 * may be passed over for a clear one beyond it. Guns, howitzers and rockets: the same when any
 * visible target is within half range; otherwise free choice.
 */
export function priorityVerdict(
  ctx: BpContext,
  shot: ShotAssessment,
  candidates: readonly ShotAssessment[],
): Verdict {
  const S = shot.shooter.name;
  const T = shot.target.name;
  const asked = `is ${T} the target ${S} must choose?`;
  const r = shot.range?.mm ?? Infinity;
  const eps = mmOf(Math.max(ctx.policy.floor, 1e-6));
  const others = candidates.filter((c) => c.target.id !== shot.target.id);
  const weapon = shot.weapon;
  if (weapon && weapon.kind !== 'smallArms') {
    const half = mmOf(weapon.max / 2);
    const withinHalf = [...others, shot].filter((c) => (c.range?.mm ?? Infinity) <= half);
    if (withinHalf.length === 0)
      return bpVerdict({
        question: 'priority',
        asked,
        answer: 'yes',
        reasons: [`no visible target within half range (${weapon.max / 2}"): free choice`],
      });
  }
  const closer = others.filter((c) => (c.range?.mm ?? Infinity) < r - eps);
  const closerClear = closer.filter((c) => c.clear);
  if (closerClear.length > 0) {
    const c = closerClear[0] as ShotAssessment;
    return bpVerdict({
      question: 'priority',
      asked,
      answer: 'no',
      reasons: [`${c.target.name} is a closer target (${inStr(c.range?.mm ?? 0)}) and must be shot first`],
      facts: { mustTarget: c.target.name },
    });
  }
  if (closer.length > 0 && !shot.clear) {
    const c = closer[0] as ShotAssessment;
    return bpVerdict({
      question: 'priority',
      asked,
      answer: 'no',
      reasons: [
        `${c.target.name} is closer (${inStr(c.range?.mm ?? 0)}); a target that is not clear may only be passed over for a clear one`,
      ],
      facts: { mustTarget: c.target.name },
    });
  }
  const reasons =
    closer.length > 0
      ? [
          `closer targets that are not clear (${closer.map((c) => c.target.name).join(', ')}) may be passed over for the clear ${T}`,
        ]
      : [`no eligible target is closer than ${T}`];
  return bpVerdict({ question: 'priority', asked, answer: 'yes', reasons });
}

/** "Can S shoot T?": eligibility, range, gaps and target priority, with the clear-target verdict and modifiers as facts. */
export function shootVerdict(ctx: BpContext, shooter: TableUnit, target: TableUnit): Verdict {
  const shot = assessShot(ctx, shooter, target);
  const checks = [...shot.checks];
  if (shot.eligible && shot.range) checks.push(priorityVerdict(ctx, shot, shootCandidates(ctx, shooter)));
  const { answer, lean } = allOf(checks);
  const reasons =
    answer === 'yes'
      ? [
          `${shooter.name} may shoot ${target.name}${shot.range ? ` at ${inStr(shot.range.mm)} (${shot.band})` : ''}`,
          shot.clear
            ? `${target.name} is a clear target`
            : `not a clear target (−1): ${shot.notClear.join('; ')}`,
        ]
      : failingReasons(checks, 'notYes');
  const rangeCheck = checks.find((c) => c.question === 'range');
  return bpVerdict({
    question: 'shoot',
    asked: `can ${shooter.name} shoot ${target.name}?`,
    answer,
    lean,
    ...measuredBy(rangeCheck),
    reasons: [
      ...reasons,
      ...(answer === 'yes' && shot.facts.modifiers ? [`modifiers: ${String(shot.facts.modifiers)}`] : []),
    ],
    options: pick(
      ctx.options,
      'quarterReading',
      'rangeFrom',
      'halfMeasure',
      'gapReading',
      'woodsSightDepthIn',
    ),
    facts: { ...shot.facts, notClear: shot.notClear.join('; ') },
    checks,
  });
}
