import { cameraCentre, type SynthCamera } from './camera.ts';
import { LightingField, type SceneLighting } from './lighting.ts';
import { printedInk } from './print-defects.ts';
import type { SceneMarker, SynthScene } from './scene.ts';
import type { GroundCache } from './ground-cache.ts';
import { InkCoverage } from './ink-coverage.ts';

/**
 * The ray caster's first layer (ray-caster.ts hits, shade.ts pixels): the camera, the scene and
 * the scratch every layer's inner loops share through `this`, and what a point a ray met looks
 * like before anything stands on it: its light, glare and vignette, and a marker's printed ink
 * under the sample's footprint.
 */

export interface ShadeOptions {
  /** Unevenness of the light, 0 = flat, 1 = strong hot spot, gradient and vignette (default 0.25). */
  readonly lighting: number;
  /** Samples per axis where edges are (bases, markers, table edge); default 4. */
  readonly supersampling: number;
  /**
   * Ink by point samples instead of integrated over each sample's footprint (ink-coverage.ts):
   * cell edges on a 1/s px grid, for pictures only looked at (the live demo; 2–3 ms a frame).
   */
  readonly pointSampledInk?: boolean;
}

export const PAPER: readonly [number, number, number] = [238, 238, 232];
export const STICKER: readonly [number, number, number] = [240, 240, 236];
const INK: readonly [number, number, number] = [24, 24, 27];

export abstract class SurfaceShader {
  readonly width: number;
  readonly height: number;
  protected readonly ox: number;
  protected readonly oy: number;
  protected readonly oz: number;
  protected readonly ss: number;
  private readonly lighting: number;
  // Scratch, so the inner loops allocate nothing.
  protected readonly acc = new Float64Array(3);
  protected readonly n0 = new Float64Array(2);
  protected readonly n1 = new Float64Array(2);
  protected readonly n2 = new Float64Array(2);
  protected readonly colour = new Float64Array(3);
  /**
   * Step of the ray direction from one sample to the next across (subU) and down (subV) the
   * pixel, while a pixel of s > 1 samples is shaded: each sample stands for that footprint, and
   * a marker's ink is integrated over it (ink-coverage.ts). Unset (subOn false) for 1 sample.
   */
  protected readonly subU = new Float64Array(3);
  protected readonly subV = new Float64Array(3);
  protected subOn = false;
  protected readonly integrateInk: boolean;
  private readonly ink = new InkCoverage();
  /** Glare and cast shadows of the scene; null when it has none (the plain, fast path). */
  private field: LightingField | null = null;
  private fieldOf: SceneLighting | undefined;
  /** Plain booleans for the hot paths (a default scene pays one test per sample). */
  protected glareOn = false;
  protected shadowsOn = false;
  /** Rays of redrawn pixels kept from frame to frame (the live table), or null (see ground-cache.ts). */
  protected groundCache: GroundCache | null = null;

  constructor(
    readonly cam: SynthCamera,
    protected scene: SynthScene,
    options: ShadeOptions,
  ) {
    this.width = cam.width;
    this.height = cam.height;
    const c = cameraCentre(cam);
    this.ox = c.x;
    this.oy = c.y;
    this.oz = c.z;
    this.ss = Math.max(1, Math.round(options.supersampling));
    this.integrateInk = options.pointSampledInk !== true;
    this.lighting = Math.max(0, options.lighting);
    this.setScene(scene);
  }

  setScene(scene: SynthScene): void {
    this.scene = scene;
    if (scene.lighting !== this.fieldOf) {
      this.groundCache?.clear();
      this.fieldOf = scene.lighting;
      this.field = scene.lighting ? new LightingField(scene.lighting) : null;
      this.glareOn = this.field?.hasGlare ?? false;
      this.shadowsOn = this.field?.hasShadows ?? false;
    }
  }

  /** Light at (x, y) with the cast shadows (what lies on the table receives). */
  protected light(x: number, y: number): number {
    const l = this.openLight(x, y);
    return this.shadowsOn ? l * this.field!.shade(x, y) : l;
  }

  /** Glare on a surface of `gloss` at (x, y), weighted by the sample's share w (only when glareOn). */
  protected addGlare(x: number, y: number, gloss: number, w: number): void {
    const g = this.field!.glare(x, y) * gloss * w;
    this.acc[0]! += g;
    this.acc[1]! += g;
    this.acc[2]! += g;
  }

  /** Light falling on table point (x, y) before cast shadows: a hot spot off-centre plus a gentle gradient. */
  protected openLight(x: number, y: number): number {
    const { widthMm: w, depthMm: d } = this.scene.table;
    const hx = x - 0.38 * w;
    const hy = y - 0.62 * d;
    const hot = (hx * hx + hy * hy) / (0.45 * (w * w + d * d));
    return 1.04 - this.lighting * (0.7 * hot + 0.35 * (x / w));
  }

  /** Lens vignette at pixel (u, v). */
  protected vignette(u: number, v: number): number {
    const du = (u - this.cam.cx) / (this.width / 2);
    const dv = (v - this.cam.cy) / (this.width / 2);
    return 1 - 0.45 * this.lighting * (du * du + dv * dv);
  }

  /**
   * Adds ink or paper of a marker at table point (x, y) to acc; false if outside its paper. The
   * ray (direction dx, dy, dz) met the marker's plane at distance t: with the sample's footprint
   * known (subOn), the ink is its share of that footprint, else the point's.
   */
  protected markerTexel(
    m: SceneMarker,
    x: number,
    y: number,
    k: number,
    paper: readonly [number, number, number],
    t: number,
    dx: number,
    dy: number,
    dz: number,
  ): boolean {
    const px = x - m.x;
    const py = y - m.y;
    const a = px * m.right[0] + py * m.right[1];
    const b = px * m.up[0] + py * m.up[1];
    const half = m.sizeMm / 2;
    if (Math.abs(a) > m.paperHalfMm || Math.abs(b) > m.paperHalfMm) return false;
    let inkShare = 0;
    if (m.print) {
      if (printedInk(m.bits, m.sizeMm, m.paperHalfMm, m.print, a, b)) inkShare = 1;
    } else {
      inkShare = this.subOn ? this.footprintInk(m, a, b, t, dx, dy, dz) : Number.NaN;
      if (Number.isNaN(inkShare)) {
        inkShare = 0;
        if (a > -half && a < half && b > -half && b < half) {
          const n = m.bits.cells;
          const col = Math.min(n - 1, Math.floor(((a + half) / m.sizeMm) * n));
          const row = Math.min(n - 1, Math.floor(((half - b) / m.sizeMm) * n));
          if (m.bits.white[row * n + col] === 0) inkShare = 1;
        }
      }
    }
    const p = 1 - inkShare;
    this.acc[0]! += (paper[0] * p + INK[0] * inkShare) * k;
    this.acc[1]! += (paper[1] * p + INK[1] * inkShare) * k;
    this.acc[2]! += (paper[2] * p + INK[2] * inkShare) * k;
    return true;
  }

  /**
   * Ink under the current sample's footprint on marker m (its plane met at distance t along
   * direction d), or NaN where it cannot be integrated. A point P = O + t·D on the plane moves by
   * t·(δD − D·δD_z/D_z) when the direction moves by δD.
   */
  private footprintInk(
    m: SceneMarker,
    a: number,
    b: number,
    t: number,
    dx: number,
    dy: number,
    dz: number,
  ): number {
    const su = this.subU;
    const sv = this.subV;
    const ru = su[2]! / dz;
    const rv = sv[2]! / dz;
    const pux = t * (su[0]! - dx * ru);
    const puy = t * (su[1]! - dy * ru);
    const pvx = t * (sv[0]! - dx * rv);
    const pvy = t * (sv[1]! - dy * rv);
    const [rx, ry] = m.right;
    const [ux, uy] = m.up;
    return this.ink.coverage(
      m.bits,
      m.sizeMm,
      a,
      b,
      pux * rx + puy * ry,
      pux * ux + puy * uy,
      pvx * rx + pvy * ry,
      pvx * ux + pvy * uy,
    );
  }

  /** Sets the step between samples from the pixel's direction map (direction = r · (x, y, 1)). */
  protected setSubSteps(ax: number, ay: number, bx: number, by: number, s: number): void {
    const r = this.cam.rotation;
    const su = this.subU;
    const sv = this.subV;
    for (let i = 0; i < 3; i++) {
      su[i] = (r[i]! * ax + r[i + 3]! * ay) / s;
      sv[i] = (r[i]! * bx + r[i + 3]! * by) / s;
    }
    this.subOn = this.integrateInk;
  }
}
