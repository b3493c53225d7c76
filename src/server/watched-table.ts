import type { CameraProfile } from '../camera/profile.ts';
import type { Scenario } from '../table/scenario.ts';
import { sameForVision } from '../table/scenario-change.ts';
import type { FrameSource } from '../vision/frame-source.ts';
import { createSource, type SourceSpec } from '../vision/sources/create-source.ts';
import { WorkerPipeline } from '../vision/worker-pipeline.ts';
import type { LiveLoopOptions } from './live-loop-options.ts';
import { LiveLoop } from './live-loop.ts';

/** Told after each change, so that pages and the battle record follow (set by the server's wiring). */
export interface TableChangeHooks {
  /** A terrain or name edit, applied without touching the camera. */
  edited?(before: Scenario, next: Scenario): void;
  /** A new camera source is watching (before `after` and `changed`). */
  sourceReplaced?(source: FrameSource): void;
  /** Anything changed: scenario, camera, or both. */
  changed?(): void;
}

/**
 * The table being watched: the scenario, the camera and the live loop over them, and the only way
 * to change them. Changes go one at a time (a queue), because each may start a camera and a vision
 * worker, and two at once would leave one of them running unowned.
 */
export class WatchedTable {
  readonly hooks: TableChangeHooks = {};
  private changing: Promise<void> = Promise.resolve();

  private constructor(
    readonly loop: LiveLoop,
    private currentScenario: Scenario,
    private spec: SourceSpec,
    private currentCamera: CameraProfile,
    private currentSource: FrameSource,
  ) {}

  /** Starts the camera and the vision worker; if the worker fails the camera is closed again. */
  static async open(
    scenario: Scenario,
    spec: SourceSpec,
    loopOptions?: Partial<LiveLoopOptions>,
  ): Promise<WatchedTable> {
    const live = await createSource(spec, scenario);
    let pipeline: WorkerPipeline;
    try {
      pipeline = await WorkerPipeline.create(live.camera, scenario);
    } catch (err) {
      await live.source.close();
      throw err;
    }
    const loop = new LiveLoop(scenario, live.source, pipeline, loopOptions);
    return new WatchedTable(loop, scenario, spec, live.camera, live.source);
  }

  get scenario(): Scenario {
    return this.currentScenario;
  }
  get camera(): CameraProfile {
    return this.currentCamera;
  }
  get source(): FrameSource {
    return this.currentSource;
  }
  get sourceSpec(): SourceSpec {
    return this.spec;
  }

  /** Replaces the scenario; the camera is restarted only if the vision pipeline reads what changed. */
  async replaceScenario(next: Scenario): Promise<void> {
    // Terrain and names: the camera and the vision worker stay (well under a second); anything
    // the vision pipeline reads rebuilds them (seconds).
    if (sameForVision(this.currentScenario, next)) {
      return this.queue(() => {
        const before = this.currentScenario;
        this.loop.setScenario(next);
        this.currentScenario = next;
        this.hooks.edited?.(before, next);
        this.hooks.changed?.();
      });
    }
    await this.replaceLive(next, this.spec);
  }

  /** Watches the same scenario through another camera; `after` runs once the new one is live. */
  switchSource(spec: SourceSpec, after?: (source: FrameSource) => void): Promise<void> {
    return this.replaceLive(this.currentScenario, spec, after);
  }

  /** Resolves once the change under way (if any) is over, failed or not. */
  settled(): Promise<void> {
    return this.changing;
  }

  private replaceLive(
    nextScenario: Scenario,
    spec: SourceSpec,
    after?: (source: FrameSource) => void,
  ): Promise<void> {
    return this.queue(async () => {
      const nextLive = await createSource(spec, nextScenario);
      let nextPipeline: WorkerPipeline;
      try {
        nextPipeline = await WorkerPipeline.create(nextLive.camera, nextScenario);
      } catch (err) {
        await nextLive.source.close();
        throw err;
      }
      await this.loop.replace(nextScenario, nextLive.source, nextPipeline);
      this.currentScenario = nextScenario;
      this.spec = spec;
      this.currentCamera = nextLive.camera;
      this.currentSource = nextLive.source;
      this.hooks.sourceReplaced?.(nextLive.source);
      after?.(nextLive.source);
      this.hooks.changed?.();
    });
  }

  /** Runs `change` after the one before it; a failed change does not block the next. */
  private queue(change: () => void | Promise<void>): Promise<void> {
    const run = this.changing.then(change);
    this.changing = run.catch(() => undefined);
    return run;
  }
}
