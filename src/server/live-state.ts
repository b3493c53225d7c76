import type { CameraProfile } from '../camera/profile.ts';
import { distanceBetween, measuredUnits, type MeasuredUnit } from '../table/measured-units.ts';
import type { Scenario } from '../table/scenario.ts';
import type { PipelineResult } from '../vision/pipeline.ts';
import type { MeasurementView, StateMessage, UnitView } from './protocol.ts';

/** What the server knows after one processed frame, before it is tailored to each browser. */
export interface LiveSnapshot {
  readonly result: PipelineResult;
  readonly units: readonly MeasuredUnit[];
}

export function snapshotOf(scenario: Scenario, result: PipelineResult): LiveSnapshot {
  return { result, units: measuredUnits(scenario, result.bases) };
}

function unitViews(scenario: Scenario, units: readonly MeasuredUnit[]): UnitView[] {
  const colours = new Map(scenario.sides.map((s) => [s.id, s.colour]));
  return units.map(({ unit, bases }) => ({
    id: unit.id,
    name: unit.name,
    side: unit.side,
    colour: colours.get(unit.side) ?? '#888888',
    bases: bases.map((b) => ({
      markerId: b.markerId,
      x: b.footprint.center.x,
      y: b.footprint.center.y,
      headingDeg: b.footprint.headingDeg,
      widthMm: b.footprint.width,
      depthMm: b.footprint.depth,
      topMm: b.topMm,
      seen: b.seen,
      missingMs: b.missingMs,
      moving: b.moving,
      sigmaMm: b.sigmaMm,
    })),
  }));
}

/** The live distance between two units, marked invalid when the table pose or a base is not current. */
export function measurementView(snapshot: LiveSnapshot, a: string, b: string): MeasurementView | null {
  const d = distanceBetween(snapshot.units, a, b);
  if (!d) return null;
  const table = snapshot.result.located.table;
  // Only a confirmed table pose and freshly seen bases make a measurement a player can rely on.
  const valid = table !== null && table.status === 'stable' && d.allSeen;
  const why = !table
    ? 'table pose unknown'
    : table.status !== 'stable'
      ? 'camera moved, re-checking'
      : 'not measured this frame';
  const text = `${d.distanceIn.toFixed(2)} in ± ${d.uncertaintyIn.toFixed(2)}${valid ? '' : ` (${why})`}`;
  return {
    a: d.a,
    b: d.b,
    distanceIn: d.distanceIn,
    uncertaintyIn: d.uncertaintyIn,
    from: d.from,
    to: d.to,
    valid,
    text,
  };
}

export function stateMessage(
  scenario: Scenario,
  camera: CameraProfile,
  snapshot: LiveSnapshot,
  measurement: MeasurementView | null,
): StateMessage {
  return {
    type: 'state',
    frame: snapshot.result.sequence,
    timestamp: snapshot.result.capturedAt,
    table: scenario.table,
    camera,
    pose: snapshot.result.located.table?.pose ?? null,
    poseStatus: snapshot.result.located.table?.status ?? 'unknown',
    units: unitViews(scenario, snapshot.units),
    detectionMs: snapshot.result.detectionMs,
    measurement,
  };
}
