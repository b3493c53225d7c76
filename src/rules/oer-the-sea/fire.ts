import { enemiesOf } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { separation, type Measured, possessive } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { pointName } from '../engine/parts.ts';
import { enemiesNearestFirst } from '../engine/targets.ts';
import { allOf, type Answer, type Verdict } from '../engine/verdict.ts';
import { aheadVerdict } from './ahead.ts';
import {
  cm,
  cmStr,
  isLightHorse,
  lengthVerdict,
  OTS,
  otsVerdict,
  seenShare,
  thresholdVerdict,
  type OtsContext,
} from './context.ts';
import { findGun, gunBand, MUSKET_RANGE, MUSKET_SHORT, musketBand, type GunSpec } from './tables.ts';

export { aheadVerdict } from './ahead.ts';

/** Stand edge to stand edge, both ends named. */
function gapOf(from: TableUnit, to: TableUnit, bases = from.bases): Measured {
  const m = separation(bases, to.bases);
  return { ...m, fromName: pointName(from, m.from), toName: pointName(to, m.to) };
}

/** "Can S see T?" (the best of its stands' views), as a threshold verdict. */
export function seeCheck(
  ctx: OtsContext,
  looker: TableUnit,
  target: TableUnit,
  question = 'visible',
): Verdict {
  const s = seenShare(ctx, looker, target);
  return thresholdVerdict(
    ctx,
    {
      question,
      asked: `can ${looker.name} see ${target.name}?`,
      reasons: [
        s.share > 0
          ? `${(s.share * 100).toFixed(0)}% of ${target.name} in sight${s.hiddenBy.length ? ` (partly hidden by ${s.hiddenBy.join(', ')})` : ''}`
          : `${target.name} is out of sight${s.hiddenBy.length ? ` (${s.hiddenBy.join(', ')})` : ''}`,
      ],
      options: pick(ctx.options, 'sightBlockers'),
      facts: { visibleShare: s.share },
    },
    s.quantity,
    'moreThan',
    0,
  );
}

export interface SeenEnemy {
  readonly unit: TableUnit;
  readonly gap: Measured;
  readonly seen: Verdict;
  readonly ahead: Verdict;
}

/**
 * Enemies of the shooter with whether each is seen and ahead, nearest first. Seen and ahead are
 * worked out when first read: the target choice reads them only of enemies that may be nearer than
 * the target (a sight each, and a 60-unit table has thirty enemies a shot).
 */
export function enemiesInView(ctx: OtsContext, shooter: TableUnit): SeenEnemy[] {
  return enemiesNearestFirst(
    ctx.state,
    shooter,
    (e): SeenEnemy => {
      let seen: Verdict | undefined;
      let ahead: Verdict | undefined;
      return {
        unit: e,
        gap: gapOf(shooter, e),
        get seen() {
          return (seen ??= seeCheck(ctx, shooter, e));
        },
        get ahead() {
          return (ahead ??= aheadVerdict(ctx, shooter, e));
        },
      };
    },
    (s) => s.gap.mm,
  );
}

type Tri = 'yes' | 'no' | 'maybe';
const tri = (a: Answer): Tri => (a === 'borderline' ? 'maybe' : a);
const and = (...xs: Tri[]): Tri => (xs.includes('no') ? 'no' : xs.includes('maybe') ? 'maybe' : 'yes');
const or = (...xs: Tri[]): Tri => (xs.includes('yes') ? 'yes' : xs.includes('maybe') ? 'maybe' : 'no');

/** Is `c` nearer the shooter than `t` (the two gaps compared with both their uncertainties)? */
function nearer(ctx: OtsContext, c: SeenEnemy, t: SeenEnemy): { tri: Tri; lean: boolean } {
  const j = OTS.judge(
    ctx,
    {
      value: cm(t.gap.mm - c.gap.mm),
      unit: 'cm',
      perMm: 0.1,
      sigmaMm: Math.hypot(t.gap.sigmaMm, c.gap.sigmaMm),
    },
    'moreThan',
    0,
  );
  return { tri: tri(j.answer), lean: j.lean === 'yes' };
}

/**
 * "Must fire at the nearest enemy unit in line of sight", fire being straight ahead: the target is
 * chosen when no other enemy both nearer and a candidate (seen; and, under nearestAhead, ahead).
 * Under nearestVisible the target must itself be ahead. Each comparison may be too close to call;
 * they combine in three-valued logic.
 */
function targetChoice(ctx: OtsContext, shooter: TableUnit, target: TableUnit): Verdict {
  const S = shooter.name;
  const T = target.name;
  const all = enemiesInView(ctx, shooter);
  const me = all.find((s) => s.unit.id === target.id);
  const aheadOnly = ctx.options.targetChoice === 'nearestAhead';
  const candidate = (s: SeenEnemy): Tri =>
    aheadOnly ? and(tri(s.seen.answer), tri(s.ahead.answer)) : tri(s.seen.answer);
  const candLean = (s: SeenEnemy): boolean => s.seen.lean === 'yes' && (!aheadOnly || s.ahead.lean === 'yes');
  if (!me)
    return otsVerdict({
      question: 'target',
      asked: `is ${T} the enemy ${S} must fire at?`,
      answer: 'no',
      reasons: [`${T} is not an enemy`],
    });
  let blocked: Tri = 'no';
  let blockedLean = false;
  let by: SeenEnemy | undefined;
  for (const c of all) {
    if (c === me) continue;
    const n = nearer(ctx, c, me);
    // Farther beyond doubt (then never nearer on the lean either): whether it is seen is not read.
    if (n.tri === 'no') continue;
    const t = and(n.tri, candidate(c));
    blocked = or(blocked, t);
    if (n.lean && candLean(c)) {
      blockedLean = true;
      by ??= c;
    }
  }
  const mine = aheadOnly ? candidate(me) : and(tri(me.seen.answer), tri(me.ahead.answer));
  const mineLean = me.seen.lean === 'yes' && me.ahead.lean === 'yes';
  const result = and(mine, blocked === 'yes' ? 'no' : blocked === 'no' ? 'yes' : 'maybe');
  const lean = mineLean && !blockedLean ? 'yes' : 'no';
  const reasons = [
    lean === 'yes'
      ? `${T} is the nearest enemy ${S} can see${aheadOnly ? ' directly ahead' : ''} (${cmStr(me.gap.mm)})`
      : by
        ? aheadOnly || by.ahead.lean === 'yes'
          ? `${by.unit.name} is nearer (${cmStr(by.gap.mm)}) and must be fired at`
          : `the nearest visible enemy, ${by.unit.name} (${cmStr(by.gap.mm)}), is not directly ahead: ${S} cannot fire`
        : `${T} is not ${me.seen.lean === 'yes' ? 'directly ahead' : 'in sight'}`,
    ...(result === 'maybe'
      ? ['which enemy is the nearest one that may be fired at is too close to call']
      : []),
  ];
  return otsVerdict({
    question: 'target',
    asked: `is ${T} the enemy ${S} must fire at?`,
    answer: result === 'maybe' ? 'borderline' : result,
    lean,
    reasons,
    options: pick(ctx.options, 'targetChoice'),
    facts: { mustTarget: by?.unit.name ?? (lean === 'yes' ? T : 'none') },
  });
}

/**
 * Small-arms fire: only at the nearest visible enemy (among those ahead, or overall and then only
 * if it is ahead — option targetChoice), within 30 cm; +1 to hit within 15 cm. A target beyond
 * range beyond doubt is answered without the choice (`settleOutOfRange`).
 */
export function smallArmsVerdict(
  ctx: OtsContext,
  shooter: TableUnit,
  target: TableUnit,
  /** False: the target choice is read even beyond range (for the test that the answers agree). */
  settleOutOfRange = true,
): Verdict {
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
    aheadVerdict(ctx, shooter, target),
  ];
  const g = gapOf(shooter, target);
  const range = lengthVerdict(
    ctx,
    {
      question: 'range',
      asked: `is ${T} within ${MUSKET_RANGE} cm?`,
      reasons: [`${cmStr(g.mm)} from ${g.fromName} to ${g.toName}`],
    },
    g,
    'atMost',
    MUSKET_RANGE,
  );
  // Which enemy must be fired at weighs a sight of every nearer one: beyond range beyond doubt the
  // shot is no whichever it is, and the choice is not read (its words would only add noise).
  if (settleOutOfRange === false || range.answer !== 'no') checks.push(targetChoice(ctx, shooter, target));
  checks.push(
    range,
    lengthVerdict(
      ctx,
      {
        question: 'shortRange',
        asked: `is ${T} at short range?`,
        role: 'modifier',
        reasons: [`${cmStr(g.mm)}; short range is ${MUSKET_SHORT} cm (+1 to hit)`],
      },
      g,
      'atMost',
      MUSKET_SHORT,
    ),
  );
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
        : [`${cmStr(g.mm)}: ${band} range, hits on ${band === 'short' ? 4 : 5}+`, range.reasons[0] as string],
    options: pick(ctx.options, 'ahead', 'targetChoice', 'sightBlockers'),
    facts: { band, hitOn: band === 'short' ? 4 : 5 },
    checks,
  });
}

/**
 * Artillery: any enemy it can see (or only those ahead, option artilleryArc), by its range table;
 * an enemy within short range that it can see must be engaged first. Siege guns fire only at
 * fortifications; mortars refuse targets under their minimum. Band edges are modifier checks.
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
    seeCheck(ctx, gun, target),
  ];
  if (ctx.options.artilleryArc === 'ahead') checks.push(aheadVerdict(ctx, gun, target));
  const g = gapOf(gun, target, gun.body);
  const d = cm(g.mm);
  const minInclusive = ctx.options.mortarMinimum === 'inclusive';
  const band = spec ? gunBand(spec, d, minInclusive) : 'out';
  let rangeCheck: Verdict | undefined;
  if (spec) {
    const [short, medium, long] = spec.bands;
    rangeCheck = lengthVerdict(
      ctx,
      {
        question: 'range',
        asked: `is ${T} within ${long} cm?`,
        reasons: [`${cmStr(g.mm)} from ${g.fromName} to ${g.toName}: ${band} range`],
      },
      g,
      'atMost',
      long,
    );
    checks.push(rangeCheck);
    const edge = (question: string, words: string, limit: number) =>
      lengthVerdict(
        ctx,
        {
          question,
          asked: `is ${T} within ${words} range?`,
          role: 'modifier',
          reasons: [`${cmStr(g.mm)}; ${words} range ends at ${limit} cm`],
        },
        g,
        'atMost',
        limit,
      );
    checks.push(edge('shortRange', 'short', short), edge('mediumRange', 'medium', medium));
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
    if (!spec.mortar) checks.push(shortThreatCheck(ctx, gun, target, spec, short));
  }
  const { answer, lean } = allOf(checks);
  const mods = band === 'short' ? '+1 short range' : band === 'long' ? '−1 long range' : '';
  return otsVerdict({
    question: 'shoot',
    asked: `can ${G} shoot ${T}?`,
    answer,
    lean,
    ...measuredBy(rangeCheck),
    value: d,
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

/** A gun must first engage a visible enemy within short range (unless the target is itself one). */
function shortThreatCheck(
  ctx: OtsContext,
  gun: TableUnit,
  target: TableUnit,
  spec: GunSpec,
  short: number,
): Verdict {
  const within = (e: TableUnit): { t: Tri; lean: boolean; gap: Measured } => {
    const gap = gapOf(gun, e, gun.body);
    const j = OTS.judge(
      ctx,
      { value: cm(gap.mm), unit: 'cm', perMm: 0.1, sigmaMm: gap.sigmaMm },
      'atMost',
      short,
    );
    return { t: tri(j.answer), lean: j.lean === 'yes', gap };
  };
  const me = within(target);
  const ahead = ctx.options.artilleryArc === 'ahead';
  let threat: Tri = 'no';
  let first: { e: TableUnit; gap: Measured } | undefined;
  for (const e of enemiesOf(ctx.state, gun)) {
    if (e.id === target.id) continue;
    const w = within(e);
    if (w.t === 'no') continue;
    const s = seeCheck(ctx, gun, e);
    // A gun that fires only ahead (artilleryArc) can only be obliged to engage what is ahead.
    const a = ahead ? aheadVerdict(ctx, gun, e) : undefined;
    const t = and(w.t, tri(s.answer), a ? tri(a.answer) : 'yes');
    threat = or(threat, t);
    const seenLean = s.lean === 'yes' && (!a || a.lean === 'yes');
    if (w.lean && seenLean && (!first || w.gap.mm < first.gap.mm)) first = { e, gap: w.gap };
  }
  // No obligation when the target itself is a short-range threat.
  const result: Tri =
    me.t === 'yes'
      ? 'yes'
      : threat === 'yes'
        ? me.t === 'maybe'
          ? 'maybe'
          : 'no'
        : threat === 'maybe'
          ? 'maybe'
          : 'yes';
  const lean = me.lean || !first ? 'yes' : 'no';
  return otsVerdict({
    question: 'priority',
    asked: `must ${gun.name} engage a closer threat first?`,
    answer: result === 'maybe' ? 'borderline' : result,
    lean,
    reasons: [
      first && !me.lean
        ? `${first.e.name} is within short range (${cmStr(first.gap.mm)}) and must be engaged first`
        : `no other visible enemy${ahead ? ' directly ahead' : ''} within short range`,
      ...(result === 'maybe' ? ['whether another enemy is a short-range threat is too close to call'] : []),
    ],
    options: pick(ctx.options, 'artilleryArc'),
    facts: { mustTarget: first && !me.lean ? first.e.name : 'none', gun: spec.type },
  });
}

export const shootVerdict = (ctx: OtsContext, shooter: TableUnit, target: TableUnit): Verdict =>
  shooter.type === 'artillery'
    ? artilleryVerdict(ctx, shooter, target)
    : smallArmsVerdict(ctx, shooter, target);
