import { projectTablePoint, type Pixel } from '../../../src/camera/projection.ts';
import type { TablePose, Vec3 } from '../../../src/camera/table-pose.ts';
import type { BaseView, MeasurementView, StateMessage, UnitView } from '../../../src/server/protocol.ts';
import { formatDistance, PLAIN_DISTANCE_NAME, type DisplayUnit } from './lengths.ts';

/**
 * The headless overlay: what to draw over one camera frame, in image pixels, computed from the
 * state message that belongs to that frame and the current selection. No DOM, no canvas; the
 * renderer draws it and the page hit-tests clicks against it.
 *
 * Footprints are projected at the base's top surface (what the camera sees), with each edge
 * sampled so that lens distortion bends the outline the way it bends the picture.
 */

type Camera = StateMessage['camera'];

export interface BaseOverlay {
  readonly markerId: number;
  /** Closed outline (last point joins the first), image pixels. */
  readonly outline: readonly Pixel[];
  /** The base centre's image. */
  readonly centre: Pixel;
  readonly seen: boolean;
}

export interface UnitOverlay {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly colour: string;
  readonly selected: boolean;
  readonly bases: readonly BaseOverlay[];
  /** Where the name label is anchored (centre-bottom of the label), image pixels. */
  readonly labelAt: Pixel;
  /** The outline's bounding box, image pixels (labels are placed around it). */
  readonly bounds: {
    readonly minU: number;
    readonly minV: number;
    readonly maxU: number;
    readonly maxV: number;
  };
  /** No base of this unit was seen this frame. */
  readonly unseen: boolean;
  /** When unseen: how long ago its bases were last measured, seconds. */
  readonly lastSeenAgoS: number;
  /** Some of its bases are being moved (a hand over them). */
  readonly moving: boolean;
}

export interface MeasurementOverlay {
  readonly a: string;
  readonly b: string;
  /** The shortest line, sampled (distortion bends it), image pixels; first = on A, last = on B. */
  readonly path: readonly Pixel[];
  readonly label: string;
  readonly labelAt: Pixel;
  readonly valid: boolean;
  readonly distanceIn: number;
  readonly uncertaintyIn: number;
}

export interface OverlayModel {
  readonly imageWidth: number;
  readonly imageHeight: number;
  readonly poseKnown: boolean;
  /** Table edge at z = 0, closed, or null when the pose is unknown. */
  readonly tableOutline: readonly Pixel[] | null;
  readonly units: readonly UnitOverlay[];
  readonly measurement: MeasurementOverlay | null;
}

export interface OverlayOptions {
  /** Points per footprint edge (≥ 1); more follow lens distortion more closely. */
  readonly samplesPerEdge: number;
  /** Points along the measurement line. */
  readonly samplesPerLine: number;
  /** Unit of the distance label (the ruleset's own). */
  readonly unit: DisplayUnit;
}

export function defaultOverlayOptions(): OverlayOptions {
  return { samplesPerEdge: 8, samplesPerLine: 24, unit: 'in' };
}

export { formatDistance };

/** Whether a measurement is the one for this pair of units (in either order). */
export function measurementMatches(m: MeasurementView, selection: readonly string[]): boolean {
  if (selection.length !== 2) return false;
  const [x, y] = selection;
  return (m.a === x && m.b === y) || (m.a === y && m.b === x);
}

/** Footprint corners on the table, counter-clockwise: rear-left, rear-right, front-right, front-left. */
export function footprintCorners(
  base: Pick<BaseView, 'x' | 'y' | 'headingDeg' | 'widthMm' | 'depthMm'>,
): Array<{
  x: number;
  y: number;
}> {
  const h = (base.headingDeg * Math.PI) / 180;
  const c = Math.cos(h);
  const s = Math.sin(h);
  const w = base.widthMm / 2;
  const d = base.depthMm / 2;
  return [
    [-w, -d],
    [w, -d],
    [w, d],
    [-w, d],
  ].map(([lx = 0, ly = 0]) => ({ x: base.x + lx * c - ly * s, y: base.y + lx * s + ly * c }));
}

/** Projects a closed table polygon at height z, sampling each edge; null if any point is behind the camera. */
function projectPolygon(
  camera: Camera,
  pose: TablePose,
  corners: ReadonlyArray<{ x: number; y: number }>,
  z: number,
  samplesPerEdge: number,
): Pixel[] | null {
  const out: Pixel[] = [];
  const n = Math.max(1, Math.round(samplesPerEdge));
  for (let i = 0; i < corners.length; i++) {
    const p = corners[i];
    const q = corners[(i + 1) % corners.length];
    if (!p || !q) continue;
    for (let k = 0; k < n; k++) {
      const t = k / n;
      const px = projectTablePoint(camera, pose, { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t, z });
      if (!px) return null;
      out.push(px);
    }
  }
  return out;
}

function projectPath(camera: Camera, pose: TablePose, a: Vec3, b: Vec3, samples: number): Pixel[] | null {
  const out: Pixel[] = [];
  const n = Math.max(1, Math.round(samples));
  for (let k = 0; k <= n; k++) {
    const t = k / n;
    const px = projectTablePoint(camera, pose, {
      x: a.x + (b.x - a.x) * t,
      y: a.y + (b.y - a.y) * t,
      z: a.z + (b.z - a.z) * t,
    });
    if (!px) return null;
    out.push(px);
  }
  return out;
}

function unitOverlay(
  camera: Camera,
  pose: TablePose,
  unit: UnitView,
  selected: boolean,
  opts: OverlayOptions,
): UnitOverlay | null {
  const bases: BaseOverlay[] = [];
  for (const base of unit.bases) {
    const outline = projectPolygon(camera, pose, footprintCorners(base), base.topMm, opts.samplesPerEdge);
    const centre = projectTablePoint(camera, pose, { x: base.x, y: base.y, z: base.topMm });
    if (outline && centre) bases.push({ markerId: base.markerId, outline, centre, seen: base.seen });
  }
  if (bases.length === 0) return null;
  let top = Infinity;
  let sumU = 0;
  const bounds = { minU: Infinity, minV: Infinity, maxU: -Infinity, maxV: -Infinity };
  for (const b of bases) {
    sumU += b.centre.u;
    for (const p of b.outline) {
      top = Math.min(top, p.v);
      bounds.minU = Math.min(bounds.minU, p.u);
      bounds.maxU = Math.max(bounds.maxU, p.u);
      bounds.minV = Math.min(bounds.minV, p.v);
      bounds.maxV = Math.max(bounds.maxV, p.v);
    }
  }
  return {
    id: unit.id,
    name: unit.name,
    side: unit.side,
    colour: unit.colour,
    selected,
    bases,
    labelAt: { u: sumU / bases.length, v: top },
    bounds,
    unseen: bases.every((b) => !b.seen),
    lastSeenAgoS: Math.min(...unit.bases.map((b) => b.missingMs ?? 0)) / 1000,
    moving: unit.bases.some((b) => b.moving === true),
  };
}

function maxTop(unit: UnitView | undefined): number {
  if (!unit || unit.bases.length === 0) return 0;
  return Math.max(...unit.bases.map((b) => b.topMm));
}

export function buildOverlay(
  state: StateMessage,
  selection: readonly string[],
  options: Partial<OverlayOptions> = {},
): OverlayModel {
  const opts: OverlayOptions = { ...defaultOverlayOptions(), ...options };
  const camera = state.camera;
  const pose = state.pose;
  const base = { imageWidth: camera.imageWidth, imageHeight: camera.imageHeight };
  if (!pose) return { ...base, poseKnown: false, tableOutline: null, units: [], measurement: null };

  const { widthMm, depthMm } = state.table;
  const tableOutline = projectPolygon(
    camera,
    pose,
    [
      { x: 0, y: 0 },
      { x: widthMm, y: 0 },
      { x: widthMm, y: depthMm },
      { x: 0, y: depthMm },
    ],
    0,
    opts.samplesPerEdge * 4,
  );

  const units: UnitOverlay[] = [];
  for (const unit of state.units) {
    const overlay = unitOverlay(camera, pose, unit, selection.includes(unit.id), opts);
    if (overlay) units.push(overlay);
  }

  let measurement: MeasurementOverlay | null = null;
  const m = state.measurement;
  if (m && measurementMatches(m, selection)) {
    const za = maxTop(state.units.find((u) => u.id === m.a));
    const zb = maxTop(state.units.find((u) => u.id === m.b));
    const path = projectPath(camera, pose, { ...m.from, z: za }, { ...m.to, z: zb }, opts.samplesPerLine);
    if (path) {
      const mid = projectTablePoint(camera, pose, {
        x: (m.from.x + m.to.x) / 2,
        y: (m.from.y + m.to.y) / 2,
        z: (za + zb) / 2,
      });
      measurement = {
        a: m.a,
        b: m.b,
        path,
        // Always edge to edge between the nearest bases: a verdict may measure otherwise.
        label: `${PLAIN_DISTANCE_NAME} ${formatDistance(m.distanceIn, m.uncertaintyIn, opts.unit)}`,
        labelAt: mid ?? path[Math.floor(path.length / 2)] ?? { u: 0, v: 0 },
        valid: m.valid,
        distanceIn: m.distanceIn,
        uncertaintyIn: m.uncertaintyIn,
      };
    }
  }

  return { ...base, poseKnown: true, tableOutline, units, measurement };
}

// ---------------------------------------------------------------------------------------------
// Hit-testing

export function pointInPolygon(p: Pixel, polygon: readonly Pixel[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i];
    const b = polygon[j];
    if (!a || !b) continue;
    if (a.v > p.v !== b.v > p.v && p.u < ((b.u - a.u) * (p.v - a.v)) / (b.v - a.v) + a.u) inside = !inside;
  }
  return inside;
}

function distanceToSegment(p: Pixel, a: Pixel, b: Pixel): number {
  const du = b.u - a.u;
  const dv = b.v - a.v;
  const len2 = du * du + dv * dv;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.u - a.u) * du + (p.v - a.v) * dv) / len2));
  return Math.hypot(p.u - (a.u + t * du), p.v - (a.v + t * dv));
}

/** Distance from a point to a closed polygon: 0 inside, else to the nearest edge. */
export function distanceToPolygon(p: Pixel, polygon: readonly Pixel[]): number {
  if (pointInPolygon(p, polygon)) return 0;
  let best = Infinity;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i];
    const b = polygon[j];
    if (a && b) best = Math.min(best, distanceToSegment(p, a, b));
  }
  return best;
}

/**
 * The unit under an image point: a unit whose footprint contains it, else the nearest footprint
 * within `tolerancePx` (image pixels; bigger for fingers than for a mouse), else null.
 */
export function hitTest(model: OverlayModel, p: Pixel, tolerancePx: number): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const unit of model.units) {
    for (const base of unit.bases) {
      const d = distanceToPolygon(p, base.outline);
      if (d <= tolerancePx && d < bestDistance) {
        best = unit.id;
        bestDistance = d;
      }
    }
  }
  return best;
}

/**
 * A point inside the drawn footprint of a unit that hit-tests to that unit: the centre of its
 * base nearest the unit's middle, or any other base centre if that one overlaps another unit.
 */
export function unitInteriorPoint(model: OverlayModel, unitId: string): Pixel | null {
  const unit = model.units.find((u) => u.id === unitId);
  if (!unit) return null;
  const mid = unit.bases.reduce(
    (acc, b) => ({ u: acc.u + b.centre.u / unit.bases.length, v: acc.v + b.centre.v / unit.bases.length }),
    {
      u: 0,
      v: 0,
    },
  );
  const ordered = [...unit.bases].sort(
    (x, y) =>
      Math.hypot(x.centre.u - mid.u, x.centre.v - mid.v) - Math.hypot(y.centre.u - mid.u, y.centre.v - mid.v),
  );
  for (const base of ordered) {
    if (pointInPolygon(base.centre, base.outline) && hitTest(model, base.centre, 0) === unitId)
      return base.centre;
  }
  return null;
}
