import { boxesMeet, boxOf, type Box } from './box.ts';
import { pointToPolygon } from './distance.ts';
import { containsPoint, type Polygon } from './polygon.ts';
import { PerEyeCache } from './per-eye-cache.ts';
import { segmentInsidePolygon } from './segment-clip.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

/**
 * What a wood hides when a sight line may run `depthMm` inside it before it is blocked (Black
 * Powder lets units see a little way into and out of a wood): every point p whose sight line
 * eye → p runs more than depthMm inside the polygon. Along one ray from the eye that is
 * everything beyond t*, the distance at which the ray has run depthMm inside; so the hidden
 * region is the part of the window beyond the curve t*(θ). That curve is the wood's near edge
 * pushed out depthMm along the rays (not a straight line), so it is traced as a polygon: rays at
 * most STEP_DEG apart and on both sides of every corner's bearing, and the bearings where the
 * chord through the wood is exactly depthMm (where hiding starts) found by bisection to 1e-10
 * rad. Between neighbouring rays the curve bows off its chord by about depth·Δθ²/8: under 1e-4
 * mm for a 1" depth. Pieces are returned as fans of at most 90°, each a simple polygon.
 */

const STEP_DEG = 0.25;
const STEP = (STEP_DEG * Math.PI) / 180;
const EDGE = 1e-9;

/** Where a ray from the eye at angle θ has run `depth` inside the polygon, or Infinity if never (within reach). */
const depthReach = (rays: RayStretches, depth: number, theta: number, reach: number): number =>
  depthReachIn(rays.along(theta), depth, reach);

/** depthReach given the ray's stretches inside the polygon (start, end, start, end…). */
function depthReachIn(ivs: readonly number[], depth: number, reach: number): number {
  let left = depth;
  for (let i = 0; i < ivs.length; i += 2) {
    const d0 = ivs[i] as number;
    if (d0 >= reach) break;
    const len = Math.min(ivs[i + 1] as number, reach) - d0;
    if (len > left) return d0 + left;
    left -= len;
  }
  return Infinity;
}

/**
 * The stretches of each ray from one eye that lie inside one outline, as distances from the eye
 * (start, end, start, end…), each ray traced once to `RAY_MM` and kept by its bearing: every
 * window an eye looks through asks the same bearings (the fan and the corners depend on the eye
 * and the outline only), and a window's reach only cuts the stretches short.
 */
class RayStretches {
  private readonly byTheta = new Map<number, readonly number[]>();
  constructor(
    private readonly eye: Vec2,
    private readonly poly: Polygon,
  ) {}

  along(theta: number): readonly number[] {
    let ivs = this.byTheta.get(theta);
    if (!ivs) {
      const far = { x: this.eye.x + Math.cos(theta) * RAY_MM, y: this.eye.y + Math.sin(theta) * RAY_MM };
      const found = segmentInsidePolygon(this.eye, far, this.poly);
      if (found.length === 0) ivs = NO_STRETCHES;
      else {
        const out: number[] = [];
        for (const iv of found) out.push(iv.t0 * RAY_MM, iv.t1 * RAY_MM);
        ivs = out;
      }
      this.byTheta.set(theta, ivs);
    }
    return ivs;
  }
}

/**
 * Kept stretches are plain arrays of numbers (one object each, the doubles inside it): typed
 * arrays were three objects each with a buffer outside the heap, and an eye's fans are kept.
 * Most rays miss the outline: they share one empty list.
 */
const NO_STRETCHES: readonly number[] = Object.freeze([]);

/** How far rays are traced (windows reaching farther are traced on their own, not kept). */
const RAY_MM = 40_000;

/** Per outline, per eye x, per eye y: its rays' stretches (kept while the outline lives). */
const raysByOutline = new PerEyeCache<RayStretches>();

const raysFor = (eye: Vec2, poly: Polygon): RayStretches =>
  raysByOutline.get(poly, eye, () => new RayStretches(eye, poly));

/** depthReach for a window too large to keep rays for: the ray traced to `reach` itself. */
function depthReachOnce(eye: Vec2, poly: Polygon, depth: number, theta: number, reach: number): number {
  const far = { x: eye.x + Math.cos(theta) * reach, y: eye.y + Math.sin(theta) * reach };
  let left = depth;
  for (const iv of segmentInsidePolygon(eye, far, poly)) {
    const len = (iv.t1 - iv.t0) * reach;
    if (len > left) return iv.t0 * reach + left;
    left -= len;
  }
  return Infinity;
}

/** The angular span of a polygon seen from outside it: [start, end] with end − start < 2π. */
function angularSpan(eye: Vec2, poly: Polygon): [number, number] {
  let cx = 0;
  let cy = 0;
  for (const p of poly) {
    cx += p.x / poly.length;
    cy += p.y / poly.length;
  }
  const mid = Math.atan2(cy - eye.y, cx - eye.x);
  let lo = 0;
  let hi = 0;
  // Relative angles of the outline, unwrapped as it is walked round (a polygon seen from outside
  // never turns a full circle round the eye).
  let prev = 0;
  let acc = 0;
  poly.forEach((p, i) => {
    let a = Math.atan2(p.y - eye.y, p.x - eye.x) - mid;
    while (a > Math.PI) a -= 2 * Math.PI;
    while (a < -Math.PI) a += 2 * Math.PI;
    if (i === 0) acc = a;
    else {
      let d = a - prev;
      while (d > Math.PI) d -= 2 * Math.PI;
      while (d < -Math.PI) d += 2 * Math.PI;
      acc += d;
    }
    prev = a;
    lo = i === 0 ? acc : Math.min(lo, acc);
    hi = i === 0 ? acc : Math.max(hi, acc);
  });
  return [mid + lo, mid + hi];
}

/**
 * `keepRays`: trace each bearing once per eye and outline and reuse it for every window (false:
 * trace every ray to this window's reach, as the check of the kept rays does).
 */
export function depthShadow(
  eye: Vec2,
  poly: Polygon,
  depthMm: number,
  window: Box,
  keepRays = true,
): Polygon[] {
  const corners = [
    { x: window.minX, y: window.minY },
    { x: window.maxX, y: window.minY },
    { x: window.maxX, y: window.maxY },
    { x: window.minX, y: window.maxY },
  ];
  const reach = Math.max(...corners.map((c) => hypot(c.x - eye.x, c.y - eye.y))) + 1;
  const rayStretches = keepRays && reach <= RAY_MM ? raysFor(eye, poly) : undefined;
  const depthAt = (theta: number): number =>
    rayStretches
      ? depthReach(rayStretches, depthMm, theta, reach)
      : depthReachOnce(eye, poly, depthMm, theta, reach);
  if (rayStretches) return fanShadow(eye, fanFor(eye, poly, rayStretches), depthMm, reach, depthAt);
  const inside = containsPoint(poly, eye);
  const thetas = bearings(eye, poly, inside);
  return shadowFrom(
    eye,
    reach,
    thetas.map((theta) => ray(theta, depthAt(theta))),
    depthAt,
  );
}

/**
 * depthShadow's pieces whose boxes meet `near` (the hidden polygons sight keeps for a target),
 * with a wood whose shadow cannot reach `near` settled before its fans are built: every point of
 * every piece lies on a kept ray (bearing between the fan's first and last), no nearer the eye
 * than the wood (less a millimetre) and no farther than the fans' far edge, so inside the box of
 * that annular sector; when the box (grown far beyond rounding) misses `near`, so does every
 * piece's. Most windows that cross a wood look at targets outside its shadow.
 */
export function depthShadowNear(
  eye: Vec2,
  poly: Polygon,
  depthMm: number,
  window: Box,
  near: Box,
): Polygon[] {
  const reach =
    Math.max(
      hypot(window.minX - eye.x, window.minY - eye.y),
      hypot(window.maxX - eye.x, window.minY - eye.y),
      hypot(window.maxX - eye.x, window.maxY - eye.y),
      hypot(window.minX - eye.x, window.maxY - eye.y),
    ) + 1;
  if (reach <= RAY_MM && !containsPoint(poly, eye)) {
    const fan = fanFor(eye, poly, raysFor(eye, poly));
    const last = fan.thetas.length - 1;
    if (last >= 0) {
      const far = reach / Math.cos(STEP / 2) + 2;
      const nearR = Math.max(0, pointToPolygon(eye, poly).distance - 1);
      const b = sectorBox(eye, fan.thetas[0] as number, fan.thetas[last] as number, nearR, far);
      const m = 1e-6 * (1 + far);
      if (
        b.maxX + m < near.minX ||
        near.maxX < b.minX - m ||
        b.maxY + m < near.minY ||
        near.maxY < b.minY - m
      )
        return [];
    }
  }
  return depthShadow(eye, poly, depthMm, window).filter((p) => p.length >= 3 && boxesMeet(boxOf(p), near));
}

/** The box of the points at distance r0 … r1 from the eye on bearings θ0 … θ1 (θ1 − θ0 < 2π). */
function sectorBox(eye: Vec2, t0: number, t1: number, r0: number, r1: number): Box {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const add = (theta: number, r: number) => {
    const x = eye.x + Math.cos(theta) * r;
    const y = eye.y + Math.sin(theta) * r;
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  };
  for (const r of [r0, r1]) {
    add(t0, r);
    add(t1, r);
  }
  // The bearings along the axes within the span, where the far arc bulges out.
  for (let k = Math.ceil(t0 / (Math.PI / 2)); k * (Math.PI / 2) <= t1; k++) add(k * (Math.PI / 2), r1);
  return { minX, minY, maxX, maxY };
}

/**
 * The bearings of the rays: a regular fan over the outline's angular span (all round from inside
 * it), plus both sides of every corner's bearing (where t* may jump), ascending.
 */
function bearings(eye: Vec2, poly: Polygon, inside: boolean): number[] {
  const [start, end] = inside ? [0, 2 * Math.PI] : angularSpan(eye, poly);
  const thetas: number[] = [];
  const n = Math.max(1, Math.ceil((end - start) / STEP));
  for (let k = 0; k <= n; k++) thetas.push(start + ((end - start) * k) / n);
  if (!inside)
    for (const p of poly) {
      let a = Math.atan2(p.y - eye.y, p.x - eye.x);
      while (a < start - EDGE) a += 2 * Math.PI;
      while (a > end + EDGE) a -= 2 * Math.PI;
      for (const b of [a - EDGE, a + EDGE]) if (b > start && b < end) thetas.push(b);
    }
  thetas.sort((a, b) => a - b);
  return thetas;
}

/** One eye's rays over one outline: their bearings (ascending) and each one's stretches inside it. */
interface Fan {
  readonly thetas: readonly number[];
  /** Math.cos and Math.sin of each bearing: every window's fan points are built on them. */
  readonly cos: readonly number[];
  readonly sin: readonly number[];
  readonly stretches: ReadonlyArray<readonly number[]>;
}

/** A ray of a fan: its bearing, where it is first hidden (t*), and the bearing's cos and sin. */
interface Ray {
  readonly theta: number;
  readonly t: number;
  readonly cos: number;
  readonly sin: number;
}

const ray = (theta: number, t: number): Ray => ({ theta, t, cos: Math.cos(theta), sin: Math.sin(theta) });

/** Per outline, per eye x, per eye y: the fan (every window of that eye asks the same bearings). */
const fans = new PerEyeCache<Fan>();

function fanFor(eye: Vec2, poly: Polygon, rays: RayStretches): Fan {
  return fans.get(poly, eye, () => {
    const thetas = bearings(eye, poly, containsPoint(poly, eye));
    return {
      thetas,
      cos: thetas.map((theta) => Math.cos(theta)),
      sin: thetas.map((theta) => Math.sin(theta)),
      stretches: thetas.map((theta) => rays.along(theta)),
    };
  });
}

/** shadowFrom for the kept fan: the same rays, their reach read from the kept stretches. */
function fanShadow(
  eye: Vec2,
  fan: Fan,
  depthMm: number,
  reach: number,
  depthAt: (theta: number) => number,
): Polygon[] {
  const rays: Ray[] = [];
  for (let i = 0; i < fan.thetas.length; i++)
    rays.push({
      theta: fan.thetas[i] as number,
      t: depthReachIn(fan.stretches[i] as readonly number[], depthMm, reach),
      cos: fan.cos[i] as number,
      sin: fan.sin[i] as number,
    });
  return shadowFrom(eye, reach, rays, depthAt);
}

/**
 * The hidden fans from the rays (bearing and t*, ascending): where hiding starts or stops between
 * two rays the bearing is bisected, and each run of hidden rays becomes fans from t* out to just
 * beyond `reach`.
 */
function shadowFrom(
  eye: Vec2,
  reach: number,
  rays: readonly Ray[],
  depthAt: (theta: number) => number,
): Polygon[] {
  // Where hiding starts or stops between two rays: bisect for the bearing where t* reaches the window.
  const refined: Ray[] = [];
  for (let i = 0; i < rays.length; i++) {
    const r = rays[i] as Ray;
    const prev = refined[refined.length - 1];
    if (prev && Number.isFinite(prev.t) !== Number.isFinite(r.t)) {
      let lo = prev.theta;
      let hi = r.theta;
      const hidLo = Number.isFinite(prev.t);
      for (let k = 0; k < 40 && hi - lo > 1e-10; k++) {
        const mid = (lo + hi) / 2;
        if (Number.isFinite(depthAt(mid)) === hidLo) lo = mid;
        else hi = mid;
      }
      const edge = hidLo ? lo : hi;
      const t = depthAt(edge);
      refined.push(ray(edge, Number.isFinite(t) ? t : Infinity));
    }
    refined.push(r);
  }
  // Runs of hidden rays become fans: near edge along t*, far edge just outside the window.
  const farR = reach / Math.cos(STEP / 2) + 1;
  const out: Polygon[] = [];
  let run: Ray[] = [];
  const flush = () => {
    // Split long runs so every fan spans under 90° (each then a simple polygon).
    let i = 0;
    while (run.length - i >= 2) {
      let j = i + 1;
      while (
        j + 1 < run.length &&
        (run[j + 1] as { theta: number }).theta - (run[i] as { theta: number }).theta < Math.PI / 2
      )
        j++;
      // Near edge along t* (rays in order), then the far edge back: the points of mapping the
      // run's slice twice, without the slice and the copies.
      const fanPoints: Vec2[] = [];
      for (let k = i; k <= j; k++) {
        const r = run[k] as Ray;
        fanPoints.push({ x: eye.x + r.cos * r.t, y: eye.y + r.sin * r.t });
      }
      for (let k = j; k >= i; k--) {
        const r = run[k] as Ray;
        fanPoints.push({ x: eye.x + r.cos * farR, y: eye.y + r.sin * farR });
      }
      out.push(fanPoints);
      i = j;
    }
    run = [];
  };
  for (const r of refined) {
    if (Number.isFinite(r.t) && r.t < farR) run.push(r);
    else flush();
  }
  flush();
  return out;
}
