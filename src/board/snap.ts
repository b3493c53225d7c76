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

export type SnapResult =
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
    };

/**
 * Which space a counter centre (map inches) is in. Inside one circle (grown by the tolerance) and
 * no other: that space. Within reach of two circles, or off every circle but lying on a route
 * between two spaces: unclear, naming both. Otherwise: not on any space.
 */
export function snapToSpace(map: BoardMap, p: Vec2, opts: SnapOptions = DEFAULT_SNAP): SnapResult {
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
