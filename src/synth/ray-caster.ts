import { GLOSS } from './lighting.ts';
import type { Prop } from './props.ts';
import type { SceneBase } from './scene.ts';
import { PAPER, STICKER, SurfaceShader } from './surface-shader.ts';
import { valueNoise } from './value-noise.ts';

/**
 * The ray caster's second layer (on surface-shader.ts, under shade.ts): what one ray meets (the
 * nearest raised base, a prop, a reference sheet, the cloth or the floor beyond the table) and
 * its colour there, with the bases' contact shadows on the cloth.
 */

/**
 * Beyond this distance from a base (mm, along either of its axes) its contact shadow's factor
 * 1 − 0.5·e^(−d/1.8) rounds to exactly 1 in doubles (0.5·e^(−38.9) < 2^−54), so it is skipped.
 */
const FAR_CONTACT_MM = 70;

export abstract class RayCaster extends SurfaceShader {
  // The base the last `nearestBase` found: its distance along the ray, face and side.
  protected hitT = Infinity;
  private hitFace = -1;
  private hitSgn = 0;

  /**
   * The nearest base box a ray enters (slab test in the base's own frame), or undefined; its
   * distance, face (0 = top, 1 = ±x wall, 2 = ±y wall) and side in hitT, hitFace, hitSgn.
   */
  protected nearestBase(
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
  protected shadeBase(hitBase: SceneBase, t: number, dx: number, dy: number, dz: number, w: number): void {
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
  protected contactShadows(x: number, y: number, k: number, cands: readonly SceneBase[]): number {
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
  protected shadeRay(
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
}
