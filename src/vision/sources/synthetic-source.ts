import type { CameraProfile } from '../../camera/profile.ts';
import { frameTable, syntheticCameraProfile, type SynthCamera } from '../../synth/camera.ts';
import { renderScene } from '../../synth/render.ts';
import type { PoseOverrides } from '../../synth/scene.ts';
import type { Scenario } from '../../table/scenario.ts';
import type { Frame, FrameSource } from '../frame-source.ts';

export interface SyntheticSourceOptions {
  /** Move one unit slowly back and forth so the page is visibly live. */
  readonly moving: boolean;
  /** Unit that moves (default: the first unit with a pose whose side is not the first side's). */
  readonly movingUnitId?: string;
  readonly resolution?: '720p' | '1080p' | '4k';
}

/** How far (mm) the moving unit advances and how long (ms) one advance-and-retire takes. */
const SWING_MM = 150;
const PERIOD_MS = 20_000;

/** The built-in synthetic table as a camera: every frame rendered with known truth. */
export class SyntheticSource implements FrameSource {
  readonly name = 'synthetic table';
  readonly camera: CameraProfile;
  private readonly synthCamera: SynthCamera;
  private sequence = 0;
  private readonly startedAt = Date.now();

  constructor(
    private readonly scenario: Scenario,
    private readonly options: SyntheticSourceOptions,
  ) {
    this.synthCamera = frameTable(scenario.table, { resolution: options.resolution ?? '1080p' });
    this.camera = syntheticCameraProfile(this.synthCamera);
  }

  /** Poses of the moving unit at time t: it advances along its facing and back again. */
  posesAt(elapsedMs: number): PoseOverrides {
    if (!this.options.moving) return {};
    const unit =
      this.scenario.units.find((u) => u.id === this.options.movingUnitId) ??
      this.scenario.units.find((u) => u.side !== this.scenario.units[0]?.side && u.bases.every((b) => b.pose));
    if (!unit) return {};
    const advance = (SWING_MM / 2) * (1 - Math.cos((2 * Math.PI * elapsedMs) / PERIOD_MS));
    const poses: Record<number, { x: number; y: number; headingDeg: number }> = {};
    for (const base of unit.bases) {
      if (!base.pose) continue;
      const h = (base.pose.headingDeg * Math.PI) / 180;
      poses[base.marker.id] = {
        x: base.pose.x - Math.sin(h) * advance,
        y: base.pose.y + Math.cos(h) * advance,
        headingDeg: base.pose.headingDeg,
      };
    }
    return poses;
  }

  async next(): Promise<Frame> {
    const capturedAt = Date.now();
    const { image } = await renderScene(this.scenario, this.synthCamera, {
      poses: this.posesAt(capturedAt - this.startedAt),
      seed: this.sequence + 1,
    });
    return { image: { ...image, channels: 3 }, capturedAt, sequence: this.sequence++ };
  }

  async close(): Promise<void> {}
}
