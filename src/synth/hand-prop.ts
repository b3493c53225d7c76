import type { Vec3 } from '../camera/table-pose.ts';
import { colourOf, type HandItem, type Rgb } from './clutter.ts';
import { GLOSS } from './lighting.ts';
import { put, type Prop } from './prop-shape.ts';
import { valueNoise } from './value-noise.ts';

/**
 * A hand over the table: a palm (an ellipsoid), four fingers and a thumb (capsules) and the
 * forearm running back to the player (capsules: a bare wrist, then the sleeve). Each part is a
 * prop of its own, all sharing the hand's item and index, so a tile of the picture only tests
 * the parts that reach it (a long arm would otherwise be tested all over its bounding box).
 */

/** Light on a hand: from above, a little from the upper left (table −x, +y). */
const HAND_LIGHT = (() => {
  const v = [-0.35, 0.45, 0.82];
  const n = Math.hypot(v[0]!, v[1]!, v[2]!);
  return [v[0]! / n, v[1]! / n, v[2]! / n] as const;
})();

/** A shared frame: fingers point along `fwd` (the heading), `side` is the hand's right. */
interface HandFrame {
  readonly fwd: readonly [number, number];
  readonly side: readonly [number, number];
}

abstract class HandPart implements Prop {
  readonly inCastShadows = false;
  readonly fineDetail = false;
  readonly topMm: number;
  readonly centre: { x: number; y: number };
  readonly radiusMm: number;
  protected readonly normal = new Float64Array(3);
  private readonly box: readonly [Vec3, Vec3];

  constructor(
    readonly item: HandItem,
    readonly index: number,
    protected readonly frame: HandFrame,
    private readonly colour: Rgb,
    lo: Vec3,
    hi: Vec3,
  ) {
    this.topMm = hi.z;
    this.centre = { x: (lo.x + hi.x) / 2, y: (lo.y + hi.y) / 2 };
    this.radiusMm = Math.hypot(hi.x - lo.x, hi.y - lo.y) / 2;
    this.box = [lo, hi];
  }

  hulls(): Vec3[][] {
    const [lo, hi] = this.box;
    const out: Vec3[] = [];
    for (const x of [lo.x, hi.x])
      for (const y of [lo.y, hi.y]) for (const z of [lo.z, hi.z]) out.push({ x, y, z });
    return [out];
  }

  intersect(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): number {
    // Unit direction for the quadratics; t is converted back to the caller's scale.
    const len = Math.hypot(dx, dy, dz);
    const t = this.unitHit(ox, oy, oz, dx / len, dy / len, dz / len);
    return t === Infinity ? t : t / len;
  }

  surface(x: number, y: number, z: number, out: Float64Array): number {
    this.setNormal(x, y, z);
    const n = this.normal;
    const len = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
    const lambert = Math.max(
      0,
      (n[0]! * HAND_LIGHT[0] + n[1]! * HAND_LIGHT[1] + n[2]! * HAND_LIGHT[2]) / len,
    );
    const grain = 0.96 + 0.08 * valueNoise(x / 3, y / 3, 21 + this.index);
    put(out, this.colour, (0.45 + 0.6 * lambert) * grain);
    return GLOSS.skin;
  }

  contact(): number {
    return 1;
  }

  protected abstract unitHit(ox: number, oy: number, oz: number, rx: number, ry: number, rz: number): number;
  protected abstract setNormal(x: number, y: number, z: number): void;
}

/** Segment a–b swept by radius r. */
class CapsulePart extends HandPart {
  constructor(
    item: HandItem,
    index: number,
    frame: HandFrame,
    colour: Rgb,
    private readonly a: Vec3,
    private readonly b: Vec3,
    private readonly r: number,
  ) {
    super(
      item,
      index,
      frame,
      colour,
      { x: Math.min(a.x, b.x) - r, y: Math.min(a.y, b.y) - r, z: Math.min(a.z, b.z) - r },
      { x: Math.max(a.x, b.x) + r, y: Math.max(a.y, b.y) + r, z: Math.max(a.z, b.z) + r },
    );
  }

  /** Inigo Quilez's closed form: the body, then the end caps (spheres at a or b). */
  protected unitHit(ox: number, oy: number, oz: number, rx: number, ry: number, rz: number): number {
    const { a, b: e, r } = this;
    const bax = e.x - a.x;
    const bay = e.y - a.y;
    const baz = e.z - a.z;
    const oax = ox - a.x;
    const oay = oy - a.y;
    const oaz = oz - a.z;
    const baba = bax * bax + bay * bay + baz * baz;
    const bard = bax * rx + bay * ry + baz * rz;
    const baoa = bax * oax + bay * oay + baz * oaz;
    const rdoa = rx * oax + ry * oay + rz * oaz;
    const oaoa = oax * oax + oay * oay + oaz * oaz;
    const qa = baba - bard * bard;
    let qb = baba * rdoa - baoa * bard;
    let qc = baba * oaoa - baoa * baoa - r * r * baba;
    let h = qb * qb - qa * qc;
    if (h < 0) return Infinity;
    const t = (-qb - Math.sqrt(h)) / qa;
    const along = baoa + t * bard;
    if (along > 0 && along < baba && t > 0) return t;
    const cx = along <= 0 ? oax : ox - e.x;
    const cy = along <= 0 ? oay : oy - e.y;
    const cz = along <= 0 ? oaz : oz - e.z;
    qb = rx * cx + ry * cy + rz * cz;
    qc = cx * cx + cy * cy + cz * cz - r * r;
    h = qb * qb - qc;
    if (h <= 0) return Infinity;
    const tc = -qb - Math.sqrt(h);
    return tc > 0 ? tc : Infinity;
  }

  protected setNormal(x: number, y: number, z: number): void {
    const { a, b } = this;
    const bx = b.x - a.x;
    const by = b.y - a.y;
    const bz = b.z - a.z;
    const t = Math.min(
      1,
      Math.max(0, ((x - a.x) * bx + (y - a.y) * by + (z - a.z) * bz) / (bx * bx + by * by + bz * bz)),
    );
    this.normal[0] = x - a.x - t * bx;
    this.normal[1] = y - a.y - t * by;
    this.normal[2] = z - a.z - t * bz;
  }
}

/** The palm: an ellipsoid with semi-axes along the fingers (af), across (as) and up (az). */
class PalmPart extends HandPart {
  constructor(
    item: HandItem,
    index: number,
    frame: HandFrame,
    colour: Rgb,
    private readonly c: Vec3,
    private readonly af: number,
    private readonly as: number,
    private readonly az: number,
  ) {
    const e = Math.max(af, as);
    super(
      item,
      index,
      frame,
      colour,
      { x: c.x - e, y: c.y - e, z: c.z - az },
      { x: c.x + e, y: c.y + e, z: c.z + az },
    );
  }

  /** In the ellipsoid's frame, scaled to a unit sphere. */
  protected unitHit(ox: number, oy: number, oz: number, rx: number, ry: number, rz: number): number {
    const { fwd, side } = this.frame;
    const px = ox - this.c.x;
    const py = oy - this.c.y;
    const pz = oz - this.c.z;
    const of = (px * fwd[0] + py * fwd[1]) / this.af;
    const os = (px * side[0] + py * side[1]) / this.as;
    const ou = pz / this.az;
    const df = (rx * fwd[0] + ry * fwd[1]) / this.af;
    const ds = (rx * side[0] + ry * side[1]) / this.as;
    const du = rz / this.az;
    const a = df * df + ds * ds + du * du;
    const b = of * df + os * ds + ou * du;
    const c = of * of + os * os + ou * ou - 1;
    const disc = b * b - a * c;
    if (disc < 0) return Infinity;
    const t = (-b - Math.sqrt(disc)) / a;
    return t > 0 ? t : Infinity;
  }

  protected setNormal(x: number, y: number, z: number): void {
    const { fwd, side } = this.frame;
    const px = x - this.c.x;
    const py = y - this.c.y;
    const lf = (px * fwd[0] + py * fwd[1]) / (this.af * this.af);
    const ls = (px * side[0] + py * side[1]) / (this.as * this.as);
    this.normal[0] = lf * fwd[0] + ls * side[0];
    this.normal[1] = lf * fwd[1] + ls * side[1];
    this.normal[2] = (z - this.c.z) / (this.az * this.az);
  }
}

/** The parts of a hand, each a prop (same item, same index). */
export function handProps(item: HandItem, index: number): Prop[] {
  const what = `clutter item ${index} (hand)`;
  const skin = colourOf(item.skin, what);
  const sleeve = colourOf(item.sleeve, what);
  const k = item.scale;
  const h = (item.headingDeg * Math.PI) / 180;
  const frame: HandFrame = { fwd: [-Math.sin(h), Math.cos(h)], side: [Math.cos(h), Math.sin(h)] };
  const at = (f: number, s: number, z: number): Vec3 => ({
    x: item.x + f * frame.fwd[0] + s * frame.side[0],
    y: item.y + f * frame.fwd[1] + s * frame.side[1],
    z,
  });
  const z0 = item.heightMm;
  const capsule = (a: Vec3, b: Vec3, r: number, colour: Rgb) =>
    new CapsulePart(item, index, frame, colour, a, b, r);
  const parts: Prop[] = [new PalmPart(item, index, frame, skin, at(0, 0, z0), 50 * k, 42 * k, 14 * k)];
  // Four fingers from the knuckles, fanned a little, tips hanging `curlMm` lower.
  const fingers: Array<[number, number, number]> = [
    [-27, 62, -6],
    [-9, 78, -2],
    [9, 74, 2],
    [26, 58, 7],
  ];
  for (const [s, len, fan] of fingers) {
    const a = (fan * Math.PI) / 180;
    parts.push(
      capsule(
        at(42 * k, s * k, z0),
        at((42 + len * Math.cos(a)) * k, (s + len * Math.sin(a)) * k, z0 - item.curlMm),
        8.5 * k,
        skin,
      ),
    );
  }
  // Thumb: off the palm's left side, angled forward and out.
  parts.push(
    capsule(at(-5 * k, -36 * k, z0 - 3 * k), at(40 * k, -72 * k, z0 - 0.6 * item.curlMm), 10 * k, skin),
  );
  // Forearm back to the player, rising: bare wrist, then the sleeve in pieces of ≤ 120 mm.
  const rise = (item.armRiseDeg * Math.PI) / 180;
  const arm = (d: number): Vec3 => at(-45 * k - d * Math.cos(rise), 0, z0 + d * Math.sin(rise));
  const wrist = 90 * k;
  const armLength = Math.max(wrist, item.armLengthMm ?? 320 * k);
  parts.push(capsule(arm(0), arm(wrist), 27 * k, skin));
  const pieces = Math.ceil((armLength - wrist) / 120);
  for (let i = 0; i < pieces; i++) {
    const d0 = wrist + ((armLength - wrist) * i) / pieces;
    const d1 = wrist + ((armLength - wrist) * (i + 1)) / pieces;
    parts.push(capsule(arm(d0), arm(d1), 34 * k, sleeve));
  }
  return parts;
}
