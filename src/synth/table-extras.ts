import { boardPoseIndex, type BoardPose, type CalibrationBoardShow } from './charuco-board.ts';
import type { LiveSyntheticTable } from './live-table.ts';
import type { LooseBase } from './loose-bases.ts';

/**
 * Things put on (or held over) the synthetic table that are not in the scenario: loose marked
 * bases a player has pressed onto the table but not bound yet, and a ChArUco board held up to
 * the camera for the calibration wizard. One per process, because the synthetic camera is
 * re-created whenever the scenario changes (a binding is a scenario change) while the things on
 * the table stay where they are. Every synthetic source reads it before each frame; the
 * synthetic-camera routes (dev and test use) write it.
 */
export class SyntheticTableExtras {
  private loose: readonly LooseBase[] = [];
  private shown: CalibrationBoardShow | null = null;
  private changes = 0;

  /** Bumped on every change, so a source knows to reload. */
  get version(): number {
    return this.changes;
  }
  get looseBases(): readonly LooseBase[] {
    return this.loose;
  }
  get calibrationBoard(): CalibrationBoardShow | null {
    return this.shown;
  }

  /** Puts a base on the table, replacing any loose base with the same marker. */
  putBase(base: LooseBase): void {
    this.loose = [...this.loose.filter((b) => b.markerId !== base.markerId), base];
    this.changes++;
  }
  /** Takes a loose base away; false if there was none with that marker. */
  removeBase(markerId: number): boolean {
    const before = this.loose.length;
    this.loose = this.loose.filter((b) => b.markerId !== markerId);
    if (this.loose.length === before) return false;
    this.changes++;
    return true;
  }
  showBoard(show: CalibrationBoardShow | null): void {
    this.shown = show;
    this.changes++;
  }
  clear(): void {
    this.loose = [];
    this.shown = null;
    this.changes++;
  }
}

export const syntheticTableExtras = new SyntheticTableExtras();

/**
 * What a synthetic renderer needs of the extras for one frame, as plain data (it crosses a
 * worker-thread boundary): the loose bases and board when they changed since `knownVersion`, and
 * the board pose for frame `sequence`.
 */
export interface ExtrasForFrame {
  readonly version: number;
  /** Present only when the extras changed since the renderer's version. */
  readonly changed?: {
    readonly looseBases: readonly LooseBase[];
    readonly board: CalibrationBoardShow | null;
  };
  readonly boardPose: BoardPose | null;
}

export function extrasForFrame(
  extras: SyntheticTableExtras,
  knownVersion: number,
  sequence: number,
): ExtrasForFrame {
  const show = extras.calibrationBoard;
  return {
    version: extras.version,
    ...(extras.version !== knownVersion ? { changed: { looseBases: extras.looseBases, board: show } } : {}),
    boardPose: show ? (show.poses[boardPoseIndex(show, sequence)] ?? null) : null,
  };
}

/** Applies `extrasForFrame` to a live table (in whichever thread renders); returns the board pose to draw. */
export async function applyExtras(table: LiveSyntheticTable, msg: ExtrasForFrame): Promise<BoardPose | null> {
  if (msg.changed) {
    await table.setLooseBases(msg.changed.looseBases);
    await table.setCalibrationBoard(msg.changed.board);
  }
  return msg.boardPose;
}
