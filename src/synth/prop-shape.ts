import type { Vec3 } from '../camera/table-pose.ts';
import type { ClutterItem, Rgb } from './clutter.ts';
import { GLOSS } from './lighting.ts';

/**
 * Clutter compiled for the ray caster: each prop answers where a ray first meets it and what
 * colour it is there. Box-shaped things (bare bases, dice, rulers, cards) share one slab test;
 * a hand is a palm (ellipsoid), fingers, thumb and forearm (capsules).
 */
export interface Prop {
  readonly item: ClutterItem;
  /** Index in the scene's clutter list (the truth's name for it). */
  readonly index: number;
  /** False for things held above the table (a hand is not in the shadow it casts). */
  readonly inCastShadows: boolean;
  /** False for smooth shapes with no printed detail (hands): 2 × 2 samples a pixel are enough. */
  readonly fineDetail: boolean;
  /** Highest point above the table, mm. */
  readonly topMm: number;
  /** A circle on the table that holds the prop's footprint (for cheap rejects). */
  readonly centre: { readonly x: number; readonly y: number };
  readonly radiusMm: number;
  /** Point sets whose projections bound the prop's picture (one per part, contact shadow included). */
  hulls(): readonly (readonly Vec3[])[];
  /** Ray parameter of the first hit of o + t·d (t > 0), or Infinity; remembers the hit for `surface`. */
  intersect(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): number;
  /** Colour (0–255, before light) at the last hit point into `out`; returns the surface's gloss. */
  surface(x: number, y: number, z: number, out: Float64Array): number;
  /** Light left on the cloth at (x, y) by the prop's contact shadow (1 = none). */
  contact(x: number, y: number): number;
}

export const SKIRT_MM = 8;

/** An upright box standing on the table, turned by its heading. */
export abstract class BoxProp implements Prop {
  readonly inCastShadows = true;
  readonly fineDetail = true;
  readonly centre: { x: number; y: number };
  readonly radiusMm: number;
  protected readonly cos: number;
  protected readonly sin: number;
  private face = 0;
  private sgn = 0;
  private readonly hit = new Int8Array(2);
  private readonly contactStrength: number;

  constructor(
    readonly item: ClutterItem,
    readonly index: number,
    protected readonly hw: number,
    protected readonly hd: number,
    readonly topMm: number,
  ) {
    const h = (item.headingDeg * Math.PI) / 180;
    this.cos = Math.cos(h);
    this.sin = Math.sin(h);
    this.centre = { x: item.x, y: item.y };
    this.radiusMm = Math.hypot(hw, hd);
    // Thin things (cards) barely shade the cloth.
    this.contactStrength = 0.5 * Math.min(1, topMm / 3);
  }

  /** Long things (rulers) in pieces of ≤ 60 mm along their length, so each picture stays tight. */
  hulls(): Vec3[][] {
    const { hw, hd } = this;
    const s = SKIRT_MM;
    const at = (lx: number, ly: number, z: number): Vec3 => ({
      x: this.item.x + lx * this.cos - ly * this.sin,
      y: this.item.y + lx * this.sin + ly * this.cos,
      z,
    });
    const pieces = Math.max(1, Math.ceil((2 * hw) / 60));
    const out: Vec3[][] = [];
    for (let i = 0; i < pieces; i++) {
      const x0 = -hw + (2 * hw * i) / pieces;
      const x1 = -hw + (2 * hw * (i + 1)) / pieces;
      const e0 = i === 0 ? x0 - s : x0;
      const e1 = i === pieces - 1 ? x1 + s : x1;
      out.push([
        at(e0, -hd - s, 0),
        at(e1, -hd - s, 0),
        at(e1, hd + s, 0),
        at(e0, hd + s, 0),
        at(x0, -hd, this.topMm),
        at(x1, -hd, this.topMm),
        at(x1, hd, this.topMm),
        at(x0, hd, this.topMm),
      ]);
    }
    return out;
  }

  intersect(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): number {
    const b = this.item;
    const t = slabHit(
      ox,
      oy,
      oz,
      dx,
      dy,
      dz,
      b.x,
      b.y,
      this.cos,
      this.sin,
      this.hw,
      this.hd,
      this.topMm,
      this.hit,
    );
    if (t === Infinity) return t;
    this.face = this.hit[0]!;
    this.sgn = this.hit[1]!;
    return t;
  }

  surface(x: number, y: number, z: number, out: Float64Array): number {
    const px = x - this.item.x;
    const py = y - this.item.y;
    const lx = px * this.cos + py * this.sin;
    const ly = -px * this.sin + py * this.cos;
    if (this.face === 0) return this.top(lx, ly, out);
    this.wall(this.face, this.sgn, lx, ly, z, out);
    // Lit from the upper left and darker at the foot, as the bases' walls.
    const nx = this.face === 1 ? this.sgn * this.cos : -this.sgn * this.sin;
    const ny = this.face === 1 ? this.sgn * this.sin : this.sgn * this.cos;
    const k = (0.42 + 0.22 * (-0.6 * nx + 0.8 * ny)) * (0.8 + (0.2 * z) / this.topMm);
    out[0]! *= k;
    out[1]! *= k;
    out[2]! *= k;
    return GLOSS.wall;
  }

  contact(x: number, y: number): number {
    const px = x - this.item.x;
    const py = y - this.item.y;
    const ex = Math.max(0, Math.abs(px * this.cos + py * this.sin) - this.hw);
    const ey = Math.max(0, Math.abs(-px * this.sin + py * this.cos) - this.hd);
    // Beyond the skirt the shadow is under 0.2 % (and the prop's pictures end there).
    if (ex > SKIRT_MM || ey > SKIRT_MM) return 1;
    return 1 - this.contactStrength * Math.exp(-Math.hypot(ex, ey) / 1.8);
  }

  /** Colour of the top at local (lx, ly) (lx along width, ly along depth); returns gloss. */
  protected abstract top(lx: number, ly: number, out: Float64Array): number;
  /** Colour of a wall (face 1: ±x, 2: ±y) before the wall's shading. */
  protected abstract wall(
    face: number,
    sgn: number,
    lx: number,
    ly: number,
    z: number,
    out: Float64Array,
  ): void;
}

/**
 * First hit (t > 0) of ray o + t·d with an upright box standing on the table (centre cx, cy,
 * turned by cos/sin, half sides hw × hd, top at `top`), entering from above: the slab test of
 * the base boxes in ray-caster.ts. Writes the face hit (0 top, 1 ±x wall, 2 ±y wall) and its sign
 * into `hit` when given; Infinity when missed.
 */
export function slabHit(
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  cx: number,
  cy: number,
  cos: number,
  sin: number,
  hw: number,
  hd: number,
  top: number,
  hit?: Int8Array,
): number {
  const px = ox - cx;
  const py = oy - cy;
  const lx = px * cos + py * sin;
  const ly = -px * sin + py * cos;
  const ldx = dx * cos + dy * sin;
  const ldy = -dx * sin + dy * cos;
  let t0 = (top - oz) / dz;
  let t1 = -oz / dz;
  let f = 0;
  let s = 0;
  if (Math.abs(ldx) > 1e-15) {
    let a = (-hw - lx) / ldx;
    let c = (hw - lx) / ldx;
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
  } else if (Math.abs(lx) > hw) return Infinity;
  if (Math.abs(ldy) > 1e-15) {
    let a = (-hd - ly) / ldy;
    let c = (hd - ly) / ldy;
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
  } else if (Math.abs(ly) > hd) return Infinity;
  if (!(t0 <= t1 && t0 > 0)) return Infinity;
  if (hit) {
    hit[0] = f;
    hit[1] = s;
  }
  return t0;
}

/** Writes colour c × k into out. */
export function put(out: Float64Array, c: Rgb, k = 1): void {
  out[0] = c[0] * k;
  out[1] = c[1] * k;
  out[2] = c[2] * k;
}
