import { unitSeparation, type MeasuredBase } from '../rules/unit-distance.ts';
import { fromMm } from './length-unit.ts';
import type { Scenario, UnitSpec } from './scenario.ts';
import { findByName } from './table-state.ts';

/** A base pose as measured (or last known), keyed by its marker. */
export interface BaseObservation {
  readonly markerId: number;
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
  readonly sigmaMm: number;
  readonly sigmaHeadingDeg: number;
  readonly seen: boolean;
  /** How long the base has not been measured, ms (absent or 0: measured now). */
  readonly missingMs?: number;
  /** Not measured where the picture is changing: being moved (absent: false). */
  readonly moving?: boolean;
}

export interface MeasuredUnitBase extends MeasuredBase {
  readonly markerId: number;
  readonly topMm: number;
  readonly seen: boolean;
  readonly missingMs: number;
  readonly moving: boolean;
}

export interface MeasuredUnit {
  readonly unit: UnitSpec;
  /** Bases that have been located at least once; a unit never seen has none. */
  readonly bases: readonly MeasuredUnitBase[];
}

/** Joins scenario units with observed base poses (camera-free use passes the file poses). */
export function measuredUnits(scenario: Scenario, observations: readonly BaseObservation[]): MeasuredUnit[] {
  const byMarker = new Map(observations.map((o) => [o.markerId, o]));
  return scenario.units.map((unit) => ({
    unit,
    bases: unit.bases.flatMap((spec) => {
      const o = byMarker.get(spec.marker.id);
      if (!o) return [];
      return [
        {
          markerId: spec.marker.id,
          topMm: spec.marker.heightMm,
          seen: o.seen,
          missingMs: o.missingMs ?? 0,
          moving: o.moving ?? false,
          sigmaMm: o.sigmaMm,
          sigmaHeadingDeg: o.sigmaHeadingDeg,
          footprint: {
            center: { x: o.x, y: o.y },
            width: spec.widthMm,
            depth: spec.depthMm,
            headingDeg: o.headingDeg,
          },
        },
      ];
    }),
  }));
}

/** Observations taken straight from the scenario file's poses (no camera), with zero uncertainty. */
export function fileObservations(scenario: Scenario): BaseObservation[] {
  return scenario.units.flatMap((u) =>
    u.bases.flatMap((b) =>
      b.pose ? [{ markerId: b.marker.id, ...b.pose, sigmaMm: 0, sigmaHeadingDeg: 0, seen: true }] : [],
    ),
  );
}

export interface UnitDistance {
  readonly a: string;
  readonly b: string;
  readonly distanceIn: number;
  readonly uncertaintyIn: number;
  readonly from: { readonly x: number; readonly y: number };
  readonly to: { readonly x: number; readonly y: number };
  /** False when a base of either unit is only a last-known pose. */
  readonly allSeen: boolean;
}

/** The same name lookup as the rules use (id or name, then a unique prefix); throws UnknownNameError. */
function findUnit(units: readonly MeasuredUnit[], ref: string): MeasuredUnit {
  const spec = findByName(
    units.map((u) => u.unit),
    ref,
  );
  return units.find((u) => u.unit === spec)!;
}

/** Edge-to-edge distance between two units in inches, with its one-sigma uncertainty. */
export function distanceBetween(
  units: readonly MeasuredUnit[],
  aRef: string,
  bRef: string,
): UnitDistance | null {
  const a = findUnit(units, aRef);
  const b = findUnit(units, bRef);
  if (a.bases.length === 0 || b.bases.length === 0) return null;
  const sep = unitSeparation(a.bases, b.bases);
  return {
    a: a.unit.id,
    b: b.unit.id,
    distanceIn: fromMm(sep.distance, 'in'),
    uncertaintyIn: fromMm(sep.sigmaMm, 'in'),
    from: sep.onA,
    to: sep.onB,
    allSeen: [...a.bases, ...b.bases].every((base) => base.seen),
  };
}
