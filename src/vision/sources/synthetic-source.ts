import type { CameraProfile } from '../../camera/profile.ts';
import { frameTable } from '../../synth/camera.ts';
import { LiveSyntheticTable } from '../../synth/live-table.ts';
import type { Scenario } from '../../table/scenario.ts';
import type { Frame, FrameSource } from '../frame-source.ts';

export interface SyntheticSourceOptions {
  /** Move one unit slowly forward and back so the page is visibly live. */
  readonly moving: boolean;
  /** Unit that moves (default: the first unit of the second side, i.e. the attackers). */
  readonly movingUnitId?: string;
  readonly resolution?: '720p' | '1080p' | '4k';
}

/** The unit that walks in the demo: the first unit whose side differs from the first unit's. */
function defaultMovingUnit(scenario: Scenario): string | undefined {
  const firstSide = scenario.units[0]?.side;
  return (scenario.units.find((u) => u.side !== firstSide) ?? scenario.units[0])?.id;
}

/** The built-in synthetic table as a camera: every frame rendered with known truth. */
export class SyntheticSource implements FrameSource {
  readonly name = 'synthetic table';
  private sequence = 0;
  private readonly startedAt = Date.now();

  private constructor(
    private readonly table: LiveSyntheticTable,
    private readonly moving: boolean,
  ) {}

  static async create(scenario: Scenario, options: SyntheticSourceOptions): Promise<SyntheticSource> {
    const camera = frameTable(scenario.table, { resolution: options.resolution ?? '1080p' });
    const movingUnitId = options.movingUnitId ?? defaultMovingUnit(scenario);
    const table = await LiveSyntheticTable.create(scenario, camera, movingUnitId ? { movingUnitId } : {});
    return new SyntheticSource(table, options.moving);
  }

  get camera(): CameraProfile {
    return this.table.profile;
  }

  async next(): Promise<Frame> {
    const capturedAt = Date.now();
    const sequence = this.sequence++;
    // Still tables still get fresh sensor noise each frame, as a real camera would.
    const { image } = this.moving
      ? this.table.frame(capturedAt - this.startedAt)
      : this.table.frameWithPoses({}, sequence);
    return { image: { ...image, channels: 3 }, capturedAt, sequence };
  }

  async close(): Promise<void> {}
}
