import type { CameraProfile } from '../camera/profile.ts';
import { pixelToTablePlane, projectTablePoint, type Pixel } from '../camera/projection.ts';
import type { TablePose, Vec3 } from '../camera/table-pose.ts';
import type { MarkerSpec, Scenario } from '../table/scenario.ts';
import type { Quad } from './candidates.ts';

/**
 * What the scenario and the table pose say a marker must look like, in pixels.
 *
 * The detector works in pixels and knows nothing of tables; this is where the table's knowledge
 * is turned into pixel terms for it: which ids are in play at which printed size and height, how
 * big and how skewed each must look at each place, and where the markers of bases already known
 * should be now. A candidate quad that back-projects to no marker, sticker or base the scenario
 * declares cannot be a marker there and is not read at all.
 */

/** Markers that share a printed size and a height: one decoding book per class. */
export interface MarkerClass {
  readonly sizeMm: number;
  readonly heightMm: number;
  readonly ids: readonly number[];
}

/** How a candidate quad may be explained, and the marker quad to read for it. */
export interface Interpretation {
  /** 'marker': the quad is the tag's black square; 'surround': a white sticker or base top around it. */
  readonly kind: 'marker' | 'surround';
  /** The tag's black square in the image (corners in the candidate's own order). */
  readonly quad: Quad;
  readonly markerClass: MarkerClass;
}

export interface FindingPriorsOptions {
  /** Relative tolerance on a quad's side compared with the printed marker (print scale, perspective, corner noise). */
  readonly sizeTolerance: number;
  /** Largest relative difference between a quad's sides, and between its diagonals, on the table plane. */
  readonly squareTolerance: number;
  /** A surround (sticker or base top) is at most this many times the marker's side. */
  readonly maxSurroundRatio: number;
  /**
   * The square tolerance for a surround: its quad, traced round a light base top through the
   * sensor's noise, is less square than a tag's black border.
   */
  readonly surroundSquareTolerance: number;
}

export const DEFAULT_FINDING_PRIORS: FindingPriorsOptions = {
  sizeTolerance: 0.22,
  squareTolerance: 0.18,
  maxSurroundRatio: 2.2,
  surroundSquareTolerance: 0.25,
};

/** Equal sizes and heights within this many millimetres share a class. */
const CLASS_EPSILON_MM = 0.05;

export class FindingPriors {
  readonly classes: readonly MarkerClass[];
  private readonly specs: ReadonlyMap<number, MarkerSpec>;

  constructor(
    readonly camera: CameraProfile,
    readonly pose: TablePose,
    scenario: Scenario,
    readonly options: FindingPriorsOptions = DEFAULT_FINDING_PRIORS,
  ) {
    const specs = new Map<number, MarkerSpec>();
    for (const u of scenario.units) for (const b of u.bases) specs.set(b.marker.id, b.marker);
    this.specs = specs;
    const classes: Array<{ sizeMm: number; heightMm: number; ids: number[] }> = [];
    for (const spec of specs.values()) {
      let c = classes.find(
        (k) =>
          Math.abs(k.sizeMm - spec.sizeMm) < CLASS_EPSILON_MM &&
          Math.abs(k.heightMm - spec.heightMm) < CLASS_EPSILON_MM,
      );
      if (!c) classes.push((c = { sizeMm: spec.sizeMm, heightMm: spec.heightMm, ids: [] }));
      c.ids.push(spec.id);
    }
    this.classes = classes;
  }

  /** The class (printed size and height) of a declared marker id. */
  classOf(markerId: number): MarkerClass | undefined {
    return this.classes.find((c) => c.ids.includes(markerId));
  }

  /**
   * The ways a candidate quad can be a declared marker (empty: it cannot be one here). A `light`
   * square (found on the negative picture) is never the marker's black square, only a sticker or
   * base top round it, and may be as small as the marker itself: a sticker found on a dim or
   * blurred picture comes out smaller than printed.
   */
  interpret(quad: Quad, light = false): Interpretation[] {
    const out: Interpretation[] = [];
    for (const markerClass of this.classes) {
      const onTable = this.backProject(quad, markerClass.heightMm);
      if (!onTable) continue;
      const shape = squareShape(onTable);
      if (!shape) continue;
      const ratio = shape.side / markerClass.sizeMm;
      const tolerance = this.options.sizeTolerance;
      if (!light && Math.abs(ratio - 1) <= tolerance) {
        if (shape.skew <= this.options.squareTolerance) out.push({ kind: 'marker', quad, markerClass });
      } else if (
        (light ? ratio >= 1 - tolerance : ratio > 1 + tolerance) &&
        ratio <= this.options.maxSurroundRatio &&
        shape.skew <= this.options.surroundSquareTolerance
      ) {
        // A white sticker or base top centred on the tag: the tag is the middle of it, scaled.
        const inner = this.innerSquare(onTable, markerClass.sizeMm / shape.side, markerClass.heightMm);
        if (inner) out.push({ kind: 'surround', quad: inner, markerClass });
      }
    }
    return out;
  }

  /**
   * Whether a quad is, on the table, the square of a marker of this class within `tolerance` (size
   * and skew, relative). Corners fitted to a code are good to a tenth of a pixel, so a fitted quad
   * can be held to a far tighter shape than a found one.
   */
  isMarkerSquare(quad: Quad, markerClass: MarkerClass, tolerance: number): boolean {
    const onTable = this.backProject(quad, markerClass.heightMm);
    const shape = onTable ? squareShape(onTable) : null;
    return !!shape && shape.skew <= tolerance && Math.abs(shape.side / markerClass.sizeMm - 1) <= tolerance;
  }

  /** The image quad of a marker (TL, TR, BR, BL of the tag) when its base stands at a pose. */
  expectedQuad(markerId: number, base: { x: number; y: number; headingDeg: number }): Quad | null {
    const spec = this.specs.get(markerId);
    if (!spec) return null;
    const h = (base.headingDeg * Math.PI) / 180;
    const cos = Math.cos(h);
    const sin = Math.sin(h);
    const mx = base.x + spec.offsetMm.x * cos - spec.offsetMm.y * sin;
    const my = base.y + spec.offsetMm.x * sin + spec.offsetMm.y * cos;
    const a = h + (spec.rotationDeg * Math.PI) / 180;
    // The tag's right and up on the table (heading 0 = up along +y).
    const rx = Math.cos(a);
    const ry = Math.sin(a);
    const ux = -Math.sin(a);
    const uy = Math.cos(a);
    const s = spec.sizeMm / 2;
    const corner = (i: number, j: number): Vec3 => ({
      x: mx + i * s * rx + j * s * ux,
      y: my + i * s * ry + j * s * uy,
      z: spec.heightMm,
    });
    const corners = [corner(-1, 1), corner(1, 1), corner(1, -1), corner(-1, -1)].map((p) =>
      projectTablePoint(this.camera, this.pose, p),
    );
    if (corners.some((c) => c === null)) return null;
    return corners as unknown as Quad;
  }

  /** Side in pixels of the smallest declared marker anywhere on the table (for the detector's size floor). */
  smallestMarkerSidePx(table: { widthMm: number; depthMm: number }): number {
    let smallest = Infinity;
    for (const c of this.classes) {
      for (const [x, y] of [
        [0, 0],
        [table.widthMm, 0],
        [0, table.depthMm],
        [table.widthMm, table.depthMm],
        [table.widthMm / 2, table.depthMm / 2],
      ] as const) {
        const a = projectTablePoint(this.camera, this.pose, { x, y, z: c.heightMm });
        const b = projectTablePoint(this.camera, this.pose, { x: x + c.sizeMm, y, z: c.heightMm });
        const d = projectTablePoint(this.camera, this.pose, { x, y: y + c.sizeMm, z: c.heightMm });
        if (a && b && d)
          smallest = Math.min(smallest, Math.hypot(b.u - a.u, b.v - a.v), Math.hypot(d.u - a.u, d.v - a.v));
      }
    }
    return smallest;
  }

  private backProject(quad: Quad, z: number): [Vec3, Vec3, Vec3, Vec3] | null {
    const out: Vec3[] = [];
    for (const c of quad) {
      const p = pixelToTablePlane(this.camera, this.pose, c, z);
      if (!p) return null;
      out.push(p);
    }
    return out as [Vec3, Vec3, Vec3, Vec3];
  }

  /** The concentric square `scale` times the size of a (near-)square on the table, back in the image. */
  private innerSquare(onTable: readonly Vec3[], scale: number, z: number): Quad | null {
    const cx = (onTable[0]!.x + onTable[1]!.x + onTable[2]!.x + onTable[3]!.x) / 4;
    const cy = (onTable[0]!.y + onTable[1]!.y + onTable[2]!.y + onTable[3]!.y) / 4;
    const out: Pixel[] = [];
    for (const p of onTable) {
      const q = projectTablePoint(this.camera, this.pose, {
        x: cx + (p.x - cx) * scale,
        y: cy + (p.y - cy) * scale,
        z,
      });
      if (!q) return null;
      out.push(q);
    }
    return out as unknown as Quad;
  }
}

/** Mean side of a quad on the table and how far it is from a square (sides and diagonals). */
function squareShape(p: readonly Vec3[]): { side: number; skew: number } | null {
  const sides = [0, 1, 2, 3].map((i) => Math.hypot(p[(i + 1) % 4]!.x - p[i]!.x, p[(i + 1) % 4]!.y - p[i]!.y));
  const side = (sides[0]! + sides[1]! + sides[2]! + sides[3]!) / 4;
  if (!(side > 0)) return null;
  const d1 = Math.hypot(p[2]!.x - p[0]!.x, p[2]!.y - p[0]!.y);
  const d2 = Math.hypot(p[3]!.x - p[1]!.x, p[3]!.y - p[1]!.y);
  const sideSkew = Math.max(...sides.map((s) => Math.abs(s - side))) / side;
  const diagonalSkew = Math.abs(d1 - d2) / ((d1 + d2) / 2);
  return { side, skew: Math.max(sideSkew, diagonalSkew) };
}
