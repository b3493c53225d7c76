import type { PictureSource } from '../vision/frame-picture.ts';
import type { CameraProfile } from '../camera/profile.ts';
import type { TablePose } from '../camera/table-pose.ts';
import type { Verdict } from '../rules/engine/verdict.ts';
import { unitsByMarker } from './roster.ts';
import { SettleDetector, type PoseSample, type SettleOptions, type SettledMove } from './settle.ts';
import type { BattleStore } from './store.ts';
import type { BattleRoster, MarkRecord, RecordedPose } from './types.ts';

/**
 * Records one battle from tracked frames: settled moves (through the settle detector), a
 * keyframe of the whole table every `keyframeEveryMs`, a small JPEG at each settle point, turn
 * marks (the players' own, or inferred from which side moves), rulings and annotations.
 * Per-frame cost is the settle detector plus, now and then, one queued insert.
 */

export interface RecorderOptions {
  readonly settle?: Partial<SettleOptions>;
  /** Keyframe period in frame time (ms). */
  readonly keyframeEveryMs?: number;
  /** Width of the pictures kept at settle points (0: keep none). */
  readonly snapshotWidth?: number;
  readonly snapshotQuality?: number;
  /** A change of the moving side after this long without moves is inferred as a new turn. */
  readonly turnQuietMs?: number;
}

export const DEFAULT_RECORDER_OPTIONS = {
  keyframeEveryMs: 10_000,
  snapshotWidth: 640,
  snapshotQuality: 70,
  turnQuietMs: 3000,
} as const;

export interface RecordedFrame {
  /** Capture time of the frame (epoch ms). */
  readonly at: number;
  readonly bases: readonly PoseSample[];
  /** The frame's table pose (for drawing on its picture later). */
  readonly pose?: TablePose | null;
  /** The frame's picture; a small JPEG copy of it is kept when something settles. */
  readonly picture?: PictureSource;
}

export interface NewRecording {
  readonly name: string;
  readonly roster: BattleRoster;
  readonly camera: CameraProfile | null;
  readonly startedAt: number;
}

export class BattleRecorder {
  private readonly settle: SettleDetector;
  private readonly byMarker;
  private readonly o: Required<Omit<RecorderOptions, 'settle'>>;
  private lastKeyframeAt: number | null = null;
  private lastAt = 0;
  private lastPoses: readonly RecordedPose[] = [];
  private playerTurns = 0;
  private inferredTurns = 0;
  private lastMove: { side: string; at: number } | null = null;
  private snapshotBusy = false;
  private pendingSnapshots = new Set<Promise<void>>();
  private stopped = false;
  framesSeen = 0;

  constructor(
    readonly store: BattleStore,
    readonly battleId: number,
    readonly roster: BattleRoster,
    options: RecorderOptions = {},
  ) {
    this.settle = new SettleDetector(options.settle);
    this.byMarker = unitsByMarker(roster);
    this.o = { ...DEFAULT_RECORDER_OPTIONS, ...options };
    const turns = store.marks(battleId).filter((m) => m.kind === 'turn');
    this.playerTurns = turns.filter((m) => m.source === 'player').length;
    this.inferredTurns = turns.filter((m) => m.source === 'inferred').length;
  }

  static start(store: BattleStore, battle: NewRecording, options: RecorderOptions = {}): BattleRecorder {
    return new BattleRecorder(store, store.startBattle(battle), battle.roster, options);
  }

  get settleOptions(): SettleOptions {
    return this.settle.options;
  }

  /** Feeds one tracked frame. Returns the moves it settled. */
  onFrame(frame: RecordedFrame): SettledMove[] {
    if (this.stopped) return [];
    this.framesSeen++;
    this.lastAt = frame.at;
    this.lastPoses = frame.bases.filter((b) => b.seen);
    const known = frame.bases.filter((b) => this.byMarker.has(b.markerId));
    const settled = this.settle.update(frame.at, known);
    for (const m of settled) {
      const unit = this.byMarker.get(m.markerId)!;
      if (m.from) this.inferTurn(unit.side, m.movingSince, m.t); // first sightings are deployment, not a turn
      this.store.addMove(this.battleId, {
        t: m.t,
        unitId: unit.unitId,
        ...m.pose,
        from: m.from ? { x: m.from.x, y: m.from.y, headingDeg: m.from.headingDeg } : null,
        movingSince: m.movingSince,
      });
    }
    if (this.lastKeyframeAt === null || frame.at - this.lastKeyframeAt >= this.o.keyframeEveryMs) {
      this.lastKeyframeAt = frame.at;
      this.store.addKeyframe(this.battleId, { t: frame.at, poses: this.settle.settledPoses() });
    }
    if (settled.length > 0 && frame.picture && this.o.snapshotWidth > 0)
      this.keepPicture(frame.picture, frame);
    return settled;
  }

  private inferTurn(side: string, movingSince: number, at: number): void {
    // `at`: when the move settled; the turn is marked from when the unit started moving.
    const last = this.lastMove;
    this.lastMove = { side, at };
    if (this.playerTurns > 0) return;
    if (last && (last.side === side || movingSince - last.at < this.o.turnQuietMs)) return;
    this.inferredTurns++;
    const sideName = this.roster.sides.find((s) => s.id === side)?.name ?? side;
    this.store.addMark(this.battleId, {
      t: movingSince,
      kind: 'turn',
      turn: this.inferredTurns,
      phase: null,
      side,
      source: 'inferred',
      label: `Turn ${this.inferredTurns} · ${sideName} (inferred)`,
    });
  }

  /** A small copy of the picture, made off the frame path (one at a time; a busy encoder skips). */
  private keepPicture(picture: PictureSource, frame: RecordedFrame): void {
    if (this.snapshotBusy) return;
    this.snapshotBusy = true;
    const job = picture
      .scaledJpeg(this.o.snapshotWidth, this.o.snapshotQuality)
      .then(({ data, width, height }) => {
        if (!this.store.db.open) return;
        this.store.addSnapshot(this.battleId, { t: frame.at, width, height, pose: frame.pose ?? null }, data);
      })
      .catch((err: unknown) =>
        console.error(`recorder: picture not kept: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => {
        this.snapshotBusy = false;
        this.pendingSnapshots.delete(job);
      });
    this.pendingSnapshots.add(job);
  }

  /** A turn or phase marked by the players. */
  mark(input: {
    kind: 'turn' | 'phase';
    t?: number;
    side?: string | null;
    phase?: string | null;
    label?: string;
  }): MarkRecord {
    const t = input.t ?? (this.lastAt || Date.now());
    let mark: MarkRecord;
    if (input.kind === 'turn') {
      this.playerTurns++;
      const sideName = input.side
        ? (this.roster.sides.find((s) => s.id === input.side)?.name ?? input.side)
        : null;
      mark = {
        t,
        kind: 'turn',
        turn: this.playerTurns,
        phase: null,
        side: input.side ?? null,
        source: 'player',
        label: input.label ?? `Turn ${this.playerTurns}${sideName ? ` · ${sideName}` : ''}`,
      };
    } else {
      const phase = input.phase ?? input.label ?? 'phase';
      mark = {
        t,
        kind: 'phase',
        turn: this.playerTurns || null,
        phase,
        side: input.side ?? null,
        source: 'player',
        label: input.label ?? phase,
      };
    }
    return { ...mark, id: this.store.addMark(this.battleId, mark) };
  }

  /** A ruling given now (or at `t`), with the question and the poses it was computed from. */
  ruling(
    verdict: Verdict,
    question: string,
    options?: Readonly<Record<string, string | number | boolean>>,
    t?: number,
    /** The poses the verdict was worked out from (default: the last frame's seen bases). */
    poses: readonly RecordedPose[] = this.lastPoses,
  ): number {
    return this.store.addRuling(this.battleId, {
      t: t ?? (this.lastAt || Date.now()),
      inputs: { question, ...(options ? { options } : {}), poses: poses.map(stripSeen) },
      verdict,
    });
  }

  annotate(
    text: string,
    at: { x: number; y: number } | null = null,
    author: string | null = null,
    t?: number,
  ): number {
    return this.store.addAnnotation(this.battleId, { t: t ?? (this.lastAt || Date.now()), text, at, author });
  }

  /** Waits for pictures being encoded, commits, and marks the battle ended. */
  async stop(at = this.lastAt || Date.now()): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all([...this.pendingSnapshots]);
    if (!this.store.db.open) return;
    this.store.addKeyframe(this.battleId, { t: at, poses: this.settle.settledPoses() });
    this.store.endBattle(this.battleId, at);
  }
}

function stripSeen(p: RecordedPose): RecordedPose {
  return {
    markerId: p.markerId,
    x: p.x,
    y: p.y,
    headingDeg: p.headingDeg,
    sigmaMm: p.sigmaMm,
    sigmaHeadingDeg: p.sigmaHeadingDeg,
  };
}
