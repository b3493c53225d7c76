import { boxOf } from './box.ts';
import { sightObstructions, type Blocker, type Obstruction } from './line-of-sight.ts';
import { containsPoint, polygonArea, type Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';
import { hypot } from './hypot.ts';

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
      const p = {
        x: box.minX + ((i + 0.5) / n) * (box.maxX - box.minX),
        y: box.minY + ((j + 0.5) / n) * (box.maxY - box.minY),
      };
      if (containsPoint(poly, p)) pts.push(p);
    }
  }
  return pts.map((point) => ({ point, weight: area / pts.length }));
}

/** What hid a sample point: some blocker's id and words, and where along the sight line. */
export interface Hider {
  readonly id: string;
  readonly label: string;
  readonly fromMm?: number;
  readonly toMm?: number;
}

export interface VisibilityResult {
  /** Share of the target's area that an unobstructed straight line from the eye reaches, [0, 1]. */
  readonly fraction: number;
  readonly samples: number;
  /** What hid at least one sample, with the share of the target each hid. */
  readonly hiddenBy: ReadonlyArray<{ readonly hider: Hider; readonly share: number }>;
  /** A visible sample point, nearest the eye, if any. */
  readonly nearestVisible?: Vec2;
}

/**
 * Share of a target (the union of its polygons, overlaps assumed negligible) seen from `eye`,
 * by sampling the target on a grid and asking `hiddenBy` about each sight line.
 */
export function visibleFractionBy(
  eye: Vec2,
  target: readonly Polygon[],
  hiddenBy: (eye: Vec2, p: Vec2) => Hider | undefined,
  samplesPerSide = 4,
): VisibilityResult {
  let total = 0;
  let seen = 0;
  let count = 0;
  let nearest: { p: Vec2; d: number } | undefined;
  const hidden = new Map<string, { hider: Hider; weight: number }>();
  for (const poly of target) {
    for (const s of samplePolygon(poly, samplesPerSide)) {
      count++;
      total += s.weight;
      const h = hiddenBy(eye, s.point);
      if (!h) {
        seen += s.weight;
        const d = hypot(s.point.x - eye.x, s.point.y - eye.y);
        if (!nearest || d < nearest.d) nearest = { p: s.point, d };
      } else {
        const prev = hidden.get(h.id);
        if (prev) prev.weight += s.weight;
        else hidden.set(h.id, { hider: h, weight: s.weight });
      }
    }
  }
  const fraction = total === 0 ? 0 : Math.min(1, Math.max(0, seen / total));
  return {
    fraction,
    samples: count,
    hiddenBy: [...hidden.values()].map((h) => ({
      hider: h.hider,
      share: total === 0 ? 0 : h.weight / total,
    })),
    ...(nearest ? { nearestVisible: nearest.p } : {}),
  };
}

/** Share of a target seen from `eye` past polygon blockers (the target must not be among them). */
export function visibleFraction(
  eye: Vec2,
  target: readonly Polygon[],
  blockers: readonly Blocker[],
  samplesPerSide = 4,
): VisibilityResult {
  return visibleFractionBy(
    eye,
    target,
    (e, p) => {
      const o: Obstruction | undefined = sightObstructions(e, p, blockers, true)[0];
      return o ? { id: o.blocker.id, label: o.blocker.label, fromMm: o.fromMm, toMm: o.toMm } : undefined;
    },
    samplesPerSide,
  );
}
