/**
 * The frames the live benchmark's MJPEG camera sends (bench/live.ts): Vedette's own synthetic
 * renderer over the scenario `vedette serve` watches by default, at 1080p, each frame encoded as
 * JPEG with sharp and kept with the renderer's truth. A still set (fresh sensor noise each frame)
 * and a loop in which the demo's walking unit is carried a fixed step per frame along a serpentine
 * (out, a short step aside, back, aside, … and home), so no pose comes back within the loop (≈ 3 s).
 */
import { readFileSync } from 'node:fs';
import type { CameraProfile } from '../src/camera/profile.ts';
import { frameTable } from '../src/synth/camera.ts';
import { encodeJpeg } from '../src/synth/encode.ts';
import { LiveSyntheticTable } from '../src/synth/live-table.ts';
import { placedBases, type BasePose } from '../src/synth/scene.ts';
import type { SceneTruth } from '../src/synth/truth.ts';
import { parseScenarioText, type Scenario } from '../src/table/scenario.ts';
import { defaultMovingUnit } from '../src/vision/sources/synthetic-source.ts';
import type { TablePoint, UnitPose } from './live-latency.ts';

export interface StreamFrame {
  readonly jpeg: Buffer;
  /** Where the moving unit's bases are in this frame (renderer's truth), keyed by marker id. */
  readonly truth: UnitPose;
}

export interface BenchFrames {
  readonly scenario: Scenario;
  readonly profile: CameraProfile;
  /** The renderer, for the demo's own moving poses (`posesAt`) when the server renders. */
  readonly table: LiveSyntheticTable;
  readonly movingUnitId: string;
  /** Every base of the still table (renderer's truth), keyed by marker id. */
  readonly stillTruth: UnitPose;
  readonly still: readonly StreamFrame[];
  readonly moving: readonly StreamFrame[];
  readonly renderMs: number;
  readonly meanJpegBytes: number;
}

export interface FramePlan {
  readonly scenarioPath: string;
  readonly seed: number;
  readonly stillFrames: number;
  /** How far the unit is carried between two frames, mm. */
  readonly stepMm: number;
  /** Length of the loop's long legs, mm. */
  readonly legMm: number;
  readonly jpegQuality: number;
}

/**
 * The moving unit's offset (table mm) at each frame of the loop: `legs` (even) legs of `legMm`
 * along x, out along −x and back, two steps towards +y between them, then one step to +x and down
 * that column home. Consecutive offsets (and the last and first) are one step apart; no two are
 * closer, so a pose comes back only once a loop.
 */
export function loopOffsets(stepMm: number, legMm: number, legs = 4): TablePoint[] {
  if (legs < 2 || legs % 2 !== 0) throw new Error('the loop needs an even number of legs');
  const n = Math.max(1, Math.round(legMm / stepMm));
  const out: TablePoint[] = [{ x: 0, y: 0 }];
  for (let leg = 0; leg < legs; leg++) {
    const y = 2 * leg * stepMm;
    for (let i = 1; i <= n; i++) out.push({ x: (leg % 2 === 0 ? -i : i - n) * stepMm, y });
    const x = leg % 2 === 0 ? -n * stepMm : 0;
    if (leg < legs - 1) for (let j = 1; j <= 2; j++) out.push({ x, y: y + j * stepMm });
  }
  // Home down a column of its own; the step after the last is the first frame, (0, 0).
  for (let k = 2 * (legs - 1); k >= 1; k--) out.push({ x: stepMm, y: k * stepMm });
  out.push({ x: stepMm, y: 0 });
  return out;
}

function unitTruth(truth: SceneTruth, unitId: string | null): Map<number, TablePoint> {
  return new Map(
    truth.bases
      .filter((b) => unitId === null || b.unitId === unitId)
      .map((b) => [b.markerId, { x: b.centreMm.x, y: b.centreMm.y }]),
  );
}

export async function renderBenchFrames(plan: FramePlan): Promise<BenchFrames> {
  const started = performance.now();
  const scenario = parseScenarioText(readFileSync(plan.scenarioPath, 'utf8'), plan.scenarioPath);
  const movingUnitId = defaultMovingUnit(scenario);
  if (!movingUnitId) throw new Error(`${plan.scenarioPath} has no unit to move`);
  // The camera the synthetic source frames the table with (synthetic-worker.ts), so that the
  // figures of both cameras are of the same picture.
  const camera = frameTable(scenario.table, { resolution: '1080p' });
  const table = await LiveSyntheticTable.create(scenario, camera, { seed: plan.seed, movingUnitId });
  const start = placedBases(scenario).filter((p) => p.unitId === movingUnitId);
  let bytes = 0;
  const encode = async (poses: Record<number, BasePose>, key: number) => {
    const frame = table.frameWithPoses(poses, key);
    const jpeg = await encodeJpeg(frame.image, { quality: plan.jpegQuality });
    bytes += jpeg.length;
    return { frame, jpeg };
  };
  const still: StreamFrame[] = [];
  let stillTruth: UnitPose = new Map();
  for (let i = 0; i < plan.stillFrames; i++) {
    const { frame, jpeg } = await encode({}, plan.seed * 1000 + i);
    if (i === 0) stillTruth = unitTruth(frame.truth, null);
    still.push({ jpeg, truth: unitTruth(frame.truth, movingUnitId) });
  }
  const moving: StreamFrame[] = [];
  const offsets = loopOffsets(plan.stepMm, plan.legMm);
  for (let i = 0; i < offsets.length; i++) {
    const d = offsets[i]!;
    const poses: Record<number, BasePose> = {};
    for (const p of start)
      poses[p.base.marker.id] = { x: p.pose.x + d.x, y: p.pose.y + d.y, headingDeg: p.pose.headingDeg };
    const { frame, jpeg } = await encode(poses, plan.seed * 1000 + 500 + i);
    moving.push({ jpeg, truth: unitTruth(frame.truth, movingUnitId) });
  }
  return {
    scenario,
    profile: table.profile,
    table,
    movingUnitId,
    stillTruth,
    still,
    moving,
    renderMs: performance.now() - started,
    meanJpegBytes: bytes / (still.length + moving.length),
  };
}

/** The demo's own walking unit at `timeMs` of its clock (what the server's renderer draws). */
export function demoPose(frames: BenchFrames, timeMs: number): UnitPose {
  const poses = frames.table.posesAt(timeMs);
  const ids = [...frames.stillTruth.keys()];
  const unitIds = new Set(
    placedBases(frames.scenario)
      .filter((p) => p.unitId === frames.movingUnitId)
      .map((p) => p.base.marker.id),
  );
  return new Map(ids.filter((id) => unitIds.has(id) && poses[id]).map((id) => [id, poses[id]!]));
}
