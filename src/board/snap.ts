import { closestPointOnSegment } from '../geometry/distance.ts';
import type { Vec2 } from '../geometry/vec.ts';
import { mapDistance, spaceLabel, type BoardMap, type Space } from './board-map.ts';

export interface SnapOptions {
  /** A counter centre this far (map inches) outside a space's circle still counts as in it. */
  readonly toleranceIn: number;
  /** A counter centre this near a route line, and in no circle, sits between two spaces. */
  readonly routeBandIn: number;
}

export const DEFAULT_SNAP: SnapOptions = { toleranceIn: 0.25, routeBandIn: 0.3 };

/**
 * The nearest place where the answer changes (the edge of a circle grown by the tolerance, or of
 * a route's band), how far the counter centre is from it, and a point just across it: where the
 * counter would be if it had moved there.
 */
export interface SnapBoundary {
  readonly distanceIn: number;
  readonly across: Vec2;
  /** What lies there, in words ("the edge of Perth's circle"). */
  readonly what: string;
}

export type SnapResult = (
  | {
      readonly status: 'placed';
      readonly space: Space;
      readonly distanceIn: number;
      readonly marginIn: number;
    }
  | {
      readonly status: 'unclear';
      readonly candidates: readonly Space[];
      readonly distanceIn: number;
      readonly why: string;
    }
  | {
      readonly status: 'unplaced';
      readonly nearest?: Space;
      readonly distanceIn: number;
      readonly why: string;
    }
) & { readonly boundary?: SnapBoundary };

/**
 * Which space a counter centre (map inches) is in. Inside one circle (grown by the tolerance) and
 * no other: that space. Within reach of two circles, or off every circle but lying on a route
 * between two spaces: unclear, naming both. Otherwise: not on any space.
 */
export function snapToSpace(map: BoardMap, p: Vec2, opts: SnapOptions = DEFAULT_SNAP): SnapResult {
  const r = snapStatus(map, p, opts);
  const boundary = nearestBoundary(map, p, opts);
  return boundary ? { ...r, boundary } : r;
}

/** The nearest circle edge (grown by the tolerance) or route-band edge to a point. */
export function nearestBoundary(
  map: BoardMap,
  p: Vec2,
  opts: SnapOptions = DEFAULT_SNAP,
): SnapBoundary | undefined {
  const nudge = 1e-6;
  let best: SnapBoundary | undefined;
  for (const s of map.spaces) {
    const d = mapDistance(s, p);
    const edge = s.radius + opts.toleranceIn;
    const dist = Math.abs(d - edge);
    if (best && dist >= best.distanceIn) continue;
    const ux = d === 0 ? 1 : (p.x - s.x) / d;
    const uy = d === 0 ? 0 : (p.y - s.y) / d;
    const to = d <= edge ? edge + nudge : edge - nudge;
    best = {
      distanceIn: dist,
      across: { x: s.x + ux * to, y: s.y + uy * to },
      what: `the edge of ${spaceLabel(s)}'s circle`,
    };
  }
  for (const r of map.routes) {
    const a = map.byId.get(r.from) as Space;
    const b = map.byId.get(r.to) as Space;
    const q = closestPointOnSegment(p, a, b);
    if (mapDistance(q, a) <= a.radius || mapDistance(q, b) <= b.radius) continue;
    const d = Math.hypot(q.x - p.x, q.y - p.y);
    const dist = Math.abs(d - opts.routeBandIn);
    if (best && dist >= best.distanceIn) continue;
    const ux = d === 0 ? 0 : (p.x - q.x) / d;
    const uy = d === 0 ? 1 : (p.y - q.y) / d;
    const to = d <= opts.routeBandIn ? opts.routeBandIn + nudge : opts.routeBandIn - nudge;
    best = {
      distanceIn: dist,
      across: { x: q.x + ux * to, y: q.y + uy * to },
      what: `the edge of the band along the route ${spaceLabel(a)}–${spaceLabel(b)}`,
    };
  }
  return best;
}

function snapStatus(map: BoardMap, p: Vec2, opts: SnapOptions): SnapResult {
  // Ranked by how far outside each circle the point lies.
  const ranked = map.spaces
    .map((s) => ({ s, d: mapDistance(s, p) }))
    .sort((a, b) => a.d - a.s.radius - (b.d - b.s.radius));
  const within = ranked.filter(({ s, d }) => d <= s.radius + opts.toleranceIn);
  const nearest = ranked[0];
  if (within.length === 1) {
    const { s, d } = within[0] as (typeof within)[number];
    return { status: 'placed', space: s, distanceIn: d, marginIn: s.radius + opts.toleranceIn - d };
  }
  if (within.length > 1)
    return {
      status: 'unclear',
      candidates: within.map((w) => w.s),
      distanceIn: (within[0] as (typeof within)[number]).d,
      why: `the counter reaches both ${within.map((w) => spaceLabel(w.s)).join(' and ')}`,
    };
  let onRoute: { a: Space; b: Space; d: number } | undefined;
  for (const r of map.routes) {
    const a = map.byId.get(r.from) as Space;
    const b = map.byId.get(r.to) as Space;
    const q = closestPointOnSegment(p, a, b);
    // Only the stretch of the route line between the two circles counts.
    if (mapDistance(q, a) <= a.radius || mapDistance(q, b) <= b.radius) continue;
    const d = Math.hypot(q.x - p.x, q.y - p.y);
    if (d <= opts.routeBandIn && (!onRoute || d < onRoute.d)) onRoute = { a, b, d };
  }
  if (onRoute)
    return {
      status: 'unclear',
      candidates: [onRoute.a, onRoute.b],
      distanceIn: nearest?.d ?? Infinity,
      why: `the counter sits on the route between ${spaceLabel(onRoute.a)} and ${spaceLabel(onRoute.b)}, in neither space`,
    };
  return {
    status: 'unplaced',
    ...(nearest ? { nearest: nearest.s } : {}),
    distanceIn: nearest?.d ?? Infinity,
    why: nearest
      ? `the counter is ${(nearest.d - nearest.s.radius).toFixed(2)} in outside ${spaceLabel(nearest.s)}, beyond the ${opts.toleranceIn} in tolerance`
      : 'the map has no spaces',
  };
}
