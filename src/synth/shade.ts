// One file over ~400 lines on purpose: a single ray caster (per-pixel hit, texture and light), whose parts share hot inner-loop state; its cached path (ground-cache.ts) shares them too.
import { cameraCentre, projectPoint, type SynthCamera } from './camera.ts';
import { undistort } from './lens.ts';
import type { Rect } from './noise.ts';
import { GLOSS, LightingField, type SceneLighting } from './lighting.ts';
import { printedInk } from './print-defects.ts';
import type { Prop } from './props.ts';
import type { SceneBase, SceneMarker, SynthScene } from './scene.ts';
import { valueNoise } from './value-noise.ts';
import { GroundCache, RAY_STRIDE, type RayTile } from './ground-cache.ts';
import { InkCoverage } from './ink-coverage.ts';

/**
 * The ray caster: one ray per (sub)pixel from the camera centre through the lens, hit against
 * the raised base boxes, the reference sheets and the table, textured and lit. Writes linear
 * RGB floats (0–255 scale) before blur and noise. Pixel centres are at integer coordinates.
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

const PAPER: readonly [number, number, number] = [238, 238, 232];
const STICKER: readonly [number, number, number] = [240, 240, 236];
const INK: readonly [number, number, number] = [24, 24, 27];
const TILE = 16;
/**
 * Beyond this distance from a base (mm, along either of its axes) its contact shadow's factor
 * 1 − 0.5·e^(−d/1.8) rounds to exactly 1 in doubles (0.5·e^(−38.9) < 2^−54), so it is skipped.
 */
const FAR_CONTACT_MM = 70;

export interface BaseBox {
  readonly base: SceneBase;
  /** Pixel rectangle that holds the base, its walls and its contact shadow. */
  readonly rect: Rect;
}

/** One part of a prop's picture (a prop may have several, so long thin parts stay tight). */
export interface PropBox {
  readonly prop: Prop;
  readonly rect: Rect;
}

export class Shader {
  readonly width: number;
  readonly height: number;
  private readonly ox: number;
  private readonly oy: number;
  private readonly oz: number;
  private readonly ss: number;
  private readonly lighting: number;
  private readonly tilesX: number;
  private readonly tilesY: number;
  // Scratch, so the inner loops allocate nothing.
  private readonly acc = new Float64Array(3);
  private readonly n0 = new Float64Array(2);
  private readonly n1 = new Float64Array(2);
  private readonly n2 = new Float64Array(2);
  private readonly colour = new Float64Array(3);
  /**
   * Step of the ray direction from one sample to the next across (subU) and down (subV) the
   * pixel, while a pixel of s > 1 samples is shaded: each sample stands for that footprint, and
   * a marker's ink is integrated over it (ink-coverage.ts). Unset (subOn false) for 1 sample.
   */
  private readonly subU = new Float64Array(3);
  private readonly subV = new Float64Array(3);
  private subOn = false;
  private readonly integrateInk: boolean;
  private readonly ink = new InkCoverage();
  /** Glare and cast shadows of the scene; null when it has none (the plain, fast path). */
  private field: LightingField | null = null;
  private fieldOf: SceneLighting | undefined;
  /** Plain booleans for the hot paths (a default scene pays one test per sample). */
  private glareOn = false;
  private shadowsOn = false;
  /** Rays of redrawn pixels kept from frame to frame (the live table), or null (see ground-cache.ts). */
  private groundCache: GroundCache | null = null;
  // The base the last `nearestBase` found: its distance along the ray, face and side.
  private hitT = Infinity;
  private hitFace = -1;
  private hitSgn = 0;

  constructor(
    readonly cam: SynthCamera,
    private scene: SynthScene,
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
    this.tilesX = Math.ceil(this.width / TILE);
    this.tilesY = Math.ceil(this.height / TILE);
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
  private light(x: number, y: number): number {
    const l = this.openLight(x, y);
    return this.shadowsOn ? l * this.field!.shade(x, y) : l;
  }

  /** Glare on a surface of `gloss` at (x, y), weighted by the sample's share w (only when glareOn). */
  private addGlare(x: number, y: number, gloss: number, w: number): void {
    const g = this.field!.glare(x, y) * gloss * w;
    this.acc[0]! += g;
    this.acc[1]! += g;
    this.acc[2]! += g;
  }

  /** Light falling on table point (x, y) before cast shadows: a hot spot off-centre plus a gentle gradient. */
  private openLight(x: number, y: number): number {
    const { widthMm: w, depthMm: d } = this.scene.table;
    const hx = x - 0.38 * w;
    const hy = y - 0.62 * d;
    const hot = (hx * hx + hy * hy) / (0.45 * (w * w + d * d));
    return 1.04 - this.lighting * (0.7 * hot + 0.35 * (x / w));
  }

  /** Lens vignette at pixel (u, v). */
  private vignette(u: number, v: number): number {
    const du = (u - this.cam.cx) / (this.width / 2);
    const dv = (v - this.cam.cy) / (this.width / 2);
    return 1 - 0.45 * this.lighting * (du * du + dv * dv);
  }

  /**
   * Adds ink or paper of a marker at table point (x, y) to acc; false if outside its paper. The
   * ray (direction dx, dy, dz) met the marker's plane at distance t: with the sample's footprint
   * known (subOn), the ink is its share of that footprint, else the point's.
   */
  private markerTexel(
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
  private setSubSteps(ax: number, ay: number, bx: number, by: number, s: number): void {
    const r = this.cam.rotation;
    const su = this.subU;
    const sv = this.subV;
    for (let i = 0; i < 3; i++) {
      su[i] = (r[i]! * ax + r[i + 3]! * ay) / s;
      sv[i] = (r[i]! * bx + r[i + 3]! * by) / s;
    }
    this.subOn = this.integrateInk;
  }

  /**
   * Keeps the rays of the pixels `renderBases` redraws from one call to the next, for a camera,
   * table, reference sheets and light that stay as they are (the live table's): cached pixels are
   * shaded bit for bit as afresh, without the lens, the cloth's texture or the sheets (ground-cache.ts).
   */
  enableGroundCache(): void {
    this.groundCache ??= new GroundCache();
  }

  /**
   * The nearest base box a ray enters (slab test in the base's own frame), or undefined; its
   * distance, face (0 = top, 1 = ±x wall, 2 = ±y wall) and side in hitT, hitFace, hitSgn.
   */
  private nearestBase(
    dx: number,
    dy: number,
    dz: number,
    cands: readonly SceneBase[],
  ): SceneBase | undefined {
    const { ox, oy, oz } = this;
    let tBest = Infinity;
    let hitBase: SceneBase | undefined;
    let face = -1;
    let sgn = 0;
    for (const b of cands) {
      const px = ox - b.x;
      const py = oy - b.y;
      const lx = px * b.cos + py * b.sin;
      const ly = -px * b.sin + py * b.cos;
      const ldx = dx * b.cos + dy * b.sin;
      const ldy = -dx * b.sin + dy * b.cos;
      let t0 = (b.topMm - oz) / dz; // entering through the top plane (camera is above)
      let t1 = -oz / dz;
      let f = 0;
      let s = 0;
      if (Math.abs(ldx) > 1e-15) {
        let a = (-b.halfWidth - lx) / ldx;
        let c = (b.halfWidth - lx) / ldx;
        let sa = -1;
        if (a > c) {
          const tmp = a;
          a = c;
          c = tmp;
          sa = 1;
        }
        if (a > t0) {
          t0 = a;
          f = 1;
          s = sa;
        }
        if (c < t1) t1 = c;
      } else if (Math.abs(lx) > b.halfWidth) continue;
      if (Math.abs(ldy) > 1e-15) {
        let a = (-b.halfDepth - ly) / ldy;
        let c = (b.halfDepth - ly) / ldy;
        let sa = -1;
        if (a > c) {
          const tmp = a;
          a = c;
          c = tmp;
          sa = 1;
        }
        if (a > t0) {
          t0 = a;
          f = 2;
          s = sa;
        }
        if (c < t1) t1 = c;
      } else if (Math.abs(ly) > b.halfDepth) continue;
      if (t0 <= t1 && t0 > 0 && t0 < tBest) {
        tBest = t0;
        hitBase = b;
        face = f;
        sgn = s;
      }
    }
    this.hitT = tBest;
    this.hitFace = face;
    this.hitSgn = sgn;
    return hitBase;
  }

  /** Shades a ray that met base `hitBase` at distance t (face and side from `nearestBase`) into acc. */
  private shadeBase(hitBase: SceneBase, t: number, dx: number, dy: number, dz: number, w: number): void {
    const { ox, oy, oz, acc } = this;
    const x = ox + t * dx;
    const y = oy + t * dy;
    const z = oz + t * dz;
    const l = this.light(x, y) * w;
    if (this.hitFace === 0) {
      if (!this.markerTexel(hitBase.marker, x, y, l, STICKER, t, dx, dy, dz)) {
        acc[0]! += hitBase.colour[0] * l;
        acc[1]! += hitBase.colour[1] * l;
        acc[2]! += hitBase.colour[2] * l;
        if (this.glareOn) this.addGlare(x, y, GLOSS.paint, w);
      } else if (this.glareOn) this.addGlare(x, y, GLOSS.paper, w);
      return;
    }
    // Wall: outward normal in table frame; lit from the upper left, darker at the foot.
    const sgn = this.hitSgn;
    const nx = this.hitFace === 1 ? sgn * hitBase.cos : -sgn * hitBase.sin;
    const ny = this.hitFace === 1 ? sgn * hitBase.sin : sgn * hitBase.cos;
    const k = l * (0.42 + 0.22 * (-0.6 * nx + 0.8 * ny)) * (0.8 + (0.2 * z) / hitBase.topMm);
    acc[0]! += hitBase.colour[0] * k;
    acc[1]! += hitBase.colour[1] * k;
    acc[2]! += hitBase.colour[2] * k;
    if (this.glareOn) this.addGlare(x, y, GLOSS.wall, w);
  }

  /** The cloth's light k at (x, y) darkened by each base's contact shadow within a few millimetres. */
  private contactShadows(x: number, y: number, k: number, cands: readonly SceneBase[]): number {
    for (const b of cands) {
      const px = x - b.x;
      const py = y - b.y;
      const ex = Math.max(0, Math.abs(px * b.cos + py * b.sin) - b.halfWidth);
      const ey = Math.max(0, Math.abs(-px * b.sin + py * b.cos) - b.halfDepth);
      if (ex > FAR_CONTACT_MM || ey > FAR_CONTACT_MM) continue; // a factor of exactly 1
      // Beside a side (not off a corner) the distance is the other axis's, which Math.hypot returns exactly.
      const d = ey === 0 ? ex : ex === 0 ? ey : Math.hypot(ex, ey);
      k *= 1 - 0.5 * Math.exp(-d / 1.8);
    }
    return k;
  }

  /** Shades one ray (direction dx, dy, dz in table frame) into acc, with weight w. */
  private shadeRay(
    dx: number,
    dy: number,
    dz: number,
    cands: readonly SceneBase[] | null,
    w: number,
    props: readonly Prop[] | null,
  ): void {
    const { ox, oy, oz, acc } = this;
    // Nearest base box.
    let tBest = Infinity;
    let hitBase: SceneBase | undefined;
    if (cands) {
      hitBase = this.nearestBase(dx, dy, dz, cands);
      tBest = this.hitT;
    }
    if (props) {
      // Clutter nearer than any base hides it.
      let hitProp: Prop | undefined;
      for (const p of props) {
        const t = p.intersect(ox, oy, oz, dx, dy, dz);
        if (t < tBest) {
          tBest = t;
          hitProp = p;
        }
      }
      if (hitProp) {
        const x = ox + tBest * dx;
        const y = oy + tBest * dy;
        const gloss = hitProp.surface(x, y, oz + tBest * dz, this.colour);
        const l = (hitProp.inCastShadows ? this.light(x, y) : this.openLight(x, y)) * w;
        acc[0]! += this.colour[0]! * l;
        acc[1]! += this.colour[1]! * l;
        acc[2]! += this.colour[2]! * l;
        if (this.glareOn) this.addGlare(x, y, gloss, w);
        return;
      }
    }
    if (hitBase) {
      this.shadeBase(hitBase, tBest, dx, dy, dz, w);
      return;
    }
    // Reference sheets, highest first wins.
    for (const m of this.scene.references) {
      const t = (m.z - oz) / dz;
      if (t <= 0) continue;
      const x = ox + t * dx;
      const y = oy + t * dy;
      if (this.markerTexel(m, x, y, this.light(x, y) * w, PAPER, t, dx, dy, dz)) {
        if (this.glareOn) this.addGlare(x, y, GLOSS.paper, w);
        return;
      }
    }
    const t = -oz / dz;
    const x = ox + t * dx;
    const y = oy + t * dy;
    let k = this.light(x, y) * w;
    const { widthMm: W, depthMm: D } = this.scene.table;
    if (x < 0 || y < 0 || x > W || y > D) {
      // The floor beyond the table edge: dark boards.
      const g = 0.85 + 0.15 * valueNoise(x / 400, y / 25, 7);
      acc[0]! += 58 * g * k;
      acc[1]! += 47 * g * k;
      acc[2]! += 40 * g * k;
      if (this.glareOn) this.addGlare(x, y, GLOSS.floor, w);
      return;
    }
    // Contact shadow: darkens the cloth within a few millimetres of each base.
    if (cands) k = this.contactShadows(x, y, k, cands);
    if (props) for (const p of props) k *= p.contact(x, y);
    // Cloth: broad mottling, a finer nap and a few blades of lighter flock.
    const n1 = valueNoise(x / 70, y / 70, 1);
    const n2 = valueNoise(x / 13, y / 13, 2);
    const n3 = valueNoise(x / 2.2, y / 2.2, 3);
    const g = 0.78 + 0.2 * n1 + 0.1 * n2 + 0.08 * n3;
    acc[0]! += (52 + 18 * n2) * g * k;
    acc[1]! += (98 + 10 * n1) * g * k;
    acc[2]! += (46 + 6 * n3) * g * k;
    if (this.glareOn) this.addGlare(x, y, GLOSS.cloth, w);
  }

  /**
   * Shades pixel (u, v) with s×s samples into buf. Rays within a pixel come from a linear map
   * fitted to exact undistortions at (u, v), (u+1, v), (u, v+1): the lens is smooth, so this
   * is off by < 1e-4 px and saves most of the Newton solves.
   */
  shadePixel(
    u: number,
    v: number,
    s: number,
    cands: readonly SceneBase[] | null,
    buf: Float32Array,
    centreKnown = false,
    props: readonly Prop[] | null = null,
  ): void {
    const cam = this.cam;
    const { n0, n1, n2, acc } = this;
    const xd = (u - cam.cx) / cam.fx;
    const yd = (v - cam.cy) / cam.fy;
    // The background pass has already undistorted the pixel centre into n0.
    if (!centreKnown) undistort(cam.distortion, xd, yd, n0);
    const r = cam.rotation;
    acc[0] = 0;
    acc[1] = 0;
    acc[2] = 0;
    if (s === 1) {
      this.subOn = false;
      const x = n0[0]!;
      const y = n0[1]!;
      this.shadeRay(
        r[0] * x + r[3] * y + r[6],
        r[1] * x + r[4] * y + r[7],
        r[2] * x + r[5] * y + r[8],
        cands,
        1,
        props,
      );
    } else {
      undistort(cam.distortion, xd + 1 / cam.fx, yd, n1, n0[0], n0[1]);
      undistort(cam.distortion, xd, yd + 1 / cam.fy, n2, n0[0], n0[1]);
      const ax = n1[0]! - n0[0]!;
      const ay = n1[1]! - n0[1]!;
      const bx = n2[0]! - n0[0]!;
      const by = n2[1]! - n0[1]!;
      const w = 1 / (s * s);
      this.setSubSteps(ax, ay, bx, by, s);
      for (let j = 0; j < s; j++) {
        const fv = (j + 0.5) / s - 0.5;
        for (let i = 0; i < s; i++) {
          const fu = (i + 0.5) / s - 0.5;
          const x = n0[0]! + fu * ax + fv * bx;
          const y = n0[1]! + fu * ay + fv * by;
          this.shadeRay(
            r[0] * x + r[3] * y + r[6],
            r[1] * x + r[4] * y + r[7],
            r[2] * x + r[5] * y + r[8],
            cands,
            w,
            props,
          );
        }
      }
    }
    this.writePixel(u, v, buf);
  }

  /** acc through the lens vignette into pixel (u, v) of buf. */
  private writePixel(u: number, v: number, buf: Float32Array): void {
    const acc = this.acc;
    const vig = this.vignette(u, v);
    const o = (v * this.width + u) * 3;
    buf[o] = acc[0]! * vig;
    buf[o + 1] = acc[1]! * vig;
    buf[o + 2] = acc[2]! * vig;
  }

  /** As `shadePixel` (centre not known, no props, no glare or cast shadows), rays from `tile`'s cache. */
  private shadePixelCached(
    u: number,
    v: number,
    s: number,
    cands: readonly SceneBase[],
    buf: Float32Array,
    tile: RayTile,
    p: number,
  ): void {
    const n = s * s;
    const rays = tile.rays;
    const first = p * n * RAY_STRIDE;
    if (!tile.filled[p]) {
      this.fillPixel(u, v, s, rays, first);
      tile.filled[p] = 1;
    }
    const acc = this.acc;
    acc[0] = 0;
    acc[1] = 0;
    acc[2] = 0;
    const w = s === 1 ? 1 : 1 / (s * s);
    // The direction map is linear across the pixel, so neighbouring cached rays give the steps.
    this.subOn = s > 1 && this.integrateInk;
    if (this.subOn)
      for (let i = 0; i < 3; i++) {
        this.subU[i] = rays[first + RAY_STRIDE + i]! - rays[first + i]!;
        this.subV[i] = rays[first + s * RAY_STRIDE + i]! - rays[first + i]!;
      }
    for (let o = first; o < first + n * RAY_STRIDE; o += RAY_STRIDE) {
      const dx = rays[o]!;
      const dy = rays[o + 1]!;
      const dz = rays[o + 2]!;
      const hitBase = this.nearestBase(dx, dy, dz, cands);
      if (hitBase) {
        this.shadeBase(hitBase, this.hitT, dx, dy, dz, w);
        continue;
      }
      const x = rays[o + 3]!;
      if (Number.isNaN(x)) {
        // A reference sheet or the floor: what it adds is fixed.
        acc[0]! += rays[o + 6]!;
        acc[1]! += rays[o + 7]!;
        acc[2]! += rays[o + 8]!;
        continue;
      }
      const k = this.contactShadows(x, rays[o + 4]!, rays[o + 5]!, cands);
      acc[0]! += rays[o + 6]! * k;
      acc[1]! += rays[o + 7]! * k;
      acc[2]! += rays[o + 8]! * k;
    }
    this.writePixel(u, v, buf);
  }

  /** The rays of pixel (u, v) as `shadePixel` casts them, and what each meets past the bases, into rays. */
  private fillPixel(u: number, v: number, s: number, rays: Float64Array, first: number): void {
    const cam = this.cam;
    const { n0, n1, n2 } = this;
    const xd = (u - cam.cx) / cam.fx;
    const yd = (v - cam.cy) / cam.fy;
    undistort(cam.distortion, xd, yd, n0);
    const r = cam.rotation;
    if (s === 1) {
      this.subOn = false;
      const x = n0[0]!;
      const y = n0[1]!;
      this.fillGround(
        r[0] * x + r[3] * y + r[6],
        r[1] * x + r[4] * y + r[7],
        r[2] * x + r[5] * y + r[8],
        1,
        rays,
        first,
      );
      return;
    }
    undistort(cam.distortion, xd + 1 / cam.fx, yd, n1, n0[0], n0[1]);
    undistort(cam.distortion, xd, yd + 1 / cam.fy, n2, n0[0], n0[1]);
    const ax = n1[0]! - n0[0]!;
    const ay = n1[1]! - n0[1]!;
    const bx = n2[0]! - n0[0]!;
    const by = n2[1]! - n0[1]!;
    const w = 1 / (s * s);
    this.setSubSteps(ax, ay, bx, by, s);
    let o = first;
    for (let j = 0; j < s; j++) {
      const fv = (j + 0.5) / s - 0.5;
      for (let i = 0; i < s; i++) {
        const fu = (i + 0.5) / s - 0.5;
        const x = n0[0]! + fu * ax + fv * bx;
        const y = n0[1]! + fu * ay + fv * by;
        this.fillGround(
          r[0] * x + r[3] * y + r[6],
          r[1] * x + r[4] * y + r[7],
          r[2] * x + r[5] * y + r[8],
          w,
          rays,
          o,
        );
        o += RAY_STRIDE;
      }
    }
  }

  /**
   * One ray's direction and what it meets past the bases, as `shadeRay` computes it (no glare, no
   * cast shadows), into rays[o …]: a reference sheet or the floor as the colour it adds (x = NaN),
   * the cloth as its point, light and colour before the contact shadows. Uses acc as scratch.
   */
  private fillGround(dx: number, dy: number, dz: number, w: number, rays: Float64Array, o: number): void {
    const { ox, oy, oz, acc } = this;
    rays[o] = dx;
    rays[o + 1] = dy;
    rays[o + 2] = dz;
    const fixed = (a: number, b: number, c: number) => {
      rays[o + 3] = NaN;
      rays[o + 6] = a;
      rays[o + 7] = b;
      rays[o + 8] = c;
    };
    for (const m of this.scene.references) {
      const t = (m.z - oz) / dz;
      if (t <= 0) continue;
      const x = ox + t * dx;
      const y = oy + t * dy;
      acc[0] = 0;
      acc[1] = 0;
      acc[2] = 0;
      if (this.markerTexel(m, x, y, this.light(x, y) * w, PAPER, t, dx, dy, dz))
        return fixed(acc[0]!, acc[1]!, acc[2]!);
    }
    const t = -oz / dz;
    const x = ox + t * dx;
    const y = oy + t * dy;
    const k = this.light(x, y) * w;
    const { widthMm: W, depthMm: D } = this.scene.table;
    if (x < 0 || y < 0 || x > W || y > D) {
      const g = 0.85 + 0.15 * valueNoise(x / 400, y / 25, 7);
      return fixed(58 * g * k, 47 * g * k, 40 * g * k);
    }
    const n1 = valueNoise(x / 70, y / 70, 1);
    const n2 = valueNoise(x / 13, y / 13, 2);
    const n3 = valueNoise(x / 2.2, y / 2.2, 3);
    const g = 0.78 + 0.2 * n1 + 0.1 * n2 + 0.08 * n3;
    rays[o + 3] = x;
    rays[o + 4] = y;
    rays[o + 5] = k;
    rays[o + 6] = (52 + 18 * n2) * g;
    rays[o + 7] = (98 + 10 * n1) * g;
    rays[o + 8] = (46 + 6 * n3) * g;
  }

  /** Whether the table point needs supersampling in the background (edges nearby). */
  private backgroundEdge(x: number, y: number): boolean {
    const { widthMm: W, depthMm: D } = this.scene.table;
    const e = 4;
    if (Math.min(Math.abs(x), Math.abs(x - W), Math.abs(y), Math.abs(y - D)) < e) return true;
    for (const m of this.scene.references) {
      const px = x - m.x;
      const py = y - m.y;
      const a = px * m.right[0] + py * m.right[1];
      const b = px * m.up[0] + py * m.up[1];
      if (Math.abs(a) < m.paperHalfMm + e && Math.abs(b) < m.paperHalfMm + e) return true;
    }
    return false;
  }

  /** The table without bases: mat, edge, floor, reference sheets; supersampled only near edges. */
  renderBackground(buf: Float32Array, rows?: { y0: number; y1: number }): void {
    const cam = this.cam;
    const r = cam.rotation;
    const { n0 } = this;
    const y0 = rows?.y0 ?? 0;
    const y1 = rows?.y1 ?? this.height;
    for (let v = y0; v < y1; v++) {
      for (let u = 0; u < this.width; u++) {
        undistort(cam.distortion, (u - cam.cx) / cam.fx, (v - cam.cy) / cam.fy, n0);
        const x = n0[0]!;
        const y = n0[1]!;
        const dz = r[2] * x + r[5] * y + r[8];
        const t = -this.oz / dz;
        const edge = this.backgroundEdge(
          this.ox + t * (r[0] * x + r[3] * y + r[6]),
          this.oy + t * (r[1] * x + r[4] * y + r[7]),
        );
        this.shadePixel(u, v, edge ? this.ss : 1, null, buf, true);
      }
    }
  }

  /** Pixel rectangle of a base: box corners and a contact-shadow skirt, projected, plus 2 px. */
  baseBox(b: SceneBase): BaseBox {
    const skirt = 8;
    const corners = [
      [-b.halfWidth - skirt, -b.halfDepth - skirt, 0],
      [b.halfWidth + skirt, -b.halfDepth - skirt, 0],
      [b.halfWidth + skirt, b.halfDepth + skirt, 0],
      [-b.halfWidth - skirt, b.halfDepth + skirt, 0],
      [-b.halfWidth, -b.halfDepth, b.topMm],
      [b.halfWidth, -b.halfDepth, b.topMm],
      [b.halfWidth, b.halfDepth, b.topMm],
      [-b.halfWidth, b.halfDepth, b.topMm],
    ] as const;
    const rect = this.pixelRect(
      corners.map(([lx, ly, z]) => ({
        x: b.x + lx * b.cos - ly * b.sin,
        y: b.y + lx * b.sin + ly * b.cos,
        z,
      })),
    );
    return { base: b, rect };
  }

  /** Pixel rectangles of a prop's parts (empty rectangles dropped). */
  propBoxes(prop: Prop): PropBox[] {
    return prop
      .hulls()
      .map((hull) => ({ prop, rect: this.pixelRect(hull) }))
      .filter((b) => b.rect.x0 < b.rect.x1 && b.rect.y0 < b.rect.y1);
  }

  /** Bounding pixel rectangle of projected table points, plus 2 px, clamped to the image. */
  private pixelRect(points: readonly { x: number; y: number; z: number }[]): Rect {
    let u0 = Infinity;
    let v0 = Infinity;
    let u1 = -Infinity;
    let v1 = -Infinity;
    for (const q of points) {
      const p = projectPoint(this.cam, q);
      if (!p) continue;
      u0 = Math.min(u0, p.u);
      v0 = Math.min(v0, p.v);
      u1 = Math.max(u1, p.u);
      v1 = Math.max(v1, p.v);
    }
    const clampX = (n: number) => Math.max(0, Math.min(this.width, n));
    const clampY = (n: number) => Math.max(0, Math.min(this.height, n));
    const rect = {
      x0: clampX(Math.floor(u0) - 2),
      y0: clampY(Math.floor(v0) - 2),
      x1: clampX(Math.ceil(u1) + 3),
      y1: clampY(Math.ceil(v1) + 3),
    };
    if (!(rect.x0 < rect.x1 && rect.y0 < rect.y1)) return { x0: 0, y0: 0, x1: 0, y1: 0 };
    return rect;
  }

  /** Adds each box to the list of every tile its rectangle touches (only `onlyTiles`, if given). */
  private tileLists<B extends { rect: Rect }>(boxes: readonly B[], onlyTiles?: Uint8Array): Map<number, B[]> {
    const lists = new Map<number, B[]>();
    for (const box of boxes) {
      const { x0, y0, x1, y1 } = box.rect;
      if (x0 >= x1 || y0 >= y1) continue;
      for (let ty = Math.floor(y0 / TILE); ty <= Math.floor((y1 - 1) / TILE); ty++) {
        for (let tx = Math.floor(x0 / TILE); tx <= Math.floor((x1 - 1) / TILE); tx++) {
          const key = ty * this.tilesX + tx;
          if (onlyTiles && !onlyTiles[key]) continue;
          let list = lists.get(key);
          if (!list) lists.set(key, (list = []));
          list.push(box);
        }
      }
    }
    return lists;
  }

  /**
   * Draws bases (and clutter) over the background already in `buf`. Work is grouped in 16-px
   * tiles, each with the bases and props that reach it, so touching things occlude each other
   * correctly and no pixel is shaded twice. With `onlyTiles`, only those tiles are redrawn (the
   * caller has restored their background first).
   */
  renderBases(
    buf: Float32Array,
    boxes: readonly BaseBox[],
    onlyTiles?: Uint8Array,
    propBoxes: readonly PropBox[] = [],
  ): void {
    const lists = this.tileLists(boxes, onlyTiles);
    const propLists = this.tileLists(propBoxes, onlyTiles);
    const keys = new Set([...lists.keys(), ...propLists.keys()]);
    const none: BaseBox[] = [];
    for (const key of keys) {
      const tx = key % this.tilesX;
      const ty = (key - tx) / this.tilesX;
      const list = lists.get(key) ?? none;
      const propList = propLists.get(key);
      const cands = list.map((b) => b.base);
      const props = propList ? [...new Set(propList.map((b) => b.prop))] : null;
      // Tiles holding only smooth props (hands) need fewer samples than printed detail.
      const samples =
        list.length === 0 && props && props.every((p) => !p.fineDetail) ? Math.min(this.ss, 2) : this.ss;
      const rects = propList
        ? [...list.map((b) => b.rect), ...propList.map((b) => b.rect)]
        : list.map((b) => b.rect);
      const ya = ty * TILE;
      const yb = Math.min(this.height, ya + TILE);
      const xa = tx * TILE;
      const xb = Math.min(this.width, xa + TILE);
      // Tiles with clutter, glare or cast shadows are shaded afresh (the cache holds neither).
      const cache =
        this.groundCache && !props && !this.glareOn && !this.shadowsOn
          ? this.groundCache.tile(key, samples)
          : null;
      for (let v = ya; v < yb; v++) {
        for (let u = xa; u < xb; u++) {
          let inside = false;
          for (const r of rects) {
            if (u >= r.x0 && u < r.x1 && v >= r.y0 && v < r.y1) {
              inside = true;
              break;
            }
          }
          if (!inside) continue;
          if (cache) this.shadePixelCached(u, v, samples, cands, buf, cache, (v - ya) * TILE + (u - xa));
          else this.shadePixel(u, v, samples, cands, buf, false, props);
        }
      }
    }
  }

  /** Marks the tiles a rectangle touches. */
  markTiles(mask: Uint8Array, rect: Rect): void {
    if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1) return;
    for (let ty = Math.floor(rect.y0 / TILE); ty <= Math.floor((rect.y1 - 1) / TILE); ty++) {
      for (let tx = Math.floor(rect.x0 / TILE); tx <= Math.floor((rect.x1 - 1) / TILE); tx++)
        mask[ty * this.tilesX + tx] = 1;
    }
  }

  tileCount(): number {
    return this.tilesX * this.tilesY;
  }

  /** Pixel rectangle of one tile. */
  tileRect(key: number): Rect {
    const tx = key % this.tilesX;
    const ty = (key - tx) / this.tilesX;
    return {
      x0: tx * TILE,
      y0: ty * TILE,
      x1: Math.min(this.width, (tx + 1) * TILE),
      y1: Math.min(this.height, (ty + 1) * TILE),
    };
  }
}
