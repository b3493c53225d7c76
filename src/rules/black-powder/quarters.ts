import { intersectionArea, regionArea } from '../../geometry/boolean.ts';
import { facedBoxAround, facedBoxPolygon, localCorners, type FacedBox } from '../../geometry/faced-box.ts';
import { toTable } from '../../geometry/frame.ts';
import {
  quarterOfPoint,
  quarterPolygon,
  type QuarterName,
  type QuarterResult,
} from '../../geometry/quarters.ts';
import { segmentInsidePolygon } from '../../geometry/segment-clip.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { BpContext } from './context.ts';
import { isSkirmish } from './context.ts';

/** The box Black Powder's quarters are drawn from (the gun model only for deployed artillery). */
export function quarterBox(ctx: BpContext, unit: TableUnit): FacedBox {
  if (unit.type === 'artillery' && ctx.options.deployedArtilleryFootprint === 'wholeUnit')
    return facedBoxAround(
      unit.bases.flatMap((b) => b.polygon),
      unit.facing,
    );
  return unit.box;
}

export interface BpQuarter extends QuarterResult {
  /** Every side counts as a front (skirmishers, squares). */
  readonly allRoundFront: boolean;
}

/**
 * Black Powder quarter of a point relative to a unit. Skirmishers have no flanks or rear; a
 * square has four fronts (the quarter names which face).
 */
export function bpQuarterOfPoint(ctx: BpContext, unit: TableUnit, p: Vec2): BpQuarter {
  if (isSkirmish(unit))
    return {
      quarter: 'front',
      rayDistance: Infinity,
      across: 'front',
      onBoundary: false,
      allRoundFront: true,
    };
  const q = quarterOfPoint(quarterBox(ctx, unit), p, ctx.options.quarterReading);
  return { ...q, allRoundFront: unit.formationInUse === 'square' };
}

/** Is the quarter a front for this unit (squares and skirmishers: every quarter is)? */
export const isFrontFor = (q: BpQuarter): boolean => q.allRoundFront || q.quarter === 'front';

/** The zone polygon of a quarter of the unit. */
export const bpQuarterPolygon = (ctx: BpContext, unit: TableUnit, quarter: QuarterName): Polygon =>
  quarterPolygon(quarterBox(ctx, unit), quarter, ctx.options.quarterReading);

/** The front edge of a box as a segment (left to right). */
export function frontEdge(box: FacedBox): [Vec2, Vec2] {
  const c = localCorners(box);
  return [toTable(box.frame, c.frontLeft), toTable(box.frame, c.frontRight)];
}

/**
 * Share of `target` inside a zone: by footprint area, or by the length of its front edge
 * (option halfMeasure).
 */
export function shareInZone(ctx: BpContext, target: TableUnit, zone: Polygon): number {
  if (ctx.options.halfMeasure === 'frontage') {
    const [a, b] = frontEdge(target.box);
    return segmentInsidePolygon(a, b, zone).reduce((s, iv) => s + (iv.t1 - iv.t0), 0);
  }
  const total = regionArea(target.bodyPolygons);
  return total === 0 ? 0 : Math.min(1, intersectionArea(target.bodyPolygons, [zone]) / total);
}

/**
 * Share of the target in the shooter's front quarter. Skirmishers see all round (1); a square
 * uses whichever face holds most of the target.
 */
export function frontFraction(ctx: BpContext, shooter: TableUnit, target: TableUnit): number {
  if (isSkirmish(shooter)) return 1;
  if (shooter.formationInUse === 'square') {
    const faces: QuarterName[] = ['front', 'right', 'rear', 'left'];
    return Math.max(...faces.map((f) => shareInZone(ctx, target, bpQuarterPolygon(ctx, shooter, f))));
  }
  return shareInZone(ctx, target, bpQuarterPolygon(ctx, shooter, 'front'));
}

/** Share of a unit's own footprint inside another unit's quarter (support by majority). */
export function unitShareInQuarter(
  ctx: BpContext,
  of: TableUnit,
  inUnit: TableUnit,
  quarter: QuarterName,
): number {
  const total = regionArea(of.bodyPolygons);
  return total === 0
    ? 0
    : intersectionArea(of.bodyPolygons, [bpQuarterPolygon(ctx, inUnit, quarter)]) / total;
}

export const boxOutline = facedBoxPolygon;
