import {
  solveTablePose,
  reprojectionErrors,
  type Correspondence,
  type PoseFit,
} from '../camera/pose-estimation.ts';
import { poseShiftPx } from '../camera/pose-change.ts';
import type { CameraProfile } from '../camera/profile.ts';
import { pixelToTablePlane, type Pixel } from '../camera/projection.ts';
import type { TablePose, Vec3 } from '../camera/table-pose.ts';
import { radToDeg, wrapDegrees, degToRad } from '../geometry/angle.ts';
import { rotate } from '../geometry/vec.ts';
import type { MarkerSpec, ReferenceMarkerSpec, Scenario } from '../table/scenario.ts';
import type { DetectedMarker } from './detector.ts';
import { loadOpenCV, type OpenCV } from './opencv.ts';

/** A base's pose on the table as measured from its marker, with one-sigma uncertainties. */
export interface BasePose {
  readonly markerId: number;
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
  readonly sigmaMm: number;
  readonly sigmaHeadingDeg: number;
}

/**
 * `stable`: the pose agrees with the previous frame's, measurements are valid.
 * `settling`: the camera moved (bumped, or first frames): the pose is fresh but not yet
 * confirmed by a second frame, so measurements are shown but marked not valid.
 */
export type PoseStatus = 'stable' | 'settling';

export interface TablePoseState {
  readonly pose: TablePose;
  readonly rmsPx: number;
  readonly referenceIds: readonly number[];
  /** Reference markers seen but left out because they disagreed with the others. */
  readonly rejectedIds: readonly number[];
  readonly status: PoseStatus;
  /** How far the table moved in the image since the previous pose, px (null on the first pose). */
  readonly shiftPx: number | null;
}

export interface LocatorResult {
  /** Null when fewer than three consistent reference markers were seen: nothing is measured. */
  readonly table: TablePoseState | null;
  readonly bases: readonly BasePose[];
  /** Marker ids seen that the scenario does not know (reported, not guessed at). */
  readonly unknownIds: readonly number[];
}

export interface LocatorOptions {
  /** A reference marker whose corners reproject worse than this (px) is dropped as misread or moved. */
  readonly maxReferenceErrorPx: number;
  /** Floor on the assumed corner noise (px), so a lucky perfect fit does not claim perfection. */
  readonly minCornerSigmaPx: number;
  /**
   * A table that shifts by more than this in the image between frames means the camera moved.
   * Frame-to-frame jitter from sensor noise is ~0.02 px on the synthetic table; a knock is pixels.
   */
  readonly cameraMovedPx: number;
  /** Consecutive agreeing frames needed before a new pose counts as stable. */
  readonly framesToSettle: number;
}

export const DEFAULT_LOCATOR_OPTIONS: LocatorOptions = {
  maxReferenceErrorPx: 3,
  minCornerSigmaPx: 0.1,
  cameraMovedPx: 0.5,
  framesToSettle: 2,
};

/** Table position of a reference marker's corners, in OpenCV's TL, TR, BR, BL order (tag top toward table +y). */
function referenceCorners(m: ReferenceMarkerSpec): Vec3[] {
  const h = m.sizeMm / 2;
  return [
    { x: m.x - h, y: m.y + h, z: m.heightMm },
    { x: m.x + h, y: m.y + h, z: m.heightMm },
    { x: m.x + h, y: m.y - h, z: m.heightMm },
    { x: m.x - h, y: m.y - h, z: m.heightMm },
  ];
}

/** Heading (degrees, CCW, 0 = +y) of a direction vector on the table. */
const headingOf = (dx: number, dy: number): number => radToDeg(Math.atan2(-dx, dy));

/**
 * Turns detected markers into table coordinates: solves the table pose from the reference
 * markers, then back-projects each base marker's corners onto the plane at that marker's height
 * (so a marker 3 mm up a base is not mistaken for one further from the camera).
 */
export class Locator {
  private lastPose: TablePose | undefined;
  /** Consecutive frames whose pose agreed with the one before. */
  private agreeingFrames = 0;
  private readonly table: Scenario['table'];
  private readonly references: Map<number, ReferenceMarkerSpec>;
  private readonly markers: Map<number, MarkerSpec>;

  private constructor(
    private readonly cv: OpenCV,
    readonly camera: CameraProfile,
    scenario: Scenario,
    readonly options: LocatorOptions,
  ) {
    this.table = scenario.table;
    this.references = new Map(scenario.referenceMarkers.map((m) => [m.id, m]));
    this.markers = new Map(
      scenario.units.flatMap((u) => u.bases.map((b) => [b.marker.id, b.marker] as const)),
    );
  }

  static async create(
    camera: CameraProfile,
    scenario: Scenario,
    options: Partial<LocatorOptions> = {},
  ): Promise<Locator> {
    return new Locator(await loadOpenCV(), camera, scenario, { ...DEFAULT_LOCATOR_OPTIONS, ...options });
  }

  locate(detections: readonly DetectedMarker[]): LocatorResult {
    return this.locateWithPose(this.estimateTablePose(detections), detections);
  }

  /**
   * Measures the bases with a table pose already estimated from this frame's reference markers
   * (the pipeline estimates it first, so the detector can search with it).
   */
  locateWithPose(table: TablePoseState | null, detections: readonly DetectedMarker[]): LocatorResult {
    const unknownIds = detections
      .filter((d) => !this.references.has(d.id) && !this.markers.has(d.id))
      .map((d) => d.id);
    if (!table) return { table: null, bases: [], unknownIds };
    // Corner noise as evidenced this frame (the table fit) and by the lens calibration's own
    // residual: a poorly calibrated lens cannot measure better than it was calibrated.
    const cornerSigmaPx = Math.max(table.rmsPx, this.camera.rmsPx ?? 0, this.options.minCornerSigmaPx);
    const bases: BasePose[] = [];
    for (const d of detections) {
      const spec = this.markers.get(d.id);
      if (!spec) continue;
      const pose = this.locateBase(table.pose, d, spec, cornerSigmaPx);
      if (pose) bases.push(pose);
    }
    return { table, bases, unknownIds };
  }

  /** The table pose from the reference markers among the detections (updates the pose history). */
  estimateTablePose(detections: readonly DetectedMarker[]): TablePoseState | null {
    const groups: ReferenceGroup[] = detections
      .filter((d) => this.references.has(d.id))
      .map((d) => ({
        id: d.id,
        points: referenceCorners(this.references.get(d.id)!).map((table, i): Correspondence => ({
          table,
          image: d.corners[i]!,
        })),
      }));
    const limit = this.options.maxReferenceErrorPx;
    let found: { used: ReferenceGroup[]; fit: PoseFit } | null = null;
    if (groups.length >= 3) {
      // The usual frame: every reference marker agrees, one fit.
      const fit = this.fit(groups.flatMap((g) => g.points));
      found =
        worstError(this.camera, fit.pose, groups) <= limit ? { used: groups, fit } : this.consensus(groups);
    }
    if (found) {
      const { fit, used } = found;
      // By sighting, not by id: a misread can repeat the id of a marker also seen where it belongs.
      const usedGroups = new Set(used);
      const rejectedIds = groups.filter((g) => !usedGroups.has(g)).map((g) => g.id);
      const shiftPx = this.lastPose ? poseShiftPx(this.camera, this.table, this.lastPose, fit.pose) : null;
      this.agreeingFrames =
        shiftPx !== null && shiftPx <= this.options.cameraMovedPx ? this.agreeingFrames + 1 : 0;
      this.lastPose = fit.pose;
      const status: PoseStatus =
        this.agreeingFrames >= this.options.framesToSettle - 1 ? 'stable' : 'settling';
      return {
        pose: fit.pose,
        rmsPx: fit.rmsPx,
        referenceIds: used.map((g) => g.id),
        rejectedIds,
        status,
        shiftPx,
      };
    }
    // No pose this frame: the next one must re-earn stability.
    this.agreeingFrames = 0;
    return null;
  }

  /**
   * Some reference markers disagree (misread, knocked, hidden in part, or wrong in the scenario).
   * A least-squares fit is dragged toward a bad marker, so its residuals do not say which one is
   * bad; instead, a consensus over markers (MSAC): poses from three markers at a time — every
   * triple when there are few, otherwise triples drawn by a fixed-seed generator, as many as an
   * adaptive stopping rule asks (99.9 % confidence of one all-good triple) — plus the previous
   * frame's pose, each scored by how well every marker agrees with it. The best is refitted on
   * the markers that agree, and the agreeing set recomputed, until it settles. Cost: a few small
   * fits per frame, not one full fit per marker per rejected marker.
   */
  private consensus(groups: readonly ReferenceGroup[]): { used: ReferenceGroup[]; fit: PoseFit } | null {
    const limit = this.options.maxReferenceErrorPx;
    const n = groups.length;
    let best: { cost: number; inliers: ReferenceGroup[] } | null = null;
    const consider = (pose: TablePose): void => {
      let cost = 0;
      const inliers: ReferenceGroup[] = [];
      for (const g of groups) {
        const e = groupError(this.camera, pose, g);
        cost += Math.min(e * e, limit * limit);
        if (e <= limit) inliers.push(g);
      }
      if (!best || cost < best.cost) best = { cost, inliers };
    };
    if (this.lastPose) consider(this.lastPose);

    const centres = groups.map((g) => centreOf(g));
    const spread = triangleScale(centres);
    const triples = n <= 8 ? allTriples(n) : null;
    const random = mulberry32(0x5eed ^ n);
    const maxDraws = triples ? triples.length : 400;
    let fits = 0;
    for (let draw = 0; draw < maxDraws; draw++) {
      const inlierShare = best ? (best as { inliers: ReferenceGroup[] }).inliers.length / n : 0;
      if (fits >= Math.min(MAX_CONSENSUS_FITS, triplesNeeded(inlierShare))) break;
      const t = triples ? triples[draw]! : randomTriple(n, random);
      // Three markers nearly in a line (or bunched together) fix the pose poorly: skip them.
      if (Math.abs(triangleArea(centres[t[0]]!, centres[t[1]]!, centres[t[2]]!)) < 0.02 * spread) continue;
      fits++;
      consider(
        solveTablePose(
          this.cv,
          this.camera,
          [...t].flatMap((i) => groups[i]!.points),
        ).pose,
      );
    }
    if (!best) return null;
    let inliers = (best as { inliers: ReferenceGroup[] }).inliers;
    for (let round = 0; round < 6 && inliers.length >= 3; round++) {
      const fit = this.fit(inliers.flatMap((g) => g.points));
      const agreeing = groups.filter((g) => groupError(this.camera, fit.pose, g) <= limit);
      if (agreeing.length === inliers.length && agreeing.every((g, i) => g === inliers[i]))
        return agreeing.length >= 3 ? { used: agreeing, fit } : null;
      inliers = agreeing;
    }
    return null;
  }

  private fit(points: Correspondence[]): PoseFit {
    // A previous pose seeds the solve; if the camera moved, the unseeded solve is the fallback.
    if (this.lastPose) {
      const seeded = solveTablePose(this.cv, this.camera, points, this.lastPose);
      if (seeded.rmsPx <= this.options.maxReferenceErrorPx) return seeded;
    }
    return solveTablePose(this.cv, this.camera, points);
  }

  private locateBase(
    pose: TablePose,
    d: DetectedMarker,
    spec: MarkerSpec,
    cornerSigmaPx: number,
  ): BasePose | null {
    const onPlane = d.corners.map((c) => pixelToTablePlane(this.camera, pose, c, spec.heightMm));
    if (onPlane.some((p) => p === null)) return null;
    const [tl, tr, br, bl] = onPlane as [Vec3, Vec3, Vec3, Vec3];
    const cx = (tl.x + tr.x + br.x + bl.x) / 4;
    const cy = (tl.y + tr.y + br.y + bl.y) / 4;
    // The tag's "up" from both side edges plus both top/bottom edges turned a quarter, averaged.
    const upX = tl.x - bl.x + (tr.x - br.x) - (tr.y - tl.y) - (br.y - bl.y);
    const upY = tl.y - bl.y + (tr.y - br.y) + (tr.x - tl.x) + (br.x - bl.x);
    const markerHeading = headingOf(upX, upY);
    const headingDeg = wrapDegrees(markerHeading - spec.rotationDeg);
    const offset = rotate(spec.offsetMm, degToRad(headingDeg));
    const mmPerPx = this.mmPerPixel(pose, d.corners, spec.heightMm);
    const sidePx = perimeterPx(d.corners) / 4;
    // Two parts, in quadrature: the table pose's, and the tag's own. Both are taken as corners
    // ~cornerSigma off; a tag measured as a square on the table knows its own part better (its
    // fit's covariance, table-fit.ts), and a small or poorly modelled tag's is the larger.
    const poseMm = (mmPerPx * cornerSigmaPx) / 2;
    const poseRad = cornerSigmaPx / (2 * sidePx);
    const ownMm = Math.max(poseMm, d.fitSigma?.mm ?? 0);
    const ownRad = Math.max(poseRad, degToRad(d.fitSigma?.headingDeg ?? 0));
    return {
      markerId: d.id,
      x: cx - offset.x,
      y: cy - offset.y,
      headingDeg,
      sigmaMm: Math.hypot(poseMm, ownMm),
      sigmaHeadingDeg: radToDeg(Math.hypot(poseRad, ownRad)),
    };
  }

  /** Local scale at a marker: millimetres on the marker plane per image pixel. */
  private mmPerPixel(pose: TablePose, corners: readonly Pixel[], z: number): number {
    const u = corners.reduce((s, c) => s + c.u, 0) / 4;
    const v = corners.reduce((s, c) => s + c.v, 0) / 4;
    const a = pixelToTablePlane(this.camera, pose, { u, v }, z);
    const b = pixelToTablePlane(this.camera, pose, { u: u + 1, v }, z);
    const c = pixelToTablePlane(this.camera, pose, { u, v: v + 1 }, z);
    if (!a || !b || !c) return 1;
    return (Math.hypot(b.x - a.x, b.y - a.y) + Math.hypot(c.x - a.x, c.y - a.y)) / 2;
  }
}

function perimeterPx(c: readonly Pixel[]): number {
  let sum = 0;
  for (let i = 0; i < c.length; i++) {
    const a = c[i]!;
    const b = c[(i + 1) % c.length]!;
    sum += Math.hypot(b.u - a.u, b.v - a.v);
  }
  return sum;
}

interface ReferenceGroup {
  readonly id: number;
  readonly points: readonly Correspondence[];
}

/** At most this many three-marker fits in one frame's consensus. */
const MAX_CONSENSUS_FITS = 60;

/** A marker's disagreement with a pose: its worst corner's reprojection error, px. */
function groupError(camera: CameraProfile, pose: TablePose, g: ReferenceGroup): number {
  return Math.max(...reprojectionErrors(camera, pose, g.points));
}

function worstError(camera: CameraProfile, pose: TablePose, groups: readonly ReferenceGroup[]): number {
  return Math.max(...groups.map((g) => groupError(camera, pose, g)));
}

function centreOf(g: ReferenceGroup): { x: number; y: number } {
  const n = g.points.length;
  return {
    x: g.points.reduce((s, p) => s + p.table.x, 0) / n,
    y: g.points.reduce((s, p) => s + p.table.y, 0) / n,
  };
}

function triangleArea(
  a: { x: number; y: number },
  b: { x: number; y: number },
  c: { x: number; y: number },
): number {
  return ((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2;
}

/** Area of the markers' bounding box, the yardstick for a "thin" triangle of markers. */
function triangleScale(ps: ReadonlyArray<{ x: number; y: number }>): number {
  const xs = ps.map((p) => p.x);
  const ys = ps.map((p) => p.y);
  return (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
}

/**
 * Three-marker samples needed for 99.9 % confidence that one had no bad marker, given the share
 * of markers agreeing with the best pose so far (the standard RANSAC stopping rule).
 */
function triplesNeeded(inlierShare: number): number {
  const good = inlierShare ** 3;
  if (good >= 1) return 1;
  if (good <= 0) return Infinity;
  return Math.ceil(Math.log(1 - 0.999) / Math.log(1 - good));
}

function allTriples(n: number): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++) for (let c = b + 1; c < n; c++) out.push([a, b, c]);
  return out;
}

function randomTriple(n: number, random: () => number): [number, number, number] {
  const a = Math.floor(random() * n);
  let b = Math.floor(random() * (n - 1));
  if (b >= a) b++;
  let c = Math.floor(random() * (n - 2));
  for (const k of [a, b].sort((x, y) => x - y)) if (c >= k) c++;
  return [a, b, c];
}

/** A small fixed-seed generator, so the same detections always give the same pose. */
function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
