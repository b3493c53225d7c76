import type { CameraProfile } from '../camera/profile.ts';
import { distanceBetween, measuredUnits, type UnitDistance } from '../table/measured-units.ts';
import type { Scenario } from '../table/scenario.ts';
import type { FindingStage } from '../vision/candidates.ts';
import type { RasterImage } from '../vision/image.ts';
import { VisionPipeline } from '../vision/pipeline.ts';

/**
 * What `vedette measure --json` and `vedette detect --json` print: a public contract, documented
 * in docs/cli-json.md. Change it only by adding fields, or with a new `format` version.
 */
export const MEASURE_FORMAT = 'vedette.measure/1';
export const DETECT_FORMAT = 'vedette.detect/1';

const MM_PER_IN = 25.4;

export interface DetectionReport {
  readonly id: number;
  /** Reference marker, a declared base's marker, an id the scenario does not know; null without a scenario. */
  readonly role: 'reference' | 'base' | 'unknown' | null;
  /** TL, TR, BR, BL of the tag, image pixels (origin at the top-left pixel's centre). */
  readonly corners: ReadonlyArray<readonly [number, number]>;
  readonly stage: FindingStage | null;
  /** Log-likelihood ratio of the id over its best rival (nats); null when OpenCV read the exact code. */
  readonly evidence: number | null;
}

export interface BaseReport {
  readonly markerId: number;
  readonly unitId: string;
  readonly unitName: string;
  /** Index of the base within its unit (0-based, scenario order). */
  readonly baseIndex: number;
  readonly xMm: number;
  readonly yMm: number;
  readonly xIn: number;
  readonly yIn: number;
  /** Degrees, counter-clockwise, 0 = facing table +y. */
  readonly headingDeg: number;
  readonly sigmaMm: number;
  readonly sigmaIn: number;
  readonly sigmaHeadingDeg: number;
  readonly stage: FindingStage | null;
}

export interface ReferenceReport {
  readonly id: number;
  /** Used for the table pose (false: seen but disagreeing with the others). */
  readonly used: boolean;
  readonly stage: FindingStage | null;
}

export interface ImageReport {
  readonly image: string;
  readonly width: number;
  readonly height: number;
  readonly table: { readonly found: boolean; readonly rmsPx: number | null };
  readonly references: readonly ReferenceReport[];
  readonly bases: readonly BaseReport[];
  readonly unknownIds: readonly number[];
  /** Units none of whose bases was found. */
  readonly unitsMissing: readonly string[];
  readonly distances: readonly UnitDistance[];
  readonly detections: readonly DetectionReport[];
}

/** Runs the live pipeline once on a still image: every marker found, every base measured, every distance. */
export async function reportImage(
  imagePath: string,
  image: RasterImage,
  scenario: Scenario,
  camera: CameraProfile,
): Promise<ImageReport> {
  const pipeline = await VisionPipeline.create(camera, scenario);
  try {
    const result = pipeline.process({ image, capturedAt: 0, sequence: 0 });
    const references = new Set(scenario.referenceMarkers.map((m) => m.id));
    const owners = new Map<number, { unitId: string; unitName: string; baseIndex: number }>();
    for (const u of scenario.units)
      u.bases.forEach((b, i) => owners.set(b.marker.id, { unitId: u.id, unitName: u.name, baseIndex: i }));
    const stageOf = new Map(result.detections.map((d) => [d.id, d.stage ?? null]));
    const units = measuredUnits(scenario, result.bases);
    const distances: UnitDistance[] = [];
    for (let i = 0; i < units.length; i++)
      for (let j = i + 1; j < units.length; j++) {
        const d = distanceBetween(units, units[i]!.unit.id, units[j]!.unit.id);
        if (d) distances.push(d);
      }
    const table = result.located.table;
    return {
      image: imagePath,
      width: image.width,
      height: image.height,
      table: { found: table !== null, rmsPx: table?.rmsPx ?? null },
      references: result.detections
        .filter((d) => references.has(d.id))
        .map((d) => ({
          id: d.id,
          used: table?.referenceIds.includes(d.id) ?? false,
          stage: d.stage ?? null,
        })),
      bases: [...result.located.bases]
        .sort((a, b) => a.markerId - b.markerId)
        .flatMap((b) => {
          const owner = owners.get(b.markerId);
          if (!owner) return [];
          return [
            {
              markerId: b.markerId,
              ...owner,
              xMm: b.x,
              yMm: b.y,
              xIn: b.x / MM_PER_IN,
              yIn: b.y / MM_PER_IN,
              headingDeg: b.headingDeg,
              sigmaMm: b.sigmaMm,
              sigmaIn: b.sigmaMm / MM_PER_IN,
              sigmaHeadingDeg: b.sigmaHeadingDeg,
              stage: stageOf.get(b.markerId) ?? null,
            },
          ];
        }),
      unknownIds: result.located.unknownIds,
      unitsMissing: units.filter((u) => u.bases.length === 0).map((u) => u.unit.name),
      distances,
      detections: result.detections.map((d) => ({
        id: d.id,
        role: references.has(d.id) ? 'reference' : owners.has(d.id) ? 'base' : 'unknown',
        corners: d.corners.map((c) => [c.u, c.v] as const),
        stage: d.stage ?? null,
        evidence: d.evidence === undefined || !Number.isFinite(d.evidence) ? null : d.evidence,
      })),
    };
  } finally {
    pipeline.dispose();
  }
}
