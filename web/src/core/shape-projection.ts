import { projectTablePoint, type Pixel } from '../../../src/camera/projection.ts';
import type { TablePose } from '../../../src/camera/table-pose.ts';
import type { Vec2 } from '../../../src/geometry/vec.ts';
import type { StateMessage } from '../../../src/server/protocol.ts';
import type { TableShape } from './table-overlays.ts';

/**
 * Table shapes into the live picture: each edge is cut into pieces no longer than `stepMm` and
 * every point goes through the camera model (lens distortion included), so a straight range
 * band edge comes out as curved as the cloth under it in the picture.
 */

type Camera = StateMessage['camera'];

export interface ProjectedShape {
  readonly shape: TableShape;
  readonly points: readonly Pixel[];
  readonly labelAt: Pixel | null;
}

export function samplePath(points: readonly Vec2[], closed: boolean, stepMm: number): Vec2[] {
  const out: Vec2[] = [];
  const n = points.length;
  const last = closed ? n : n - 1;
  for (let i = 0; i < last; i++) {
    const p = points[i]!;
    const q = points[(i + 1) % n]!;
    const k = Math.max(1, Math.min(200, Math.ceil(Math.hypot(q.x - p.x, q.y - p.y) / stepMm)));
    for (let j = 0; j < k; j++) out.push({ x: p.x + ((q.x - p.x) * j) / k, y: p.y + ((q.y - p.y) * j) / k });
  }
  if (!closed && n > 0) out.push(points[n - 1]!);
  return out;
}

export function projectShape(
  camera: Camera,
  pose: TablePose,
  shape: TableShape,
  stepMm = 15,
): ProjectedShape | null {
  const pts: Pixel[] = [];
  for (const p of samplePath(shape.points, shape.closed, stepMm)) {
    const px = projectTablePoint(camera, pose, { x: p.x, y: p.y, z: shape.z });
    if (!px) return null;
    pts.push(px);
  }
  const labelAt = shape.labelAt ? projectTablePoint(camera, pose, { ...shape.labelAt, z: shape.z }) : null;
  return { shape, points: pts, labelAt };
}

export function projectShapes(
  camera: Camera,
  pose: TablePose,
  shapes: readonly TableShape[],
): ProjectedShape[] {
  return shapes.flatMap((s) => projectShape(camera, pose, s) ?? []);
}
