import type { QuarterName } from '../../geometry/quarters.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { pick } from '../engine/options.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { unitSeparation } from '../unit-distance.ts';
import { engagedFaces } from './contacts.ts';
import { quarterQuantity } from '../engine/quarter-call.ts';
import { BP, bpVerdict, isSkirmish, lengthVerdict, type BpContext, poss } from './context.ts';
import {
  bpQuarterOfPoint,
  bpQuarterPolygon,
  isFrontFor,
  quarterBox,
  unitShareInQuarter,
} from './quarters.ts';
import { pointToOutline } from '../../geometry/distance.ts';
import { facedBoxPolygon } from '../../geometry/faced-box.ts';
import { shareInsideConvex } from '../../geometry/convex-clip.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { zoneReading } from '../../geometry/zone.ts';
import type { Judgement } from '../engine/threshold.ts';
import { shareQuantity, wholeQuantity } from '../engine/zone-share.ts';
import { inBuildingCheck } from './shot-checks.ts';
import { engagedTouch, flankOrRearEngaged, innerFlank, type Touch } from './support-contacts.ts';
import { SUPPORT_DISTANCE } from './tables.ts';

/** Rounding of clipped areas, as a share: far below any real part of a base. */
const SHARE_TOL = 1e-9;

/** Which flank/rear quarter of the engaged unit the supporter lies in (option supportPoint). */
function supportQuarter(ctx: BpContext, f: TableUnit, e: TableUnit): QuarterName | undefined {
  const opt = ctx.options.supportPoint;
  if (opt === 'leader') {
    const q = bpQuarterOfPoint(ctx, e, f.leader).quarter;
    return q === 'inside' ? undefined : q;
  }
  const shares = (['left', 'right', 'rear'] as const).map(
    (q) => [q, unitShareInQuarter(ctx, f, e, q)] as const,
  );
  const best = shares.reduce((a, b) => (b[1] > a[1] ? b : a));
  // Exactly half (skirmish bases two a side of a ray) is not more than half, whatever the rounding
  // of the areas says.
  if (opt === 'majority') return best[1] > 0.5 + SHARE_TOL ? best[0] : undefined;
  return best[1] > 0 ? best[0] : undefined;
}

/**
 * supportPoint anyPart / majority under the one uncertainty model: is F in a flank or rear
 * quarter of E, as a judgement with its band. anyPart: some of F outside E's front quarter (the
 * quarters share the table round E), its move exact (the push that brings every corner into the
 * front quarter, or the least depth of one in it); majority: more than half of F in one flank or
 * rear quarter, probed by moving F.
 */
function shareCall(ctx: BpContext, f: TableUnit, e: TableUnit, gapMm: number): Judgement {
  // E's quarters turn with E's heading (lever: out to F); F turns about its own centre.
  const rad = Math.PI / 180;
  const sigma = Math.hypot(
    f.sigmaMm,
    e.sigmaMm,
    (gapMm + e.frontage / 2 + f.frontage) * e.sigmaHeadingDeg * rad,
    (f.frontage / 2) * f.sigmaHeadingDeg * rad,
  );
  if (ctx.options.supportPoint === 'anyPart') {
    const r = zoneReading(f.bodyPolygons, bpQuarterPolygon(ctx, e, 'front'));
    return BP.judge(ctx, wholeQuantity(r, sigma), 'lessThan', 100);
  }
  const zones = (['left', 'right', 'rear'] as const).map((q) => bpQuarterPolygon(ctx, e, q));
  const most = (pieces: readonly Polygon[]) =>
    Math.max(...zones.map((z) => shareInsideConvex(pieces, z))) * 100;
  const shares = zones.map((z) => shareInsideConvex(f.bodyPolygons, z));
  const best = zones[shares.indexOf(Math.max(...shares))] as Polygon;
  const q = shareQuantity(f.bodyPolygons, best, 'moreThan', 50, sigma, BP.bandMm(ctx, sigma), most);
  return BP.judge(ctx, q, 'moreThan', 50);
}

/** Is the unit in a fight (flagged, or touching an enemy), as the bare numbers say. */
export const isEngaged = (ctx: BpContext, u: TableUnit): boolean => engagedTouch(ctx, u).lean;

/**
 * "Does F support E?": F is a friend, not engaged, not in march column or limbered, within 6" of
 * E, and lies in E's flank or rear quarter; E itself may be supported (not artillery, skirmishers,
 * a square, in a building, or fighting to its flank or rear, found from the enemies touching its
 * faces); a flank shared with a friend fighting alongside is not an outer flank.
 */
export function supportVerdict(ctx: BpContext, f: TableUnit, e: TableUnit): Verdict {
  const problems: string[] = [];
  if (f.side !== e.side) problems.push(`${f.name} is not a friend of ${e.name}`);
  if (f.formationInUse === 'marchColumn' || f.formationInUse === 'limbered')
    problems.push(
      `${f.name} is in ${f.formationInUse === 'limbered' ? 'limber' : 'march column'} and cannot support`,
    );
  if (e.type === 'artillery') problems.push('artillery is never supported');
  if (isSkirmish(e)) problems.push('skirmishers are never supported');
  if (e.formationInUse === 'square') problems.push('squares are never supported');
  // Contacts found on the table, and E's leader in a building: firm, or too close to call within
  // the band (of the contact tolerance; of the building's outline).
  const touch = 'whether the units touch is too close to call';
  const building = inBuildingCheck(ctx, e);
  const touched: ReadonlyArray<readonly [Touch, string, string]> = [
    [engagedTouch(ctx, f), `${f.name} is itself engaged`, touch],
    [
      flankOrRearEngaged(ctx, e),
      `${e.name} is fighting to its ${
        engagedFaces(ctx, e)
          .filter((x) => x !== 'front')
          .join(' and ') || 'flank or rear'
      } and cannot be supported`,
      touch,
    ],
    ...(building
      ? ([
          [
            {
              lean: building.lean === 'yes',
              tri: building.answer === 'yes' ? 'yes' : building.answer === 'borderline' ? 'maybe' : 'no',
            },
            `${e.name} is in ${String(building.facts.building)} and cannot be supported`,
            `whether ${poss(e.name)} leader stands in ${String(building.facts.building)} is too close to call`,
          ],
        ] as const)
      : []),
  ];
  const leanProblems = [...problems, ...touched.filter(([t]) => t.lean).map(([, w]) => w)];
  const firm = problems.length > 0 || touched.some(([t]) => t.tri === 'yes');
  const maybe = touched.filter(([t]) => t.tri === 'maybe');
  const eligible = bpVerdict({
    question: 'supportEligible',
    asked: `may ${f.name} support ${e.name}?`,
    answer: firm ? 'no' : maybe.length ? 'borderline' : 'yes',
    lean: leanProblems.length ? 'no' : 'yes',
    reasons: [
      ...(leanProblems.length ? leanProblems : ['both are eligible']),
      ...(!firm ? [...new Set(maybe.map(([, , doubt]) => doubt))] : []),
    ],
  });
  const s = unitSeparation(f.bases, e.bases);
  const dist = lengthVerdict(
    ctx,
    { question: 'supportDistance', asked: `is ${f.name} within 6" of ${e.name}?`, reasons: [] },
    { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB },
    'atMost',
    SUPPORT_DISTANCE,
  );
  // A square's every face is a front and skirmishers have no flanks or rear: F stands in no flank
  // or rear quarter of them wherever it is (the geometric quarters would name one, and flip as it
  // moves across their rays).
  const allRound = e.formationInUse === 'square' || isSkirmish(e);
  const q = allRound ? 'front' : supportQuarter(ctx, f, e);
  const inner: Touch = q === 'left' || q === 'right' ? innerFlank(ctx, e, q) : { lean: false, tri: 'no' };
  const inQuarter = q !== undefined && q !== 'front';
  // By the leader point: too close to call when it stands within the band of a ray between the
  // front and a flank (the rays between a flank and the rear do not change the answer); by share,
  // when moving within the band changes whether F counts (shareCall).
  let nearRay = false;
  if (!allRound && ctx.options.supportPoint === 'leader') {
    const bq = bpQuarterOfPoint(ctx, e, f.leader);
    const near = (distanceMm: number): boolean =>
      BP.judge(
        ctx,
        quarterQuantity({ rayDistance: distanceMm }, 25.4, 'in', f.sigmaMm, e, f.leader),
        'moreThan',
        0,
      ).answer === 'borderline';
    if (!bq.allRoundFront && bq.quarter !== 'inside' && (bq.quarter === 'front') !== (bq.across === 'front'))
      nearRay = near(bq.rayDistance) || bq.onBoundary;
    // A leader inside E's footprint has no quarter: one within the band of its outline may step
    // out of it, and one in a flank or the rear that near may step in (units a few millimetres
    // apart, or overlapping).
    if (bq.quarter === 'inside' || (!isFrontFor(bq) && !bq.allRoundFront))
      nearRay ||= near(pointToOutline(f.leader, facedBoxPolygon(quarterBox(ctx, e))));
  }
  // By share: too close to call when moving F (or E) within the band changes whether it counts.
  if (!allRound && ctx.options.supportPoint !== 'leader')
    nearRay = shareCall(ctx, f, e, s.distance).answer === 'borderline';
  const firmNo = !inQuarter || inner.tri === 'yes';
  const quarter = bpVerdict({
    question: 'supportQuarter',
    asked: `is ${f.name} in ${poss(e.name)} flank or rear quarter?`,
    answer:
      inner.tri === 'yes'
        ? 'no'
        : nearRay
          ? 'borderline'
          : firmNo
            ? 'no'
            : inner.tri === 'maybe'
              ? 'borderline'
              : 'yes',
    lean: inQuarter && !inner.lean ? 'yes' : 'no',
    reasons: [
      allRound
        ? `${e.name} ${e.formationInUse === 'square' ? 'is in square: every face is a front' : 'is skirmishing: it has no flanks or rear'}`
        : q
          ? `${f.name} is in ${poss(e.name)} ${q} quarter${inner.lean ? `, but a friend fights alongside on that flank (only outer flanks are supported)` : inner.tri === 'maybe' ? ', and whether a friend fighting alongside touches that flank is too close to call' : ''}`
          : `${f.name} is not in a flank or rear quarter of ${e.name}`,
    ],
    options: pick(ctx.options, 'supportPoint', 'quarterReading'),
    facts: { quarter: q ?? 'none' },
  });
  const checks = [eligible, dist, quarter];
  const { answer, lean } = allOf(checks);
  const bonus =
    q === 'rear' ? '+1 rear support' : q === 'left' || q === 'right' ? `+1 ${q} flank support` : '';
  return bpVerdict({
    question: 'support',
    asked: `does ${f.name} support ${e.name}?`,
    answer,
    lean,
    ...measuredBy(dist),
    reasons: [
      `${(dist.value as number).toFixed(2)} in apart; ${quarter.reasons[0]}`,
      ...(answer === 'yes' ? [bonus] : failingReasons(checks, 'notYes')),
    ],
    options: pick(ctx.options, 'supportPoint', 'quarterReading'),
    facts: { quarter: q ?? 'none' },
    checks,
  });
}
