import { degToRad } from '../geometry/angle.ts';
import { boxGap, boxOf, boxPointGap, type Box } from '../geometry/box.ts';
import { pointToPolygon, polygonSeparation, type Separation } from '../geometry/distance.ts';
import { corners, type OrientedRect } from '../geometry/oriented-rect.ts';
import type { Polygon } from '../geometry/polygon.ts';
import { distance, type Vec2 } from '../geometry/vec.ts';

/** A base as the rules see it: its footprint and how sure we are of it. */
export interface MeasuredBase {
  readonly footprint: OrientedRect;
  /** One-sigma position uncertainty of the base centre, mm (per axis). */
  readonly sigmaMm: number;
  /** One-sigma heading uncertainty, degrees. */
  readonly sigmaHeadingDeg: number;
  /** Footprint outline and its bounding box, when already computed (saves work). */
  readonly polygon?: Polygon;
  readonly box?: Box;
}

export interface UnitSeparation extends Separation {
  /** One-sigma uncertainty of `distance`, mm. */
  readonly sigmaMm: number;
}

const outline = (b: MeasuredBase): Polygon => b.polygon ?? corners(b.footprint);
const boundsOf = (b: MeasuredBase): Box => b.box ?? boxOf(outline(b));

/** One sigma of a measured end point: centre error, plus the heading error times its lever arm. */
/** One end's share of a separation's variance: centre error plus heading error × lever arm. */
export const endSigma2 = (b: MeasuredBase, at: Vec2): number =>
  b.sigmaMm ** 2 + (distance(b.footprint.center, at) * degToRad(b.sigmaHeadingDeg)) ** 2;

/**
 * Edge-to-edge distance between two units (the closest pair of their bases' footprints).
 * Uncertainty: each base's position error moves the gap by at most its sigma along the
 * measuring line, and a heading error swings the measured point by (lever arm × angle);
 * the four terms are independent, so they add in quadrature.
 * Base pairs whose bounding boxes are already farther apart than the best pair are skipped.
 */
export function unitSeparation(a: readonly MeasuredBase[], b: readonly MeasuredBase[]): UnitSeparation {
  let best: { sep: Separation; baseA: MeasuredBase; baseB: MeasuredBase } | undefined;
  const boxesB = b.map(boundsOf);
  for (const baseA of a) {
    const boxA = boundsOf(baseA);
    const polyA = outline(baseA);
    b.forEach((baseB, j) => {
      if (best && boxGap(boxA, boxesB[j] as Box) >= best.sep.distance) return;
      const sep = polygonSeparation(polyA, outline(baseB));
      if (!best || sep.distance < best.sep.distance) best = { sep, baseA, baseB };
    });
  }
  if (!best) throw new Error('unitSeparation needs at least one base on each side');
  const { sep, baseA, baseB } = best;
  const sigmaMm = Math.sqrt(endSigma2(baseA, sep.onA) + endSigma2(baseB, sep.onB));
  return { ...sep, sigmaMm };
}

/**
 * Distance from a point (a commander's head, a barrel tip) with its own one-sigma error to the
 * nearest base of a unit, with the nearest point (`onB`) and propagated uncertainty.
 */
export function pointToUnit(p: Vec2, sigmaPointMm: number, bases: readonly MeasuredBase[]): UnitSeparation {
  let best: { sep: Separation; base: MeasuredBase } | undefined;
  for (const base of bases) {
    if (best && boxPointGap(boundsOf(base), p) >= best.sep.distance) continue;
    const sep = pointToPolygon(p, outline(base));
    if (!best || sep.distance < best.sep.distance) best = { sep, base };
  }
  if (!best) throw new Error('pointToUnit needs at least one base');
  return { ...best.sep, sigmaMm: Math.sqrt(sigmaPointMm ** 2 + endSigma2(best.base, best.sep.onB)) };
}
