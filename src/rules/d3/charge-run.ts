import type { FacedBox } from '../../geometry/faced-box.ts';
import { polygonSetSeparation } from '../../geometry/distance.ts';
import { toTable } from '../../geometry/frame.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { convexHull } from '../../geometry/hull.ts';
import { boxOf } from '../../geometry/box.ts';
import { facedBoxPolygon } from '../../geometry/faced-box.ts';
import { sweepDistance } from '../../geometry/sweep.ts';
import type { Vec2 } from '../../geometry/vec.ts';

/**
 * The straight run of a charge after its turn: the strip the frontage sweeps from where it stands
 * to the target may hold nothing the charger may not pass through (the same units and ground its
 * pivot may not sweep through). A unit merely touching the charger's flank is beside the strip,
 * not in it: the strip is narrowed by the contact tolerance on each side.
 */

/** Bases closer than this touch (are in contact), mm. */
export const RUN_CONTACT_MM = 1;

export interface RunObstacle {
  readonly name: string;
  readonly polygon: Polygon;
  readonly sigmaMm: number;
}

/**
 * Bounding boxes of a list of obstacles (minX, minY, maxX, maxY each), worked out once per list:
 * a charge's searches run every line past the same list hundreds of thousands of times.
 */
const boxesByList = new WeakMap<readonly RunObstacle[], Float64Array>();
function boxesOf(obstacles: readonly RunObstacle[]): Float64Array {
  let out = boxesByList.get(obstacles);
  if (!out) {
    out = new Float64Array(obstacles.length * 4);
    obstacles.forEach((o, i) => {
      const b = boxOf(o.polygon);
      out!.set([b.minX, b.minY, b.maxX, b.maxY], i * 4);
    });
    boxesByList.set(obstacles, out);
  }
  return out;
}

/** Slack on the strip test below: far beyond rounding, far below anything the sweep tells apart, mm. */
const STRIP_SLACK_MM = 1e-6;

/** The frontage a run sweeps: narrowed by the contact tolerance and `clearanceMm` each side. */
const stripWidth = (box: FacedBox, clearanceMm: number): number =>
  Math.max(0, box.width - 2 * (RUN_CONTACT_MM + clearanceMm));

const narrowed = (box: FacedBox, clearanceMm: number): FacedBox => ({
  ...box,
  width: stripWidth(box, clearanceMm),
});

/** How far the box's farthest corner is from `pivot`: what a turn about it swings most, mm. */
export const leverAbout = (box: FacedBox, pivot: Vec2): number =>
  Math.max(...facedBoxPolygon(box).map((p) => Math.hypot(p.x - pivot.x, p.y - pivot.y)));

/**
 * The first obstacle met running `box` straight ahead for `distanceMm` (undefined when the run
 * is clear), or with `anyWill`, the first of the list found to block it (a search asking only
 * whether a run is clear need not test the rest). One touched at the very distance the target is
 * met does not block: both are reached. `clearanceMm` narrows the strip further on each side: the
 * run as it would be were everything beside it that much further off (for whether a run is clear
 * is too close to call).
 */
function blockingObstacle(
  box: FacedBox,
  distanceMm: number,
  obstacles: readonly RunObstacle[],
  clearanceMm: number,
  anyWill: boolean,
): RunObstacle | undefined {
  let first: RunObstacle | undefined;
  let firstMm = Infinity;
  let strip: FacedBox | undefined;
  // What the run can meet lies in the strip from the box's rear edge to `distanceMm` ahead, in the
  // box's own frame: an obstacle whose bounding box lies wholly to one side of that (its corners'
  // local coordinates) cannot stop it, and the sweep below would find nothing of it either.
  const w = stripWidth(box, clearanceMm) / 2 + STRIP_SLACK_MM;
  const back = -box.depth - STRIP_SLACK_MM;
  const ahead = distanceMm + STRIP_SLACK_MM;
  const { origin, right, front } = box.frame;
  const boxes = boxesOf(obstacles);
  for (let i = 0; i < obstacles.length; i++) {
    const dx0 = (boxes[i * 4] as number) - origin.x;
    const dy0 = (boxes[i * 4 + 1] as number) - origin.y;
    const dx1 = (boxes[i * 4 + 2] as number) - origin.x;
    const dy1 = (boxes[i * 4 + 3] as number) - origin.y;
    // Local x and y of the four corners: each is linear in the corner, so its least and most over
    // the box come from the least and most of each term.
    const xLo = Math.min(dx0 * right.x, dx1 * right.x) + Math.min(dy0 * right.y, dy1 * right.y);
    const xHi = Math.max(dx0 * right.x, dx1 * right.x) + Math.max(dy0 * right.y, dy1 * right.y);
    if (xHi < -w || xLo > w) continue;
    const yLo = Math.min(dx0 * front.x, dx1 * front.x) + Math.min(dy0 * front.y, dy1 * front.y);
    const yHi = Math.max(dx0 * front.x, dx1 * front.x) + Math.max(dy0 * front.y, dy1 * front.y);
    if (yHi < back || yLo > ahead) continue;
    const o = obstacles[i] as RunObstacle;
    strip ??= narrowed(box, clearanceMm);
    const d = sweepDistance(strip, [o.polygon]);
    if (d < distanceMm - 1e-9 && (!first || d < firstMm)) {
      if (anyWill) return o;
      first = o;
      firstMm = d;
    }
  }
  return first;
}

/** The first obstacle met running `box` straight ahead for `distanceMm` (see blockingObstacle). */
export const runBlockedBy = (
  box: FacedBox,
  distanceMm: number,
  obstacles: readonly RunObstacle[],
  clearanceMm = 0,
): RunObstacle | undefined => blockingObstacle(box, distanceMm, obstacles, clearanceMm, false);

/** Whether anything stands in the run of `box` straight ahead for `distanceMm` (see blockingObstacle). */
export const runIsBlocked = (
  box: FacedBox,
  distanceMm: number,
  obstacles: readonly RunObstacle[],
  clearanceMm = 0,
): boolean => blockingObstacle(box, distanceMm, obstacles, clearanceMm, true) !== undefined;

/** The strip a run of `distanceMm` sweeps (table coordinates): the narrowed frontage, from the front edge on. */
function runStrip(box: FacedBox, distanceMm: number): Polygon {
  const w = box.width / 2 - RUN_CONTACT_MM;
  return [
    { x: -w, y: 0 },
    { x: w, y: 0 },
    { x: w, y: distanceMm },
    { x: -w, y: distanceMm },
  ].map((p) => toTable(box.frame, p));
}

/**
 * The least translation that separates two convex polygons (0 when they do not overlap): the
 * smallest overlap along any edge normal of either (separating axes, exact for convex shapes).
 */
export function penetrationMm(a: Polygon, b: Polygon): number {
  let best = Infinity;
  for (const poly of [a, b])
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i] as Vec2;
      const q = poly[(i + 1) % poly.length] as Vec2;
      const len = Math.hypot(q.x - p.x, q.y - p.y);
      if (len === 0) continue;
      const n = { x: -(q.y - p.y) / len, y: (q.x - p.x) / len };
      const span = (ps: Polygon) => {
        const d = ps.map((v) => v.x * n.x + v.y * n.y);
        return [Math.min(...d), Math.max(...d)] as const;
      };
      const [a0, a1] = span(a);
      const [b0, b1] = span(b);
      best = Math.min(best, Math.max(0, Math.min(a1 - b0, b1 - a0)));
    }
  return best;
}

/**
 * How far an obstacle would have to move for the run of `distanceMm` to change between clear and
 * blocked: for one in the strip, the least shift that takes it out (exact for convex outlines,
 * the hull's for others); for one clear of it, its gap to the strip.
 */
export function runSwitchMm(box: FacedBox, distanceMm: number, o: RunObstacle): number {
  const strip = runStrip(box, distanceMm);
  const gap = polygonSetSeparation([o.polygon], [strip]);
  if (gap.distance > 0) return gap.distance;
  return penetrationMm(convexHull(o.polygon), strip);
}

/** Turn step (radians) at which obstacleInReach samples a side's turns: half a degree. */
const REACH_STEP = (0.5 * Math.PI) / 180;

/**
 * The obstacles that can stand in some run of one side's turns (`lo`…`hi` radians about `pivot`),
 * in their order: every run's strip is the charger's box turned that far, carried ahead no farther
 * than the farthest point of the target. An obstacle whose bounding circle keeps clear of every
 * such strip never blocks a run, so the runs are tested against these alone (a crowded table's
 * near charge searched some 240,000 runs past 170 obstacles each). The search still cuts its turns
 * at every obstacle's breakpoints: where a flat minimum ties, those cuts say which turn is named.
 *
 * Why it holds: the strip at turn t is the box's own rectangle (full width, rear edge to `reach`
 * ahead) turned by t about the pivot, so a circle meets it at t when its centre turned back by t
 * lies within the radius of the rectangle. Turned back through the side's turns the centre runs
 * along an arc about the pivot, every point of which is within ρ·step/2 of one of the samples taken
 * `step` apart (ρ its distance from the pivot); a circle none of whose samples come within its
 * radius and that much is clear of every strip.
 */
export function obstaclesInReach(
  box: FacedBox,
  pivot: Vec2,
  lo: number,
  hi: number,
  target: readonly Polygon[],
  obstacles: readonly RunObstacle[],
): readonly RunObstacle[] {
  if (obstacles.length === 0) return obstacles;
  const lever = leverAbout(box, pivot);
  // No run goes farther than a target point from the turned front edge, itself within the lever.
  let reach = 0;
  for (const poly of target)
    for (const v of poly) reach = Math.max(reach, Math.hypot(v.x - pivot.x, v.y - pivot.y));
  reach += lever + 1;
  const half = box.width / 2;
  const { origin, right, front } = box.frame;
  const steps = Math.max(1, Math.ceil((hi - lo) / REACH_STEP));
  const boxes = boxesOf(obstacles);
  // The samples' turns, shared by every obstacle (the very numbers each would work out).
  const cosAt = new Float64Array(steps + 1);
  const sinAt = new Float64Array(steps + 1);
  for (let k = 0; k <= steps; k++) {
    const t = lo + ((hi - lo) * k) / steps;
    cosAt[k] = Math.cos(t);
    sinAt[k] = Math.sin(t);
  }
  return obstacles.filter((_, i) => {
    const minX = boxes[i * 4] as number;
    const minY = boxes[i * 4 + 1] as number;
    const maxX = boxes[i * 4 + 2] as number;
    const maxY = boxes[i * 4 + 3] as number;
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    const rho = Math.hypot(cx - pivot.x, cy - pivot.y);
    const within = Math.hypot(maxX - minX, maxY - minY) / 2 + (rho * (hi - lo)) / steps / 2 + 1;
    const rx = cx - pivot.x;
    const ry = cy - pivot.y;
    for (let k = 0; k <= steps; k++) {
      // The centre turned back by the sample's turn about the pivot, in the box's own frame.
      const cos = cosAt[k] as number;
      const sin = sinAt[k] as number;
      const bx = pivot.x + rx * cos + ry * sin - origin.x;
      const by = pivot.y - rx * sin + ry * cos - origin.y;
      const x = bx * right.x + by * right.y;
      const y = bx * front.x + by * front.y;
      const dx = Math.max(0, Math.abs(x) - half);
      const dy = Math.max(0, -box.depth - y, y - reach);
      if (Math.hypot(dx, dy) <= within) return true;
    }
    return false;
  });
}
