import type { CameraProfile } from '../../camera/profile.ts';
import { frameTable } from '../../synth/camera.ts';
import { boardPoseIndex } from '../../synth/charuco-board.ts';
import { LiveSyntheticTable } from '../../synth/live-table.ts';
import { syntheticTableExtras } from '../../synth/table-extras.ts';
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
  /** The version of the table extras (loose bases, calibration board) last loaded; −1 = none yet. */
  private extrasVersion = -1;

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
    // Loose bases pressed onto the table and a calibration board held over it (table-extras.ts).
    const extras = syntheticTableExtras;
    if (extras.version !== this.extrasVersion) {
      this.extrasVersion = extras.version;
      await this.table.setLooseBases(extras.looseBases);
      await this.table.setCalibrationBoard(extras.calibrationBoard);
    }
    const show = extras.calibrationBoard;
    const boardPose = show ? (show.poses[boardPoseIndex(show, sequence)] ?? null) : null;
    // Still tables still get fresh sensor noise each frame, as a real camera would.
    const { image } = this.moving
      ? this.table.frame(capturedAt - this.startedAt, boardPose)
      : this.table.frameWithPoses({}, sequence, boardPose);
    return { image: { ...image, channels: 3 }, capturedAt, sequence };
  }

  async close(): Promise<void> {}
}
