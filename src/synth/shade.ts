import { undistort } from './lens.ts';
import type { Rect } from './noise.ts';
import { baseBoxIn, propBoxesIn, type BaseBox, type PropBox } from './pixel-boxes.ts';
import type { Prop } from './props.ts';
import { RayCaster } from './ray-caster.ts';
import type { SceneBase } from './scene.ts';
import { PAPER } from './surface-shader.ts';
import { TILE, TileGrid } from './tile-grid.ts';
import { valueNoise } from './value-noise.ts';
import { GroundCache, RAY_STRIDE, type RayTile } from './ground-cache.ts';

/**
 * The ray caster: one ray per (sub)pixel from the camera centre through the lens, hit against
 * the raised base boxes, the reference sheets and the table, textured and lit. Writes linear
 * RGB floats (0–255 scale) before blur and noise. Pixel centres are at integer coordinates.
 *
 * Three layers share its hot inner-loop state through `this`, so no object stands between a loop
 * and its numbers: surface-shader.ts (light and ink at a point), ray-caster.ts (what a ray meets)
 * and this file (pixels, their cached rays, and the background and base passes over 16-px tiles).
 */

export class Shader extends RayCaster {
  private readonly tiles = new TileGrid(this.width, this.height);

  /**
   * Keeps the rays of the pixels `renderBases` redraws from one call to the next, for a camera,
   * table, reference sheets and light that stay as they are (the live table's): cached pixels are
   * shaded bit for bit as afresh, without the lens, the cloth's texture or the sheets (ground-cache.ts).
   */
  enableGroundCache(): void {
    this.groundCache ??= new GroundCache();
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
    return baseBoxIn(this.cam, b);
  }

  /** Pixel rectangles of a prop's parts (empty rectangles dropped). */
  propBoxes(prop: Prop): PropBox[] {
    return propBoxesIn(this.cam, prop);
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
    const lists = this.tiles.tileLists(boxes, onlyTiles);
    const propLists = this.tiles.tileLists(propBoxes, onlyTiles);
    const keys = new Set([...lists.keys(), ...propLists.keys()]);
    const none: BaseBox[] = [];
    for (const key of keys) {
      const tx = key % this.tiles.tilesX;
      const ty = (key - tx) / this.tiles.tilesX;
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
    this.tiles.markTiles(mask, rect);
  }

  tileCount(): number {
    return this.tiles.tileCount();
  }

  /** Pixel rectangle of one tile. */
  tileRect(key: number): Rect {
    return this.tiles.tileRect(key);
  }
}
