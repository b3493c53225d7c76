import type { CameraProfile } from '../camera/profile.ts';
import type { TablePose, Vec3 } from '../camera/table-pose.ts';
import { projectPoint, syntheticCameraProfile, truePose, type SynthCamera } from './camera.ts';
import type { SceneLighting } from './lighting.ts';
import type { SceneMarker, SynthScene } from './scene.ts';
import {
  clutterTruth,
  sceneConditions,
  type ClutterTruth,
  type MarkerConditions,
} from './truth-conditions.ts';

/**
 * Ground truth of a rendered frame: where everything really is, in table millimetres and in
 * (distorted) image pixels, computed with the synthetic camera's own projection.
 */

export interface PixelPoint {
  readonly u: number;
  readonly v: number;
}
export interface TablePoint {
  readonly x: number;
  readonly y: number;
}
export type Quad<T> = readonly [T, T, T, T];

export interface MarkerTruth {
  readonly markerId: number;
  /** Centre of the marker, table mm, z = its surface height. */
  readonly centreMm: Vec3;
  /** Corners in OpenCV's order: top-left, top-right, bottom-right, bottom-left of the marker image. */
  readonly cornersMm: Quad<Vec3>;
  readonly cornersPx: Quad<PixelPoint>;
  /** All four corners fall inside the image (occlusion is `hiddenFraction`). */
  readonly inView: boolean;
  /** Share of the black square hidden from the camera by clutter, hands or other bases (0–1). */
  readonly hiddenFraction: number;
  /** Strongest glare on the marker: grey levels added to its white paper (0 = none). */
  readonly glareLevel: number;
  /** Light left by cast shadows at the marker's centre (1 = none). */
  readonly shadowFactor: number;
  /** Printed size / declared size (1 unless print defects were asked for). */
  readonly printScale: number;
}

export interface BaseTruth {
  readonly unitId: string;
  readonly baseIndex: number;
  readonly side: string;
  readonly markerId: number;
  readonly centreMm: TablePoint;
  readonly headingDeg: number;
  readonly widthMm: number;
  readonly depthMm: number;
  /** Footprint corners on the table, counter-clockwise: rear-left, rear-right, front-right, front-left. */
  readonly footprintMm: Quad<TablePoint>;
  readonly marker: MarkerTruth;
  /** The base top's corners (same order as the footprint) in pixels. */
  readonly topCornersPx: Quad<PixelPoint>;
}

export interface SceneTruth {
  readonly camera: CameraProfile;
  readonly pose: TablePose;
  readonly table: { readonly widthMm: number; readonly depthMm: number };
  readonly bases: readonly BaseTruth[];
  readonly references: readonly MarkerTruth[];
  /** Every piece of clutter, in the order given: where its picture is and which markers it hides. */
  readonly clutter: readonly ClutterTruth[];
  /** Glare spots and cast shadows on the table (empty lists: none). */
  readonly lighting: SceneLighting;
}

function px(cam: SynthCamera, p: Vec3): PixelPoint {
  return projectPoint(cam, p) ?? { u: Number.NaN, v: Number.NaN };
}

const PLAIN: MarkerConditions = { hiddenFraction: 0, glareLevel: 0, shadowFactor: 1 };

export function markerTruth(cam: SynthCamera, m: SceneMarker, conditions = PLAIN): MarkerTruth {
  const h = m.sizeMm / 2;
  const [rx, ry] = m.right;
  const [ux, uy] = m.up;
  const corner = (a: number, b: number): Vec3 => ({
    x: m.x + a * rx + b * ux,
    y: m.y + a * ry + b * uy,
    z: m.z,
  });
  const cornersMm = [corner(-h, h), corner(h, h), corner(h, -h), corner(-h, -h)] as const;
  const cornersPx = [
    px(cam, cornersMm[0]),
    px(cam, cornersMm[1]),
    px(cam, cornersMm[2]),
    px(cam, cornersMm[3]),
  ] as const;
  const inView = cornersPx.every(
    (p) => p.u >= -0.5 && p.v >= -0.5 && p.u <= cam.width - 0.5 && p.v <= cam.height - 0.5,
  );
  return {
    markerId: m.id,
    centreMm: { x: m.x, y: m.y, z: m.z },
    cornersMm,
    cornersPx,
    inView,
    ...conditions,
    printScale: m.print?.scale ?? 1,
  };
}

export function sceneTruth(cam: SynthCamera, scene: SynthScene): SceneTruth {
  const conditions = sceneConditions(cam, scene);
  const bases = scene.bases.map((b, i): BaseTruth => {
    const at = (lx: number, ly: number): TablePoint => ({
      x: b.x + lx * b.cos - ly * b.sin,
      y: b.y + lx * b.sin + ly * b.cos,
    });
    const w = b.halfWidth;
    const d = b.halfDepth;
    const footprintMm = [at(-w, -d), at(w, -d), at(w, d), at(-w, d)] as const;
    const top = (p: TablePoint) => px(cam, { x: p.x, y: p.y, z: b.topMm });
    return {
      unitId: b.unitId,
      baseIndex: b.baseIndex,
      side: b.side,
      markerId: b.marker.id,
      centreMm: { x: b.x, y: b.y },
      headingDeg: b.headingDeg,
      widthMm: 2 * w,
      depthMm: 2 * d,
      footprintMm,
      marker: markerTruth(cam, b.marker, conditions.bases[i]),
      topCornersPx: [top(footprintMm[0]), top(footprintMm[1]), top(footprintMm[2]), top(footprintMm[3])],
    };
  });
  return {
    camera: syntheticCameraProfile(cam),
    pose: truePose(cam),
    table: scene.table,
    bases,
    references: scene.references.map((m, i) => markerTruth(cam, m, conditions.references[i])),
    clutter: clutterTruth(cam, scene, conditions.covers),
    lighting: scene.lighting ?? { glare: [], shadows: [] },
  };
}
