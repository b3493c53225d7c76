import { degToRad } from '../../geometry/angle.ts';
import { conePolygon } from '../../geometry/cone.ts';
import { pointToPolygonSet } from '../../geometry/distance.ts';
import { containsPoint, type Polygon } from '../../geometry/polygon.ts';
import { segmentInsidePolygon } from '../../geometry/segment-clip.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import { sightScreen } from '../../geometry/visible-region.ts';
import { zoneReading } from '../../geometry/zone.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { seenShare, seenShareQuantity, type SeenShare } from '../engine/sight-share.ts';
import type { Quantity } from '../engine/threshold.ts';
import type { Verdict } from '../engine/verdict.ts';
import { anyPartQuantity, shareQuantity } from '../engine/zone-share.ts';
import { gunCone } from './artillery.ts';
import { BP, bpVerdict, inches, isSkirmish, poss, thresholdVerdict, type BpContext } from './context.ts';
import { bpQuarterPolygon, frontEdge } from './quarters.ts';
import { frontageSeen, seenFrontageQuantity } from './seen-frontage.ts';
import { hiddenWords } from './sight.ts';

/**
 * The threshold checks of a shot that are about shares and zones: the front quarter or a gun's
 * arc (some of the target inside; at least half, for a clear target), how much of it is seen, how
 * much is in cover, whether it stands in a building. Each goes through the one uncertainty model.
 */

const pct = (share: number): string => `${(share * 100).toFixed(share > 0 && share < 0.01 ? 1 : 0)}%`;

/** One sigma of a target relative to a zone an owner draws from `apex`: both positions, and the owner's heading error times the lever. */
export function zoneSigma(
  owner: TableUnit,
  target: TableUnit,
  apex: Vec2,
  polys: readonly Polygon[],
): number {
  const near = pointToPolygonSet(apex, polys);
  const lever = near.distance * degToRad(owner.sigmaHeadingDeg);
  return Math.hypot(owner.sigmaMm, target.sigmaMm, lever);
}

/** Share of a polygon set's front edges (option halfMeasure = frontage) inside a zone, %. */
function frontageShare(target: TableUnit, zone: Polygon, offset: Vec2 = { x: 0, y: 0 }): number {
  const [a, b] = frontEdge(target.box);
  const shift = (p: Vec2) => ({ x: p.x + offset.x, y: p.y + offset.y });
  return segmentInsidePolygon(shift(a), shift(b), zone).reduce((s, iv) => s + (iv.t1 - iv.t0), 0) * 100;
}

/** "At least half of T" inside a zone, by area or frontage (option halfMeasure), as a probed quantity. */
function halfQuantity(ctx: BpContext, target: TableUnit, zone: Polygon, sigmaMm: number): Quantity {
  const band = BP.bandMm(ctx, sigmaMm);
  if (ctx.options.halfMeasure === 'frontage') {
    // The probe moves the footprint; the front edge moves with it.
    const first = (target.bodyPolygons[0] as Polygon)[0] as Vec2;
    return shareQuantity(target.bodyPolygons, zone, 'atLeast', 50, sigmaMm, band, (moved) => {
      const q = (moved[0] as Polygon)[0] as Vec2;
      return frontageShare(target, zone, { x: q.x - first.x, y: q.y - first.y });
    });
  }
  return shareQuantity(target.bodyPolygons, zone, 'atLeast', 50, sigmaMm, band);
}

export interface ZoneChecks {
  /** Share of the target in the zone (area), 0…1. */
  readonly share: number;
  /** Some of the target inside (the shot needs it). */
  readonly any: Verdict;
  /** At least half inside (a clear target), a modifier check; absent for skirmishers. */
  readonly half?: Verdict;
}

/** Front quarter (non-gun shooters): skirmishers all round; a square uses whichever face holds most. */
export function frontQuarterChecks(ctx: BpContext, shooter: TableUnit, target: TableUnit): ZoneChecks {
  const S = shooter.name;
  const T = target.name;
  const asked = `is ${T} in ${poss(S)} front quarter?`;
  if (isSkirmish(shooter))
    return {
      share: 1,
      any: bpVerdict({
        question: 'frontQuarter',
        asked,
        answer: 'yes',
        reasons: [`${S} is in skirmish order and sees all round`],
        facts: { frontShare: 1 },
      }),
    };
  const faces =
    shooter.formationInUse === 'square'
      ? (['front', 'right', 'rear', 'left'] as const)
      : (['front'] as const);
  const zones = faces.map((f) => bpQuarterPolygon(ctx, shooter, f));
  const readings = zones.map((z) => zoneReading(target.bodyPolygons, z));
  let k = 0;
  readings.forEach((r, i) => {
    if (r.share > (readings[k] as typeof r).share) k = i;
  });
  const r = readings[k] as (typeof readings)[number];
  const zone = zones[k] as Polygon;
  const sigma = zoneSigma(shooter, target, shooter.leader, target.bodyPolygons);
  const where = faces.length > 1 ? `${poss(S)} ${faces[k]} face's quarter` : `${poss(S)} front quarter`;
  const any = thresholdVerdict(
    ctx,
    {
      question: 'frontQuarter',
      asked,
      reasons: [r.share > 0 ? `${pct(r.share)} of ${T} is in ${where}` : `no part of ${T} is in ${where}`],
      facts: { frontShare: r.share },
      options: { quarterReading: ctx.options.quarterReading },
      between: r.between,
    },
    anyPartQuantity(r, sigma, true),
    'moreThan',
    0,
  );
  const half = thresholdVerdict(
    ctx,
    {
      question: 'frontHalf',
      asked: `is at least half of ${T} in ${where}?`,
      role: 'modifier',
      reasons: [
        `${ctx.options.halfMeasure === 'frontage' ? 'of its frontage, ' : ''}${pct(r.share)} of ${T} is in ${where}`,
      ],
      options: { halfMeasure: ctx.options.halfMeasure },
    },
    halfQuantity(ctx, target, zone, sigma),
    'atLeast',
    50,
  );
  return { share: r.share, any, half };
}

/** A gun's 45° arc from the barrel: some of the target inside; at least half (option artilleryArcHalfRule). */
export function arcChecks(ctx: BpContext, gun: TableUnit, target: TableUnit): ZoneChecks {
  const cone = gunCone(gun);
  const T = target.name;
  if (!cone)
    return {
      share: 0,
      any: bpVerdict({
        question: 'arc',
        asked: `is ${T} in ${poss(gun.name)} arc of fire?`,
        answer: 'no',
        reasons: [`${gun.name} has no gun model to aim`],
      }),
    };
  const zone = conePolygon(cone);
  const r = zoneReading(target.bodyPolygons, zone);
  const sigma = zoneSigma(gun, target, cone.apex, target.bodyPolygons);
  const any = thresholdVerdict(
    ctx,
    {
      question: 'arc',
      asked: `is ${T} in ${poss(gun.name)} arc of fire?`,
      reasons: [
        r.share > 0
          ? `${pct(r.share)} of ${T} lies within 45° of the barrel`
          : `${T} is outside the 45° arc either side of the barrel`,
      ],
      facts: { arcShare: r.share },
      between: r.between,
    },
    anyPartQuantity(r, sigma),
    'moreThan',
    0,
  );
  if (!ctx.options.artilleryArcHalfRule) return { share: r.share, any };
  const half = thresholdVerdict(
    ctx,
    {
      question: 'arcHalf',
      asked: `is at least half of ${T} inside ${poss(gun.name)} arc?`,
      role: 'modifier',
      reasons: [`${pct(r.share)} of ${T} is inside the arc of fire`],
      options: { artilleryArcHalfRule: true },
    },
    shareQuantity(target.bodyPolygons, zone, 'atLeast', 50, sigma, BP.bandMm(ctx, sigma)),
    'atLeast',
    50,
  );
  return { share: r.share, any, half };
}

/** Can the eye see any of the target, and at least half of it (a clear target)? */
export function visibilityChecks(
  ctx: BpContext,
  s: SeenShare,
  who: string,
  target: TableUnit,
  note = '',
  blockedBy?: string,
): { any: Verdict; half: Verdict } {
  return {
    any: visibleCheck(ctx, s, who, target, note, blockedBy),
    half: visibleHalfCheck(ctx, s, who, target),
  };
}

/** Can the eye see any of the target? (See and charge need no more: the half is probed apart.) */
export function visibleCheck(
  ctx: BpContext,
  s: SeenShare,
  who: string,
  target: TableUnit,
  note = '',
  blockedBy?: string,
): Verdict {
  const T = target.name;
  const share = s.region.share;
  const hidden = hiddenWords(s.region.hiddenBy);
  const band = BP.bandMm(ctx, s.sigmaMm);
  return thresholdVerdict(
    ctx,
    {
      question: 'visible',
      asked: `can ${who} see ${T}?`,
      reasons: [
        share > 0
          ? `${pct(share)} of ${T} can be seen${note}${hidden.length ? ` (${hidden.join('; ')})` : ''}`
          : `${T} cannot be seen: ${blockedBy ?? (hidden.join('; ') || 'hidden')}`,
      ],
      facts: { visibleShare: share },
      options: { woodsSightDepthIn: ctx.options.woodsSightDepthIn },
    },
    seenShareQuantity(s, 'moreThan', 0, band),
    'moreThan',
    0,
  );
}

/** Can the eye see at least half of the target (a clear-target test, a modifier)? */
export function visibleHalfCheck(ctx: BpContext, s: SeenShare, who: string, target: TableUnit): Verdict {
  const T = target.name;
  const share = s.region.share;
  const band = BP.bandMm(ctx, s.sigmaMm);
  const byFrontage = ctx.options.halfMeasure === 'frontage';
  const frontage = byFrontage ? frontageSeen(target, s.region.polygons) : share;
  return thresholdVerdict(
    ctx,
    {
      question: 'visibleHalf',
      asked: `can ${who} see at least half of ${T}?`,
      role: 'modifier',
      reasons: [
        byFrontage
          ? `${T} can be seen across ${pct(frontage)} of its frontage`
          : `${pct(share)} of ${T} can be seen`,
      ],
      options: { halfMeasure: ctx.options.halfMeasure },
      ...(byFrontage ? { facts: { visibleFrontage: frontage } } : {}),
    },
    byFrontage
      ? seenFrontageQuantity(s, target, 'atLeast', 50, band)
      : seenShareQuantity(s, 'atLeast', 50, band),
    'atLeast',
    50,
  );
}

/**
 * How much of the target is in cover as seen from the eye: inside woods and other covering
 * ground, or behind an obstacle (a hedge, a wall). At least half in cover: not a clear target,
 * and a save bonus (+1 light, +2 heavy).
 */
export function coverCheck(
  ctx: BpContext,
  eye: Vec2,
  eyeSigmaMm: number,
  target: TableUnit,
): { check?: Verdict; share: number; kind: 'light' | 'heavy'; label: string } {
  const pieces = ctx.state.terrain.filter((t) => t.cover !== 'none' && t.polygon && t.kind !== 'building');
  if (pieces.length === 0) return { share: 0, kind: 'light', label: '' };
  const screens = pieces.map((t) =>
    sightScreen(t.id, t.label, t.polygon as Polygon, t.kind === 'obstacle' ? 'solid' : 'area'),
  );
  const s = seenShare(
    {
      eye,
      eyeSigmaMm,
      target: target.bodyPolygons,
      targetSigmaMm: target.sigmaMm,
      screens,
      screenSigmaMm: () => 0,
    },
    (sigmaMm) => BP.bandMm(ctx, sigmaMm),
  );
  const byFrontage = ctx.options.halfMeasure === 'frontage';
  const band = BP.bandMm(ctx, s.sigmaMm);
  const halfQ = (): Quantity =>
    byFrontage
      ? seenFrontageQuantity(s, target, 'atLeast', 50, band, true)
      : seenShareQuantity(s, 'atLeast', 50, band, true);
  const share = byFrontage ? 1 - frontageSeen(target, s.region.polygons) : 1 - s.region.share;
  const by = s.region.hiddenBy[0];
  const piece = pieces.find((t) => t.id === by?.id);
  const kind = piece?.cover === 'heavy' ? 'heavy' : 'light';
  const label = by?.label ?? '';
  if (s.region.hiddenBy.length === 0 && share === 0) {
    // Nothing covers it now; still ask whether a small move would (a hedge just in front).
    if (!Number.isFinite(halfQ().moveMm)) return { share, kind, label };
  }
  const check = thresholdVerdict(
    ctx,
    {
      question: 'coverHalf',
      asked: `is at least half of ${target.name} in cover?`,
      role: 'modifier',
      reasons: [
        `${pct(share)} of ${byFrontage ? `${poss(target.name)} frontage` : target.name} is in cover${label ? ` (${label})` : ''}`,
      ],
      options: { halfMeasure: ctx.options.halfMeasure },
      facts: { coverShare: share },
    },
    halfQ(),
    'atLeast',
    50,
  );
  return { check, share, kind, label };
}

/** A point against a polygon: its depth inside (positive) or distance outside (negative), as a length quantity. */
export function insideQuantity(p: Vec2, poly: Polygon, sigmaMm: number): Quantity {
  const inside = containsPoint(poly, p);
  let d = Infinity;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i] as Vec2;
    const b = poly[(i + 1) % poly.length] as Vec2;
    d = Math.min(d, pointToPolygonSet(p, [[a, b]]).distance);
  }
  const signed = inside ? d : -d;
  return { ...BP.length(inches(signed), 0), sigmaMm, moveMm: Math.abs(signed) };
}

/** inBuildingCheck per context and unit (null: no building on the table). */
const inBuildingChecks = new WeakMap<BpContext, WeakMap<TableUnit, Verdict | null>>();

/**
 * Is the unit in a building (its leader inside the outline)? With how far the leader is from the
 * wall. It depends on the unit and the context alone, and every shooter and charger asks it of
 * each target: worked out once per context (a table, its options and policy) and unit.
 */
export function inBuildingCheck(ctx: BpContext, u: TableUnit): Verdict | undefined {
  let byUnit = inBuildingChecks.get(ctx);
  if (!byUnit) inBuildingChecks.set(ctx, (byUnit = new WeakMap()));
  let v = byUnit.get(u);
  if (v === undefined) {
    v = inBuildingCheckAfresh(ctx, u) ?? null;
    byUnit.set(u, v);
  }
  return v ?? undefined;
}

function inBuildingCheckAfresh(ctx: BpContext, u: TableUnit): Verdict | undefined {
  let best: { label: string; q: Quantity } | undefined;
  for (const t of ctx.state.terrain) {
    if (t.kind !== 'building' || !t.polygon) continue;
    const q = insideQuantity(u.leader, t.polygon, u.sigmaMm);
    if (!best || q.value > best.q.value) best = { label: t.label, q };
  }
  if (!best) return undefined;
  return thresholdVerdict(
    ctx,
    {
      question: 'inBuilding',
      asked: `is ${u.name} in ${best.label}?`,
      reasons: [
        best.q.value > 0
          ? `${poss(u.name)} leader is ${best.q.value.toFixed(2)} in inside ${best.label}`
          : `${poss(u.name)} leader is ${Math.abs(best.q.value).toFixed(2)} in outside ${best.label}`,
      ],
      facts: { building: best.label },
    },
    best.q,
    'moreThan',
    0,
  );
}
