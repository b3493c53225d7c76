import { degToRad, radToDeg } from '../../geometry/angle.ts';
import { facedBoxPolygon, localCorners, type FacedBox } from '../../geometry/faced-box.ts';
import { frameFromFront, toLocal, toTable } from '../../geometry/frame.ts';
import { firstContactAngle, interiorsOverlap, rotateAbout } from '../../geometry/pivot-sweep.ts';
import { convexHull } from '../../geometry/hull.ts';
import { pointToPolygon } from '../../geometry/distance.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { sweepContact, type SweepContact } from '../../geometry/sweep.ts';
import { rotate, type Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { D3, type D3Context } from './context.ts';
import { forbidden, groundOf } from './movement.ts';
import {
  leverAbout,
  obstaclesInReach,
  penetrationMm,
  RUN_CONTACT_MM,
  runIsBlocked,
  type RunObstacle,
} from './charge-run.ts';
import { CHARGE_TURN_DEG } from './tables.ts';
import { exactText, knownPieces, RunSamples } from './charge-run-memo.ts';

/**
 * D3's charge: one turn of at most 45° at the start, pivoting on a corner (option chargePivot),
 * then straight ahead into contact within one move; the pivot may not sweep through other units
 * (artillery excepted; skirmishers and their friends pass through each other) or ground the
 * charger may not enter. The best line is found exactly: the straight run after a turn θ is a
 * smooth function of θ between breakpoints (the turn limits, a target corner entering or leaving
 * the strip the frontage sweeps, a target edge square to the charge), every one of which is found
 * in closed form; each piece is then minimised to machine precision (golden section).
 */

/** The unit's box turned by `rad` (counter-clockwise positive) about a pivot. */
export function boxTurned(box: FacedBox, pivot: Vec2, rad: number): FacedBox {
  return {
    frame: frameFromFront(rotateAbout(box.frame.origin, pivot, rad), rotate(box.frame.front, rad)),
    width: box.width,
    depth: box.depth,
  };
}

/** The unit's box turned by `deg` (counter-clockwise positive) about a pivot. */
export const turnedBox = (box: FacedBox, deg: number, pivot: Vec2): FacedBox =>
  boxTurned(box, pivot, degToRad(deg));

/** The pivot for a turn of `deg`: the front corner on the side turned toward, or the box centre. */
export function pivotFor(ctx: D3Context, box: FacedBox, deg: number): Vec2 {
  if (ctx.options.chargePivot === 'centre') return toTable(box.frame, { x: 0, y: -box.depth / 2 });
  const c = localCorners(box);
  return toTable(box.frame, deg >= 0 ? c.frontLeft : c.frontRight);
}

export interface TurnLimit {
  /** The largest turn that way (degrees, ≥ 0) before the pivot sweeps into something. */
  readonly deg: number;
  /** What stops it, if anything, and how far its contact corner swings (the lever), mm. */
  readonly by?: {
    readonly name: string;
    readonly sigmaMm: number;
    readonly leverMm: number;
    /** Its outline, and the limit were it not there (the next obstacle's, or the full turn). */
    readonly polygon: Polygon;
    readonly nextDeg: number;
  };
  /**
   * Obstacles the sweep does not meet (the first it meets is `by`) within a band of its reach (the
   * farthest corner from the pivot): a hair closer, one may stop the turn sooner. With how far
   * each stands beyond that reach (negative within it), mm.
   */
  readonly near: ReadonlyArray<RunObstacle & { readonly beyondMm: number }>;
  /** The outline and pivot the limit was found with, for finding it again with an obstacle moved. */
  readonly swing: Swing;
}

/**
 * What a charger may not sweep through when it turns nor run through after: units (not artillery;
 * skirmishers and friends pass), and ground it may not enter.
 */
export function sweepObstacles(ctx: D3Context, charger: TableUnit, target: TableUnit): RunObstacle[] {
  const skirmish = (u: TableUnit) =>
    u.troop?.toLowerCase().includes('skirmish') || u.formationInUse === 'skirmish';
  const out: Array<{ name: string; polygon: Polygon; sigmaMm: number }> = [];
  for (const u of ctx.state.units) {
    if (u.id === charger.id || u.id === target.id || u.type === 'artillery') continue;
    if (u.side === charger.side && (skirmish(u) || skirmish(charger))) continue;
    for (const p of u.allPolygons) out.push({ name: u.name, polygon: p, sigmaMm: u.sigmaMm });
  }
  for (const t of ctx.state.terrain) {
    if (!t.polygon) continue;
    const g = groundOf(t);
    if (g !== 'open' && forbidden(charger, g)) out.push({ name: t.label, polygon: t.polygon, sigmaMm: 0 });
  }
  return out;
}

/** The charger's outline and its pivot turning one way (+1 left, −1 right). */
interface Swing {
  readonly outline: Polygon;
  readonly pivot: Vec2;
  readonly sign: 1 | -1;
}

const swingOf = (ctx: D3Context, charger: TableUnit, sign: 1 | -1): Swing => ({
  outline: facedBoxPolygon(charger.box),
  pivot: pivotFor(ctx, charger.box, sign),
  sign,
});

/** How far (degrees, ≥ 0) the charger turns before sweeping into `obstacle`. */
function contactDeg({ outline, pivot, sign }: Swing, obstacle: Polygon): number {
  if (turningAway(outline, pivot, sign, obstacle)) return CHARGE_TURN_DEG;
  const a = firstContactAngle(outline, pivot, sign * degToRad(CHARGE_TURN_DEG), obstacle);
  return a === undefined ? CHARGE_TURN_DEG : Math.min(CHARGE_TURN_DEG, Math.abs(radToDeg(a)));
}

/** How far the charger may turn left (+) and right (−) before its pivot sweeps into something. */
export function turnLimits(
  ctx: D3Context,
  charger: TableUnit,
  target: TableUnit,
): { left: TurnLimit; right: TurnLimit } {
  const obstacles = sweepObstacles(ctx, charger, target);
  const side = (sign: 1 | -1): TurnLimit => {
    const swing = swingOf(ctx, charger, sign);
    const { pivot } = swing;
    const lever = leverAbout(charger.box, pivot);
    let best: { deg: number; o?: RunObstacle } = { deg: CHARGE_TURN_DEG };
    let next = CHARGE_TURN_DEG;
    const near: Array<RunObstacle & { beyondMm: number }> = [];
    for (const o of obstacles) {
      const deg = contactDeg(swing, o.polygon);
      if (deg < best.deg) [next, best] = [best.deg, { deg, o }];
      else next = Math.min(next, deg);
      const beyondMm = pointToPolygon(pivot, o.polygon).distance - lever;
      const band = D3.bandMm(ctx, Math.hypot(charger.sigmaMm, target.sigmaMm, o.sigmaMm));
      if (beyondMm <= band) near.push({ ...o, beyondMm });
    }
    const others = near.filter((o) => o.polygon !== best.o?.polygon);
    if (!best.o) return { deg: best.deg, near: others, swing };
    const { name, sigmaMm, polygon } = best.o;
    return {
      deg: best.deg,
      by: { name, sigmaMm, leverMm: lever, polygon, nextDeg: next },
      near: others,
      swing,
    };
  };
  return { left: side(1), right: side(-1) };
}

/** Eight ways a blocker may stand otherwise, as unit vectors. */
const EIGHT_WAYS: readonly Vec2[] = Array.from({ length: 8 }, (_, k) => ({
  x: Math.cos((k * Math.PI) / 4),
  y: Math.sin((k * Math.PI) / 4),
}));

/** The contact (degrees) with `polygon` moved `mm` each of eight ways. */
const contactsMoved = (swing: Swing, polygon: Polygon, mm: number): number[] =>
  EIGHT_WAYS.map((w) =>
    contactDeg(
      swing,
      polygon.map((p) => ({ x: p.x + mm * w.x, y: p.y + mm * w.y })),
    ),
  );

/**
 * A turn limit with what stops it moved `mm` (positive: the most it then allows; negative: the
 * least). Its contact corner swinging on the lever is one reading. Where the sweep only grazes the
 * blocker, a hair's move of it leaves it whole and the limit jumps to the next obstacle or the full
 * turn, which the lever never shows (D3 apart 22293: a friend met at 3.2° turning right, the full
 * 45° with it moved 0.14 mm), so the contact is found again with the blocker moved each of eight
 * ways. And the least limit also weighs each obstacle the sweep only just misses moved as far
 * (apart 23263: the full turn, and 5° with a friend a hair closer).
 */
export function limitWithBlockerMoved(limit: TurnLimit, mm: number): number {
  const by = limit.by;
  const swung = by
    ? Math.max(0, Math.min(CHARGE_TURN_DEG, limit.deg + radToDeg(mm / by.leverMm)))
    : limit.deg;
  if (mm === 0) return swung;
  const d = Math.abs(mm);
  const moved = by ? contactsMoved(limit.swing, by.polygon, d).map((deg) => Math.min(by.nextDeg, deg)) : [];
  if (mm > 0) return Math.max(swung, ...moved);
  const nearer = limit.near
    .filter((o) => o.beyondMm <= d)
    .flatMap((o) => contactsMoved(limit.swing, o.polygon, d));
  return Math.min(swung, ...moved, ...nearer);
}

/**
 * Whether an obstacle the charger already overlaps (a neighbour touching its flank, the two
 * reported a hair into each other) is not turned into this way: the overlap grows no deeper over
 * the first quarter degree (about a pivot inside it, it stays). It stops only the turn into it.
 */
function turningAway(outline: Polygon, pivot: Vec2, sign: 1 | -1, obstacle: Polygon): boolean {
  if (!interiorsOverlap(outline, obstacle)) return false;
  const hull = convexHull(obstacle);
  const turned = outline.map((p) => rotateAbout(p, pivot, sign * degToRad(0.25)));
  return penetrationMm(turned, hull) <= penetrationMm(outline, hull) + 1e-9;
}

export interface ChargeLine {
  readonly turnDeg: number;
  readonly contact: SweepContact;
}

const GOLDEN = (Math.sqrt(5) - 1) / 2;

/** Breakpoints of the straight run as a function of the turn (radians) on one side, about one pivot. */
function breakpoints(
  box: FacedBox,
  pivot: Vec2,
  target: readonly Polygon[],
  lo: number,
  hi: number,
  w = box.width / 2,
): number[] {
  const out = [lo, hi];
  const add = (t: number) => {
    for (const k of [-2, -1, 0, 1, 2]) {
      const u = t + k * Math.PI;
      if (u > lo && u < hi) out.push(u);
    }
  };
  // A target corner's local x is A cos θ + B sin θ + C (a rigid turn about a fixed pivot):
  // fitted from three turns, then solved for the strip's edges x = ±w.
  const xAt = (q: Vec2, t: number) => toLocal(boxTurned(box, pivot, t).frame, q).x;
  for (const poly of target)
    for (const q of poly) {
      const f0 = xAt(q, 0);
      const f1 = xAt(q, Math.PI / 2);
      const f2 = xAt(q, Math.PI);
      const C = (f0 + f2) / 2;
      const A = (f0 - f2) / 2;
      const B = f1 - C;
      const R = Math.hypot(A, B);
      if (R === 0) continue;
      const phi = Math.atan2(B, A);
      for (const k of [w, -w]) {
        const c = (k - C) / R;
        if (Math.abs(c) <= 1) {
          add(phi + Math.acos(c));
          add(phi - Math.acos(c));
        }
      }
    }
  // A target edge square to the charge direction.
  const f0 = Math.atan2(box.frame.front.y, box.frame.front.x);
  for (const poly of target)
    for (let i = 0; i < poly.length; i++) {
      const a = poly[i] as Vec2;
      const b = poly[(i + 1) % poly.length] as Vec2;
      add(Math.atan2(-(b.x - a.x), b.y - a.y) - f0);
    }
  return [...new Set(out)].sort((x, y) => x - y);
}

/**
 * Where, between breakpoints, the run turns from clear to blocked by `inTheWay` (or back): the
 * pieces are sampled and each change bisected to machine precision, the clear side kept.
 */
function runCuts(cuts: readonly number[], clear: (t: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const a = cuts[i] as number;
    const b = cuts[i + 1] as number;
    const n = 16;
    let prevT = a;
    let prev = clear(a);
    for (let k = 1; k <= n; k++) {
      const t = a + ((b - a) * k) / n;
      const now = clear(t);
      if (now !== prev) {
        let [ok, bad] = prev ? [prevT, t] : [t, prevT];
        for (let it = 0; it < 60 && Math.abs(bad - ok) > 1e-14; it++) {
          const mid = (ok + bad) / 2;
          if (clear(mid)) ok = mid;
          else bad = mid;
        }
        out.push(ok);
      }
      prevT = t;
      prev = now;
    }
  }
  return out;
}

/**
 * The shortest straight charge after one turn within the allowed range, exactly (see above).
 * `limits` are the turns the pivot sweep allows each way, degrees. A turn whose straight run meets
 * one of `inTheWay` before the target is not a line (units standing in the way); `clearanceMm`
 * narrows each run's strip further (runIsBlocked).
 */
export function bestChargeLine(
  ctx: D3Context,
  charger: TableUnit,
  target: TableUnit,
  limits: { readonly leftDeg: number; readonly rightDeg: number } = {
    leftDeg: CHARGE_TURN_DEG,
    rightDeg: CHARGE_TURN_DEG,
  },
  inTheWay: readonly RunObstacle[] = [],
  clearanceMm = 0,
): ChargeLine | undefined {
  let best: ChargeLine | undefined;
  const run = (t: number, pivot: Vec2, obstacles: readonly RunObstacle[]) => {
    const box = boxTurned(charger.box, pivot, t);
    const c = sweepContact(box, target.bodyPolygons);
    return c && runIsBlocked(box, c.distance, obstacles, clearanceMm) ? undefined : c;
  };
  // Set per side: what can stand in that side's runs (obstaclesInReach).
  let nearBy: readonly RunObstacle[] = inTheWay;
  // Whether a run of `distance` after a turn of `t` is a better line than the best so far.
  const better = (t: number, distance: number): boolean =>
    !best ||
    distance < best.contact.distance - 1e-9 ||
    (Math.abs(distance - best.contact.distance) <= 1e-9 && Math.abs(radToDeg(t)) < Math.abs(best.turnDeg));
  // The clear runs met in the piece being searched, kept for the searches after (charge-run-memo.ts).
  let met = new RunSamples();
  const consider = (t: number, pivot: Vec2) => {
    const c = run(t, pivot, nearBy);
    if (!c) return Infinity;
    met.add(t, c);
    if (better(t, c.distance)) best = { turnDeg: radToDeg(t), contact: c };
    return c.distance;
  };
  // Each piece between cuts: its ends, then six samples, then golden section about the lowest.
  const search = (lo: number, hi: number, pivot: Vec2) => {
    let a = lo;
    let b = hi;
    consider(a, pivot);
    consider(b, pivot);
    if (b - a < 1e-12) return;
    const n = 6;
    let k0 = 0;
    let v0 = Infinity;
    for (let k = 1; k < n; k++) {
      const v = consider(a + ((b - a) * k) / n, pivot);
      if (v < v0) {
        v0 = v;
        k0 = k;
      }
    }
    if (!Number.isFinite(v0)) return;
    const step = (b - a) / n;
    a = a + step * (k0 - 1);
    b = a + 2 * step;
    let x1 = b - GOLDEN * (b - a);
    let x2 = a + GOLDEN * (b - a);
    let f1 = consider(x1, pivot);
    let f2 = consider(x2, pivot);
    for (let it = 0; it < 80 && b - a > 1e-13; it++) {
      if (f1 <= f2) {
        b = x2;
        x2 = x1;
        f2 = f1;
        x1 = b - GOLDEN * (b - a);
        f1 = consider(x1, pivot);
      } else {
        a = x1;
        x1 = x2;
        f1 = f2;
        x2 = a + GOLDEN * (b - a);
        f2 = consider(x2, pivot);
      }
    }
  };
  const sides: Array<[number, number, Vec2]> = [
    [0, degToRad(limits.leftDeg), pivotFor(ctx, charger.box, 1)],
    [-degToRad(limits.rightDeg), 0, pivotFor(ctx, charger.box, -1)],
  ];
  for (const [lo, hi, pivot] of sides) {
    const w = charger.box.width / 2 - RUN_CONTACT_MM - clearanceMm;
    nearBy = obstaclesInReach(charger.box, pivot, lo, hi, target.bodyPolygons, inTheWay);
    // Cut at every obstacle's breakpoints, not only those in reach: the same cuts, the same line.
    const blocking = inTheWay.map((o) => o.polygon);
    let cuts = [
      ...breakpoints(charger.box, pivot, target.bodyPolygons, lo, hi),
      ...(blocking.length ? breakpoints(charger.box, pivot, blocking, lo, hi, w) : []),
    ];
    cuts = [...new Set(cuts)].sort((x, y) => x - y);
    const known = knownPieces(inTheWay, charger.box, target.bodyPolygons, pivot, clearanceMm);
    for (let i = 0; i + 1 < cuts.length; i++) {
      const a = cuts[i] as number;
      const b = cuts[i + 1] as number;
      const key = `${exactText(a)} ${exactText(b)}`;
      const kept = known.get(key);
      if (kept) {
        for (let r = 0; r < kept.count; r++)
          if (better(kept.turn(r), kept.distance(r)))
            best = { turnDeg: radToDeg(kept.turn(r)), contact: kept.contact(r) };
        continue;
      }
      met = new RunSamples();
      // Where the run turns from clear to blocked within the piece cuts it further (the same
      // pieces as cutting the whole side at once: each piece's cuts lie within it).
      let pieces = [a, b];
      if (blocking.length) {
        pieces.push(...runCuts(pieces, (t) => run(t, pivot, nearBy) !== undefined));
        pieces = [...new Set(pieces)].sort((x, y) => x - y);
      }
      for (let k = 0; k + 1 < pieces.length; k++) search(pieces[k] as number, pieces[k + 1] as number, pivot);
      known.set(key, met);
    }
  }
  return best;
}
