import type { FacedBox } from '../../geometry/faced-box.ts';
import { polygonSetSeparation } from '../../geometry/distance.ts';
import { toTable } from '../../geometry/frame.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import { convexHull } from '../../geometry/hull.ts';
import { boxOf } from '../../geometry/box.ts';
import { sweepContact } from '../../geometry/sweep.ts';
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

const narrowed = (box: FacedBox, clearanceMm: number): FacedBox => ({
  ...box,
  width: Math.max(0, box.width - 2 * (RUN_CONTACT_MM + clearanceMm)),
});

/**
 * The first obstacle met running `box` straight ahead for `distanceMm` (undefined when the run
 * is clear). One touched at the very distance the target is met does not block: both are reached.
 * `clearanceMm` narrows the strip further on each side: the run as it would be were everything
 * beside it that much further off (for whether a run is clear is too close to call).
 */
export function runBlockedBy(
  box: FacedBox,
  distanceMm: number,
  obstacles: readonly RunObstacle[],
  clearanceMm = 0,
): RunObstacle | undefined {
  let first: { o: RunObstacle; d: number } | undefined;
  let strip: FacedBox | undefined;
  // What the run can meet lies in the strip from the box's rear edge to `distanceMm` ahead, in the
  // box's own frame: an obstacle whose bounding box lies wholly to one side of that (its corners'
  // local coordinates) cannot stop it, and the sweep below would find nothing of it either.
  const w = Math.max(0, box.width - 2 * (RUN_CONTACT_MM + clearanceMm)) / 2 + STRIP_SLACK_MM;
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
    const c = sweepContact(strip, [o.polygon]);
    if (c && c.distance < distanceMm - 1e-9 && (!first || c.distance < first.d)) first = { o, d: c.distance };
  }
  return first?.o;
}

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
