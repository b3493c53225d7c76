import { degToRad } from '../geometry/angle.ts';
import { polygonSeparation, type Separation } from '../geometry/distance.ts';
import { corners, type OrientedRect } from '../geometry/oriented-rect.ts';
import { distance } from '../geometry/vec.ts';

/** A base as the rules see it: its footprint and how sure we are of it. */
export interface MeasuredBase {
  readonly footprint: OrientedRect;
  /** One-sigma position uncertainty of the base centre, mm (per axis). */
  readonly sigmaMm: number;
  /** One-sigma heading uncertainty, degrees. */
  readonly sigmaHeadingDeg: number;
}

export interface UnitSeparation extends Separation {
  /** One-sigma uncertainty of `distance`, mm. */
  readonly sigmaMm: number;
}

/**
 * Edge-to-edge distance between two units (the closest pair of their bases' footprints).
 * Uncertainty: each base's position error moves the gap by at most its sigma along the
 * measuring line, and a heading error swings the measured point by (lever arm × angle);
 * the four terms are independent, so they add in quadrature.
 */
export function unitSeparation(a: readonly MeasuredBase[], b: readonly MeasuredBase[]): UnitSeparation {
  let best: { sep: Separation; baseA: MeasuredBase; baseB: MeasuredBase } | undefined;
  for (const baseA of a) {
    for (const baseB of b) {
      const sep = polygonSeparation(corners(baseA.footprint), corners(baseB.footprint));
      if (!best || sep.distance < best.sep.distance) best = { sep, baseA, baseB };
    }
  }
  if (!best) throw new Error('unitSeparation needs at least one base on each side');
  const { sep, baseA, baseB } = best;
  const leverA = distance(baseA.footprint.center, sep.onA) * degToRad(baseA.sigmaHeadingDeg);
  const leverB = distance(baseB.footprint.center, sep.onB) * degToRad(baseB.sigmaHeadingDeg);
  const sigmaMm = Math.sqrt(baseA.sigmaMm ** 2 + baseB.sigmaMm ** 2 + leverA ** 2 + leverB ** 2);
  return { ...sep, sigmaMm };
}
