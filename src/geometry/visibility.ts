import { boxOf } from './box.ts';
import { sightObstructions, type Blocker, type Obstruction } from './line-of-sight.ts';
import { containsPoint, polygonArea, type Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';

/** Sample points spread over a polygon, each standing for `weight` of its area. */
export interface AreaSample {
  readonly point: Vec2;
  readonly weight: number;
}

/**
 * Samples a polygon on an n × n grid of cell centres: quadrilaterals (base footprints) through
 * their own bilinear parametrisation, anything else through a grid over its bounding box.
 */
export function samplePolygon(poly: Polygon, n: number): AreaSample[] {
  const area = polygonArea(poly);
  if (poly.length === 4) {
    const [a, b, c, d] = poly as [Vec2, Vec2, Vec2, Vec2];
    const out: AreaSample[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const u = (i + 0.5) / n;
        const v = (j + 0.5) / n;
        const p = {
          x: (1 - v) * ((1 - u) * a.x + u * b.x) + v * ((1 - u) * d.x + u * c.x),
          y: (1 - v) * ((1 - u) * a.y + u * b.y) + v * ((1 - u) * d.y + u * c.y),
        };
        out.push({ point: p, weight: area / (n * n) });
      }
    }
    return out;
  }
  const box = boxOf(poly);
  const pts: Vec2[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const p = { x: box.minX + ((i + 0.5) / n) * (box.maxX - box.minX), y: box.minY + ((j + 0.5) / n) * (box.maxY - box.minY) };
      if (containsPoint(poly, p)) pts.push(p);
    }
  }
  return pts.map((point) => ({ point, weight: area / pts.length }));
}

export interface VisibilityResult {
  /** Share of the target's area that an unobstructed straight line from the eye reaches, [0, 1]. */
  readonly fraction: number;
  readonly samples: number;
  /** Blockers that hid at least one sample, with the share of the target each hid. */
  readonly hiddenBy: ReadonlyArray<{ readonly blocker: Blocker; readonly share: number; readonly first: Obstruction }>;
  /** A visible sample point, nearest the eye, if any. */
  readonly nearestVisible?: Vec2;
}

/**
 * Share of a target (the union of its polygons, overlaps assumed negligible) that can be seen
 * from `eye` past the blockers, by sampling the target on a grid. The blockers must not include
 * the target itself.
 */
export function visibleFraction(eye: Vec2, target: readonly Polygon[], blockers: readonly Blocker[], samplesPerSide = 4): VisibilityResult {
  let total = 0;
  let seen = 0;
  let count = 0;
  let nearest: { p: Vec2; d: number } | undefined;
  const hidden = new Map<string, { blocker: Blocker; weight: number; first: Obstruction }>();
  for (const poly of target) {
    for (const s of samplePolygon(poly, samplesPerSide)) {
      count++;
      total += s.weight;
      const obs = sightObstructions(eye, s.point, blockers, true)[0];
      if (!obs) {
        seen += s.weight;
        const d = Math.hypot(s.point.x - eye.x, s.point.y - eye.y);
        if (!nearest || d < nearest.d) nearest = { p: s.point, d };
      } else {
        const h = hidden.get(obs.blocker.id);
        if (h) h.weight += s.weight;
        else hidden.set(obs.blocker.id, { blocker: obs.blocker, weight: s.weight, first: obs });
      }
    }
  }
  const fraction = total === 0 ? 0 : Math.min(1, Math.max(0, seen / total));
  return {
    fraction,
    samples: count,
    hiddenBy: [...hidden.values()].map((h) => ({ blocker: h.blocker, share: total === 0 ? 0 : h.weight / total, first: h.first })),
    ...(nearest ? { nearestVisible: nearest.p } : {}),
  };
}
