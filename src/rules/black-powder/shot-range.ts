import type { Polygon } from '../../geometry/polygon.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { withAlternatives } from '../engine/alternatives.ts';
import { pick } from '../engine/options.ts';
import type { Verdict } from '../engine/verdict.ts';
import { BP, inStr, lengthVerdict, mmOf, poss, type BpContext, type Measured } from './context.ts';
import { everyBaseBeyond, measureFrom, otherReadings, readingsAgainst, type OtherReading } from './range.ts';
import { CLOSE_RANGE, type Weapon } from './tables.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * A shot's range check: from the shooter (option rangeFrom, or a gun's barrel) to the target's
 * polygons given (the part seen, or the whole body), against the weapon's maximum; too close to
 * call when the leader stands where two bases meet and the other base would answer otherwise.
 * `extra` reasons follow the measured one. `edgeSigmaMm`: when the part seen begins at a shadow's
 * edge, that edge's one-sigma place against the target (the sight's), for its nearest point moves
 * with it. `moreReadings`: other readings of the same range (the part seen past a wood with the
 * ends moved, seen-part-readings.ts), weighed as the other bases' are.
 */
export function shotRange(
  ctx: BpContext,
  shooter: TableUnit,
  gun: boolean,
  weapon: Weapon,
  target: TableUnit,
  polys: readonly Polygon[],
  toWords: string | undefined,
  extra: readonly string[] = [],
  edgeSigmaMm = 0,
  moreReadings: readonly OtherReading[] = [],
  weighOtherBases = true,
): { range: Measured; rangeCheck: Verdict; others: readonly OtherReading[] } {
  const S = shooter.name;
  const T = target.name;
  const measured = measureFrom(ctx, shooter, gun, target, polys, toWords);
  const range = edgeSigmaMm > 0 ? { ...measured, sigmaMm: hypot(measured.sigmaMm, edgeSigmaMm) } : measured;
  const bandMm = BP.bandMm(ctx, range.sigmaMm);
  const others = [
    ...(gun || !weighOtherBases ? [] : otherReadings(ctx, shooter, gun, target, polys, toWords, bandMm)),
    ...moreReadings,
  ];
  const rangeCheck = withAlternatives(
    lengthVerdict(
      ctx,
      {
        question: 'range',
        asked: `is ${T} within ${poss(S)} ${weapon.max}" range?`,
        reasons: [
          `${inStr(range.mm)} from ${range.fromName} to ${range.toName}; ${weapon.name} reaches ${weapon.max}"`,
          ...extra,
        ],
        options: pick(ctx.options, 'rangeFrom', 'rangeToFrontQuarterPart'),
      },
      range,
      'atMost',
      weapon.max,
    ),
    readingsAgainst(others, 'atMost', () => mmOf(weapon.max), bandMm),
    bandMm,
    'in',
  );
  return { range, rangeCheck, others };
}

/**
 * The range to the whole target, when it settles the shot without sight: its nearest part, seen
 * or not, is beyond the weapon's reach by more than the pose band. The range a full assessment
 * measures runs to the part seen (a subset of the body, so never nearer), with a one-sigma error
 * of the two units' positions: the margin must clear that band too, so no shot whose range could
 * be too close to call takes this way. Undefined when the target may be within reach.
 */
export function outOfRangeWhateverSeen(
  ctx: BpContext,
  shooter: TableUnit,
  gun: boolean,
  weapon: Weapon,
  target: TableUnit,
): { range: Measured; rangeCheck: Verdict } | undefined {
  const whole = shotRange(
    ctx,
    shooter,
    gun,
    weapon,
    target,
    target.bodyPolygons,
    undefined,
    [`no part of ${target.name} is within range, seen or not`],
    0,
    [],
    // Every base beyond reach by more than the usual reading's band: each other base's reading
    // leans no as the usual one does, and withAlternatives keeps only readings that lean otherwise.
    !everyBaseBeyond(
      shooter,
      target,
      mmOf(weapon.max),
      BP.bandMm(ctx, measureFrom(ctx, shooter, false, target).sigmaMm),
    ),
  );
  if (whole.rangeCheck.answer !== 'no') return undefined;
  const seenPartSigma = hypot(shooter.sigmaMm, target.sigmaMm);
  const band = BP.bandMm(ctx, Math.max(whole.range.sigmaMm, seenPartSigma));
  return whole.range.mm - mmOf(weapon.max) >= band ? whole : undefined;
}

/** A weapon's range band: where it starts or ends (inches), which side counts, and its words. */
interface RangeBand {
  readonly question: string;
  readonly asked: (T: string) => string;
  readonly comparison: 'atMost' | 'moreThan';
  readonly limit: number;
  readonly why: (at: string) => string;
}

/** Close range for small arms; short and long for cannon; beyond half range for howitzers. */
function rangeBands(weapon: Weapon): RangeBand[] {
  const close = (question: string, asked: (T: string) => string, what: string): RangeBand => ({
    question,
    asked,
    comparison: 'atMost',
    limit: CLOSE_RANGE,
    why: (at) => `${at}; ${what} is ${CLOSE_RANGE}"`,
  });
  const half = weapon.max / 2;
  if (weapon.kind === 'smallArms')
    return weapon.firearm ? [close('closeRange', (T) => `is ${T} at close range?`, 'close range')] : [];
  if (weapon.kind === 'cannon')
    return [
      close('shortRange', (T) => `is ${T} at short range (canister)?`, 'short range'),
      {
        question: 'longRange',
        asked: (T) => `is ${T} at long range?`,
        comparison: 'moreThan',
        limit: half,
        why: (at) => `${at}; long range starts beyond ${half}"`,
      },
    ];
  if (weapon.kind === 'howitzer')
    return [
      {
        question: 'beyondHalfRange',
        asked: (T) => `is ${T} beyond half range?`,
        comparison: 'moreThan',
        limit: half,
        why: (at) => `${at}; half range is ${half}"`,
      },
    ];
  return [];
}

/** Every range (inches) at which the shot's answer changes: its reach and its bands' limits. */
export const rangeLimitsIn = (weapon: Weapon): number[] => [
  weapon.max,
  ...rangeBands(weapon).map((b) => b.limit),
];

/**
 * Range-band checks (modifiers, rangeBands). Each too close to call, as the range check is, when
 * the leader may as well stand on another base that answers otherwise (`others`, from shotRange).
 */
export function bandChecks(
  ctx: BpContext,
  weapon: Weapon,
  range: Measured,
  T: string,
  others: readonly OtherReading[] = [],
): Verdict[] {
  const bandMm = BP.bandMm(ctx, range.sigmaMm);
  const at = `${inStr(range.mm)} to ${T}`;
  return rangeBands(weapon).map((b) =>
    withAlternatives(
      lengthVerdict(
        ctx,
        { question: b.question, asked: b.asked(T), role: 'modifier', reasons: [b.why(at)] },
        range,
        b.comparison,
        b.limit,
      ),
      readingsAgainst(others, b.comparison, () => mmOf(b.limit), bandMm),
      bandMm,
      'in',
    ),
  );
}
