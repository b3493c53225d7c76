import { resolve } from 'node:path';
import type { CameraProfile } from '../camera/profile.ts';
import type { TablePose } from '../camera/table-pose.ts';
import { verdict as makeVerdict, type Verdict } from '../rules/engine/verdict.ts';
import type { Scenario } from '../table/scenario.ts';
import { terrainChanges } from '../table/scenario-change.ts';
import { BattleRecorder, type RecorderOptions } from './recorder.ts';
import type { BasePose } from '../table/table-state.ts';
import { recordedTurnStart } from './recorded-table.ts';
import { rosterOf } from './roster.ts';
import { BattleStore, DEFAULT_DATA_DIR } from './store.ts';
import type { BattleSummary, MarkRecord, RecordedPose } from './types.ts';
import type { PictureSource } from '../vision/frame-picture.ts';

/**
 * Recording inside the live server: listens to the live loop's frames and keeps the current
 * battle's recorder fed. A new scenario loaded into the server ends the battle and starts the
 * next. The server calls `ruling()` / `measurement()` when it answers a question.
 */

export interface RecordOptions {
  /** Data folder; the store is `<dataDir>/battles.db`. */
  readonly dataDir: string;
  /** Start recording a battle as soon as the server runs (default true). */
  readonly autoStart?: boolean;
  readonly recorder?: RecorderOptions;
}

let defaults: RecordOptions | false = false;

/** What `startServer` records when its options say nothing: off, unless the CLI turned it on. */
export function recordingDefaults(): RecordOptions | false {
  return defaults;
}

export function setRecordingDefaults(next: RecordOptions | false): void {
  defaults = next;
}

/** The data folder from --data or VEDETTE_DATA, else `.vedette/` in the working directory. */
export function resolveDataDir(dir?: string): string {
  return resolve(dir ?? process.env['VEDETTE_DATA'] ?? DEFAULT_DATA_DIR);
}

/** The part of a live frame the recorder reads (structurally the live loop's `LiveFrame`). */
export interface RecordableFrame {
  readonly picture: PictureSource;
  readonly snapshot: {
    readonly result: {
      readonly capturedAt: number;
      readonly bases: ReadonlyArray<{
        readonly markerId: number;
        readonly x: number;
        readonly y: number;
        readonly headingDeg: number;
        readonly sigmaMm: number;
        readonly sigmaHeadingDeg: number;
        readonly seen: boolean;
      }>;
      readonly located: { readonly table: { readonly pose: TablePose } | null };
    };
  };
}

export interface FrameEmitter {
  on(event: 'frame', listener: (frame: RecordableFrame) => void): unknown;
  off(event: 'frame', listener: (frame: RecordableFrame) => void): unknown;
}

export interface LiveContext {
  scenario(): Scenario;
  camera(): CameraProfile;
}

export class RecordingOffError extends Error {
  override name = 'RecordingOffError';
}

export class LiveRecording {
  readonly store: BattleStore | null;
  private recorder: BattleRecorder | null = null;
  private scenarioOfBattle: Scenario | null = null;
  private cameraOfBattle: CameraProfile | null = null;
  private readonly listener = (frame: RecordableFrame) => this.onFrame(frame);

  private constructor(
    private readonly loop: FrameEmitter | null,
    private readonly ctx: LiveContext | null,
    private readonly options: RecordOptions | false,
  ) {
    this.store = options ? BattleStore.inDataDir(options.dataDir) : null;
    if (loop) loop.on('frame', this.listener);
    if (options && options.autoStart !== false && ctx) this.start();
  }

  /** Attaches to a live loop (recording per `options`, or the CLI's defaults when undefined). */
  static attach(loop: FrameEmitter, ctx: LiveContext, options?: RecordOptions | false): LiveRecording {
    return new LiveRecording(loop, ctx, options === undefined ? recordingDefaults() : options);
  }

  /** A store with no camera behind it (replay, export). */
  static offline(dataDir: string): LiveRecording {
    return new LiveRecording(null, null, { dataDir, autoStart: false });
  }

  get dataDir(): string | null {
    return this.options ? this.options.dataDir : null;
  }

  get currentBattleId(): number | null {
    return this.recorder?.battleId ?? null;
  }

  get current(): BattleRecorder | null {
    return this.recorder;
  }

  /**
   * The poses at the start of the current turn of the battle being recorded (the last turn mark
   * at or before `at`), for the rules; undefined with no battle, no turn mark yet, or when the
   * table watched is no longer the battle's.
   */
  turnStartPoses(at = Infinity): Map<number, BasePose> | undefined {
    const rec = this.recorder;
    if (!rec || !this.store || !this.ctx || this.ctx.scenario() !== this.scenarioOfBattle) return undefined;
    return recordedTurnStart(this.store, rec.battleId, at);
  }

  /** Ends the battle being recorded (if any) and starts a new one. */
  start(name?: string): BattleSummary {
    if (!this.store || !this.ctx)
      throw new RecordingOffError(
        'recording is off on this server (start it with `vedette serve`, which records into --data)',
      );
    void this.stop();
    const scenario = this.ctx.scenario();
    const camera = this.ctx.camera();
    const startedAt = Date.now();
    this.scenarioOfBattle = scenario;
    this.cameraOfBattle = camera;
    this.recorder = BattleRecorder.start(
      this.store,
      {
        name:
          name ?? `${scenario.name} — ${new Date(startedAt).toISOString().slice(0, 16).replace('T', ' ')}`,
        roster: rosterOf(scenario),
        camera,
        startedAt,
      },
      this.options ? this.options.recorder : {},
    );
    return this.store.battle(this.recorder.battleId);
  }

  async stop(): Promise<BattleSummary | null> {
    const rec = this.recorder;
    this.recorder = null;
    if (!rec || !this.store) return null;
    await rec.stop();
    return this.store.battle(rec.battleId);
  }

  private onFrame(frame: RecordableFrame): void {
    if (!this.recorder || !this.ctx || !this.store) return;
    try {
      if (this.ctx.scenario() !== this.scenarioOfBattle) {
        // Another table: this battle is over, the next begins.
        this.start();
        if (!this.recorder) return;
      }
      const camera = this.ctx.camera();
      if (camera !== this.cameraOfBattle) {
        this.cameraOfBattle = camera;
        this.store.setCamera(this.recorder.battleId, camera);
      }
      const r = frame.snapshot.result;
      this.recorder.onFrame({
        at: r.capturedAt,
        bases: r.bases,
        pose: r.located.table?.pose ?? null,
        picture: frame.picture,
      });
    } catch (err) {
      // Recording must never take the live picture down.
      console.error(`recorder: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * The scenario was edited without changing the table the camera watches (terrain, names): the
   * battle goes on, and each terrain change is noted in it where it happened.
   */
  scenarioEdited(before: Scenario, after: Scenario): void {
    if (this.scenarioOfBattle === before) this.scenarioOfBattle = after;
    const rec = this.recorder;
    if (!rec) return;
    try {
      for (const c of terrainChanges(before, after)) rec.annotate(c.text, c.at, 'terrain editor', Date.now());
    } catch (err) {
      console.error(`recorder: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The server answered a rules question: keep it with the battle. */
  ruling(
    verdict: Verdict,
    question: string,
    options?: Readonly<Record<string, string | number | boolean>>,
    poses?: readonly RecordedPose[],
  ): void {
    this.recorder?.ruling(verdict, question, options, undefined, poses);
  }

  /** The server answered "how far from A to B" (REST or a page's selection). */
  measurement(m: {
    a: string;
    b: string;
    distanceIn: number;
    uncertaintyIn: number;
    from: { x: number; y: number };
    to: { x: number; y: number };
    valid: boolean;
  }): void {
    if (!this.recorder) return;
    // The question in players' words: unit names, not ids (the ids stay in the ruling's inputs).
    const name = (id: string) => this.ctx?.scenario().units.find((u) => u.id === id)?.name ?? id;
    const v = makeVerdict({
      ruleset: 'measure',
      question: 'distance',
      asked: `distance from ${name(m.a)} to ${name(m.b)}`,
      answer: m.valid ? 'yes' : 'borderline',
      value: m.distanceIn,
      unit: 'in',
      between: [m.from, m.to],
      reasons: [
        `${m.distanceIn.toFixed(2)} in ± ${m.uncertaintyIn.toFixed(2)}${m.valid ? '' : ' (not measured this frame)'}`,
      ],
      facts: { uncertaintyIn: m.uncertaintyIn, valid: m.valid },
    });
    this.recorder.ruling(v, `distance ${m.a} ${m.b}`);
  }

  mark(
    battleId: number,
    input: {
      kind: 'turn' | 'phase';
      t?: number;
      side?: string | null;
      phase?: string | null;
      label?: string;
    },
  ): MarkRecord {
    if (!this.store) throw new RecordingOffError('recording is off on this server');
    if (this.recorder && this.recorder.battleId === battleId) return this.recorder.mark(input);
    // A battle already over: number the mark from the ones it has.
    const battle = this.store.battle(battleId);
    const marks = this.store.marks(battleId).filter((m) => m.kind === 'turn' && m.source === 'player');
    const t = input.t ?? battle.lastEventAt;
    const turn = marks.filter((m) => m.t <= t).length + (input.kind === 'turn' ? 1 : 0);
    const mark: MarkRecord = {
      t,
      kind: input.kind,
      turn: turn || null,
      phase: input.kind === 'phase' ? (input.phase ?? input.label ?? 'phase') : null,
      side: input.side ?? null,
      source: 'player',
      label: input.label ?? (input.kind === 'turn' ? `Turn ${turn}` : (input.phase ?? 'phase')),
    };
    return { ...mark, id: this.store.addMark(battleId, mark) };
  }

  async close(): Promise<void> {
    this.loop?.off('frame', this.listener);
    await this.stop();
    this.store?.close();
  }
}
