import type { CameraProfile } from '../camera/profile.ts';
import type { Scenario } from '../table/scenario.ts';
import type { ClutterItem } from './clutter.ts';
import { syntheticCameraProfile, type SynthCamera } from './camera.ts';
import {
  charucoBoardImage,
  paintBoard,
  type BoardImage,
  type BoardPose,
  type CalibrationBoardShow,
} from './charuco-board.ts';
import { looseSceneBases, type LooseBase } from './loose-bases.ts';
import type { MarkerBits } from './marker-bits.ts';
import { blurRgb, gaussianKernel, NoiseBank, Prng, quantiseWithNoise, type Rect } from './noise.ts';
import { RENDER_DEFAULTS, type RenderOptions, type SynthFrame } from './render.ts';
import {
  buildScene,
  loadSceneBits,
  placedBases,
  sceneExtras,
  type BasePose,
  type PoseOverrides,
  type SceneBase,
  type SynthScene,
} from './scene.ts';
import type { BaseBox, PropBox } from './pixel-boxes.ts';
import { Shader } from './shade.ts';
import { sceneTruth } from './truth.ts';

/**
 * As `RenderOptions` (clutter, glare, shadows and print defects included) without per-call poses;
 * frames are synchronous, so JPEG is applied by the caller (`jpegRoundTrip` in encode.ts).
 */
export interface LiveTableOptions extends Omit<RenderOptions, 'poses' | 'jpegQuality'> {
  /** The unit that moves (default: the first unit with a base on the table). */
  readonly movingUnitId?: string;
  /** How far it advances before retiring, mm (default 150). */
  readonly advanceMm?: number;
  /** One advance-and-retire cycle, ms (default 20 000). */
  readonly periodMs?: number;
  /** Supersampling for the live frames (default 3: a little cheaper than renderScene's 4). */
  readonly supersampling?: number;
  /** Marked bases on the table that the scenario does not know (see loose-bases.ts). */
  readonly looseBases?: readonly LooseBase[];
  /** A ChArUco board held over the table; pass its pose to `frameWithPoses` (see charuco-board.ts). */
  readonly calibrationBoard?: CalibrationBoardShow;
  /**
   * Sensor noise from a bank drawn once (noise.ts NoiseBank): the live demo's camera rate. Off by
   * default: renders that tests and benchmarks score draw every sample afresh.
   */
  readonly noiseBank?: boolean;
  /**
   * Ink by point samples (Shader's `pointSampledInk`): the live demo's camera rate, its walk drawn
   * 2–3 ms a frame faster with cell edges on a ⅓ px grid. Off by default: pictures that tests and
   * benchmarks score integrate the ink under each sample.
   */
  readonly pointSampledInk?: boolean;
}

/**
 * The live demo camera: a fixed synthetic camera over the scenario, with one unit walking
 * slowly forward and back. The static picture (cloth, reference sheets, standing bases) is
 * rendered once; each frame redraws only the 16-px tiles the moving bases leave or enter,
 * re-blurs that patch and lays fresh sensor noise over the whole frame (with the noise bank, the
 * bank's fixed-point copy of the picture is also refreshed only over that patch).
 */
export class LiveSyntheticTable {
  readonly profile: CameraProfile;
  private readonly shader: Shader;
  private readonly background: Float32Array;
  private readonly clean: Float32Array;
  private readonly blurred: Float32Array;
  private readonly tmp: Float32Array;
  private kernel: Float32Array;
  private readonly mask: Uint8Array;
  /** Sensor noise from a bank drawn once (the live demo), or null: every sample drawn afresh. */
  private noiseBank: NoiseBank | null;
  private readonly useNoiseBank: boolean;
  /** Which picture the noise bank holds: `blurred` as it now is, another one, or none yet. */
  private noisePicture: 'blurred' | 'other' | 'none' = 'none';
  private readonly o: { seed: number; noiseSigma: number; advanceMm: number; periodMs: number };
  private readonly printDefects: LiveTableOptions['printDefects'];
  /** Clutter and lighting, compiled once (the same objects every frame, so nothing recompiles). */
  private extras: Pick<SynthScene, 'props' | 'lighting'>;
  private propBoxes: readonly PropBox[];
  /** Pixel rectangles to redraw in the next frame (clutter put down or taken away). */
  private pendingRects: Rect[] = [];
  private readonly movingUnitId: string | undefined;
  private readonly start: ReadonlyMap<number, BasePose>;
  private boxes = new Map<number, { pose: BasePose; box: BaseBox }>();
  private extraBases: readonly SceneBase[] = [];
  private boardImage: BoardImage | null = null;
  /** The picture with the board painted in, for the last board pose drawn (recomputed when anything moves). */
  private boardCache: { key: string; clean: Float32Array; blurred: Float32Array } | null = null;

  private constructor(
    readonly scenario: Scenario,
    readonly camera: SynthCamera,
    private readonly bits: ReadonlyMap<number, MarkerBits>,
    options: LiveTableOptions,
  ) {
    this.o = {
      seed: options.seed ?? RENDER_DEFAULTS.seed,
      noiseSigma: options.noiseSigma ?? RENDER_DEFAULTS.noiseSigma,
      advanceMm: options.advanceMm ?? 150,
      periodMs: options.periodMs ?? 20_000,
    };
    const placed = placedBases(scenario);
    this.movingUnitId = options.movingUnitId ?? placed[0]?.unitId;
    if (options.movingUnitId && !placed.some((p) => p.unitId === options.movingUnitId)) {
      throw new Error(`unit "${options.movingUnitId}" has no base on the table`);
    }
    this.start = new Map(placed.map((p) => [p.base.marker.id, p.pose]));
    this.profile = syntheticCameraProfile(camera);
    this.extras = sceneExtras(options);
    const scene = this.sceneWith(buildScene(scenario, bits, {}, { printDefects: options.printDefects }));
    this.shader = new Shader(camera, scene, {
      lighting: options.lighting ?? RENDER_DEFAULTS.lighting,
      supersampling: options.supersampling ?? 3,
      pointSampledInk: options.pointSampledInk === true,
    });
    const n = camera.width * camera.height * 3;
    this.background = new Float32Array(n);
    this.shader.renderBackground(this.background);
    this.clean = Float32Array.from(this.background);
    const boxes = scene.bases.map((b) => this.shader.baseBox(b));
    this.propBoxes = (scene.props ?? []).flatMap((p) => this.shader.propBoxes(p));
    this.shader.renderBases(this.clean, boxes, undefined, this.propBoxes);
    // From now on only the tiles bases move through are redrawn: keep their rays (ground-cache.ts).
    this.shader.enableGroundCache();
    scene.bases.forEach((b, i) => this.boxes.set(b.marker.id, { pose: b, box: boxes[i]! }));
    this.kernel = gaussianKernel(options.blurSigma ?? RENDER_DEFAULTS.blurSigma);
    this.blurred = new Float32Array(n);
    this.tmp = new Float32Array(n);
    blurRgb(this.clean, this.blurred, this.tmp, camera.width, camera.height, this.kernel);
    this.mask = new Uint8Array(this.shader.tileCount());
    this.useNoiseBank = options.noiseBank === true;
    this.noiseBank =
      this.useNoiseBank && this.o.noiseSigma > 0 ? new NoiseBank(this.o.noiseSigma, this.o.seed) : null;
    this.printDefects = options.printDefects;
  }

  private sceneWith(scene: SynthScene): SynthScene {
    return { ...scene, ...this.extras };
  }

  /** Replaces the clutter on the table (drawn from the next frame on; lighting stays). */
  setClutter(items: readonly ClutterItem[]): void {
    this.pendingRects.push(...this.propBoxes.map((b) => b.rect));
    this.extras = {
      ...sceneExtras({ clutter: items }),
      ...(this.extras.lighting ? { lighting: this.extras.lighting } : {}),
    };
    this.propBoxes = (this.extras.props ?? []).flatMap((p) => this.shader.propBoxes(p));
    this.pendingRects.push(...this.propBoxes.map((b) => b.rect));
  }

  /**
   * Changes the sensor: noise from the next frame on (a noise bank is drawn again at the new
   * level), and the lens blur (the whole picture is blurred again, as a full render would).
   */
  setSensor(sensor: { readonly noiseSigma?: number; readonly blurSigma?: number }): void {
    if (sensor.noiseSigma !== undefined && sensor.noiseSigma !== this.o.noiseSigma) {
      this.o.noiseSigma = sensor.noiseSigma;
      if (this.useNoiseBank)
        this.noiseBank = sensor.noiseSigma > 0 ? new NoiseBank(sensor.noiseSigma, this.o.seed) : null;
      this.noisePicture = 'none';
    }
    if (sensor.blurSigma !== undefined) {
      this.kernel = gaussianKernel(sensor.blurSigma);
      blurRgb(this.clean, this.blurred, this.tmp, this.camera.width, this.camera.height, this.kernel);
      this.boardCache = null;
      this.noisePicture = 'none';
    }
  }

  static async create(
    scenario: Scenario,
    camera: SynthCamera,
    options: LiveTableOptions = {},
  ): Promise<LiveSyntheticTable> {
    const table = new LiveSyntheticTable(scenario, camera, await loadSceneBits(scenario), options);
    if (options.looseBases) await table.setLooseBases(options.looseBases);
    if (options.calibrationBoard) await table.setCalibrationBoard(options.calibrationBoard);
    return table;
  }

  /** Replaces the loose bases on the table (drawn from the next frame on). */
  async setLooseBases(bases: readonly LooseBase[]): Promise<void> {
    const placed = new Set(placedBases(this.scenario).map((p) => p.base.marker.id));
    this.extraBases = await looseSceneBases(this.scenario.markerDictionary, bases, placed);
  }

  /** Prints the board a calibration will be shown (null: no board); its pose is given per frame. */
  async setCalibrationBoard(show: Pick<CalibrationBoardShow, 'spec'> | null): Promise<void> {
    this.boardImage = show ? await charucoBoardImage(show.spec) : null;
    this.boardCache = null;
  }

  /** Poses of the moving unit at `timeMs`: it advances along its facing and retires, smoothly. */
  posesAt(timeMs: number): PoseOverrides {
    const unit = this.scenario.units.find((u) => u.id === this.movingUnitId);
    if (!unit) return {};
    const lead = unit.bases.find((b) => this.start.has(b.marker.id));
    const leadPose = lead && this.start.get(lead.marker.id);
    if (!leadPose) return {};
    const h = (leadPose.headingDeg * Math.PI) / 180;
    const s = this.o.advanceMm * 0.5 * (1 - Math.cos((2 * Math.PI * timeMs) / this.o.periodMs));
    const out: Record<number, BasePose> = {};
    for (const b of unit.bases) {
      const p = this.start.get(b.marker.id);
      if (p)
        out[b.marker.id] = { x: p.x - s * Math.sin(h), y: p.y + s * Math.cos(h), headingDeg: p.headingDeg };
    }
    return out;
  }

  /**
   * The picture at `timeMs` with its truth. Deterministic for (seed, timeMs). `into`: a buffer of
   * width × height × 3 bytes to draw into (reused by the demo's renderer) instead of a fresh one.
   */
  frame(timeMs: number, boardPose: BoardPose | null = null, into?: Uint8Array): SynthFrame {
    return this.frameWithPoses(this.posesAt(timeMs), Math.round(timeMs), boardPose, into);
  }

  /** A frame with any bases moved (keyed by marker id); only what moved is redrawn. */
  frameWithPoses(
    poses: PoseOverrides,
    noiseKey = 0,
    boardPose: BoardPose | null = null,
    into?: Uint8Array,
  ): SynthFrame {
    const { width, height } = this.camera;
    const known: SynthScene = this.sceneWith(
      buildScene(this.scenario, this.bits, poses, { printDefects: this.printDefects }),
    );
    const scene: SynthScene =
      this.extraBases.length === 0 ? known : { ...known, bases: [...known.bases, ...this.extraBases] };
    this.shader.setScene(scene);
    this.mask.fill(0);
    let dirty = false;
    const boxes: BaseBox[] = [];
    const next = new Map<number, { pose: BasePose; box: BaseBox }>();
    for (const b of scene.bases) {
      const old = this.boxes.get(b.marker.id);
      const same = old && old.pose.x === b.x && old.pose.y === b.y && old.pose.headingDeg === b.headingDeg;
      const box = same ? old.box : this.shader.baseBox(b);
      if (!same) {
        if (old) this.shader.markTiles(this.mask, old.box.rect);
        this.shader.markTiles(this.mask, box.rect);
        dirty = true;
      }
      boxes.push(box);
      next.set(b.marker.id, { pose: b, box });
    }
    for (const [id, old] of this.boxes) {
      if (!next.has(id)) {
        this.shader.markTiles(this.mask, old.box.rect);
        dirty = true;
      }
    }
    this.boxes = next;
    for (const r of this.pendingRects) {
      this.shader.markTiles(this.mask, r);
      dirty = true;
    }
    this.pendingRects = [];
    if (dirty) {
      // Restore the cloth under every dirty tile, redraw bases there, re-blur the patch.
      let u: Rect = { x0: width, y0: height, x1: 0, y1: 0 };
      for (let k = 0; k < this.mask.length; k++) {
        if (!this.mask[k]) continue;
        const r = this.shader.tileRect(k);
        for (let y = r.y0; y < r.y1; y++) {
          const a = (y * width + r.x0) * 3;
          this.clean.set(this.background.subarray(a, a + (r.x1 - r.x0) * 3), a);
        }
        u = {
          x0: Math.min(u.x0, r.x0),
          y0: Math.min(u.y0, r.y0),
          x1: Math.max(u.x1, r.x1),
          y1: Math.max(u.y1, r.y1),
        };
      }
      this.shader.renderBases(this.clean, boxes, this.mask, this.propBoxes);
      const pad = (this.kernel.length - 1) / 2;
      const blurredRect = {
        x0: Math.max(0, u.x0 - pad),
        y0: Math.max(0, u.y0 - pad),
        x1: Math.min(width, u.x1 + pad),
        y1: Math.min(height, u.y1 + pad),
      };
      blurRgb(this.clean, this.blurred, this.tmp, width, height, this.kernel, blurredRect);
      if (this.noisePicture === 'blurred')
        this.noiseBank?.setPicture(this.blurred, { ...blurredRect, width });
    }
    if (into && into.length !== this.blurred.length)
      throw new Error(`frame buffer of ${into.length} bytes for a ${width}×${height} RGB picture`);
    const data = into ?? new Uint8Array(this.blurred.length);
    if (dirty && this.boardCache) this.boardCache = { ...this.boardCache, key: '' };
    const picture = boardPose && this.boardImage ? this.withBoard(this.boardImage, boardPose) : this.blurred;
    const key = (this.o.seed * 1_000_003 + noiseKey) | 0;
    if (this.noiseBank) {
      // The bank keeps its own copy of the picture: refreshed only where it changed (above).
      if (picture !== this.blurred || this.noisePicture !== 'blurred') this.noiseBank.setPicture(picture);
      this.noisePicture = picture === this.blurred ? 'blurred' : 'other';
      this.noiseBank.applyTo(data, key);
    } else quantiseWithNoise(picture, data, this.o.noiseSigma, new Prng(key));
    return { image: { width, height, data }, truth: sceneTruth(this.camera, scene) };
  }

  /** The blurred picture with the board held at `pose` in front of everything (cached per pose). */
  private withBoard(image: BoardImage, pose: BoardPose): Float32Array {
    const key = JSON.stringify(pose);
    if (this.boardCache?.key === key) return this.boardCache.blurred;
    const { width, height } = this.camera;
    const clean = this.boardCache?.clean ?? new Float32Array(this.clean.length);
    const blurred = this.boardCache?.blurred ?? new Float32Array(this.clean.length);
    clean.set(this.clean);
    blurred.set(this.blurred);
    const r = paintBoard(this.camera, image, pose, clean);
    const pad = (this.kernel.length - 1) / 2;
    if (r.x1 > r.x0 && r.y1 > r.y0)
      blurRgb(clean, blurred, this.tmp, width, height, this.kernel, {
        x0: Math.max(0, r.x0 - pad),
        y0: Math.max(0, r.y0 - pad),
        x1: Math.min(width, r.x1 + pad),
        y1: Math.min(height, r.y1 + pad),
      });
    this.boardCache = { key, clean, blurred };
    return blurred;
  }
}
