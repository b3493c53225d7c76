import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadCameraProfile } from '../camera/profile.ts';
import { distanceBetween, measuredUnits, type UnitDistance } from '../table/measured-units.ts';
import { parseScenarioText } from '../table/scenario.ts';
import { readImageFile } from '../vision/sources/image-files.ts';
import { VisionPipeline } from '../vision/pipeline.ts';

export const DEFAULT_CAMERA_PROFILE = 'calibration/synthetic-1080p.json';

export interface ImageMeasurement {
  readonly tablePoseFound: boolean;
  readonly referenceRmsPx: number | null;
  readonly markersFound: number;
  readonly unknownIds: readonly number[];
  readonly unitsMissing: readonly string[];
  readonly distances: readonly UnitDistance[];
}

/** Runs the live pipeline once on a still image and measures every pair of units. */
export async function measureImage(
  imagePath: string,
  scenarioPath: string,
  cameraPath: string,
): Promise<ImageMeasurement> {
  const scenario = parseScenarioText(readFileSync(scenarioPath, 'utf8'), scenarioPath);
  const camera = loadCameraProfile(cameraPath);
  const image = await readImageFile(imagePath);
  const pipeline = await VisionPipeline.create(camera, scenario);
  try {
    const result = pipeline.process({ image, capturedAt: Date.now(), sequence: 0 });
    const units = measuredUnits(scenario, result.bases);
    const distances: UnitDistance[] = [];
    for (let i = 0; i < units.length; i++) {
      for (let j = i + 1; j < units.length; j++) {
        const d = distanceBetween(units, units[i]!.unit.id, units[j]!.unit.id);
        if (d) distances.push(d);
      }
    }
    return {
      tablePoseFound: result.located.table !== null,
      referenceRmsPx: result.located.table?.rmsPx ?? null,
      markersFound: result.detections.length,
      unknownIds: result.located.unknownIds,
      unitsMissing: units.filter((u) => u.bases.length === 0).map((u) => u.unit.name),
      distances,
    };
  } finally {
    pipeline.dispose();
  }
}

export function formatMeasurement(m: ImageMeasurement, names: Map<string, string>): string {
  const lines: string[] = [];
  if (!m.tablePoseFound) {
    lines.push('Table pose NOT found: fewer than three reference markers agree. Nothing was measured.');
    return lines.join('\n');
  }
  lines.push(
    `markers found: ${m.markersFound}; table pose reprojection RMS ${m.referenceRmsPx!.toFixed(3)} px`,
  );
  if (m.unknownIds.length) lines.push(`unknown marker ids (not in the scenario): ${m.unknownIds.join(', ')}`);
  if (m.unitsMissing.length) lines.push(`units not seen: ${m.unitsMissing.join(', ')}`);
  for (const d of m.distances) {
    lines.push(
      `${names.get(d.a)} ↔ ${names.get(d.b)}: ${d.distanceIn.toFixed(2)} in ± ${d.uncertaintyIn.toFixed(2)}`,
    );
  }
  return lines.join('\n');
}

export function registerMeasureCommand(program: Command): void {
  program
    .command('measure')
    .description('measure the distance between every pair of units in one camera image')
    .argument('<image>', 'PNG or JPEG taken by the camera the profile describes')
    .requiredOption('--scenario <file>', 'scenario file binding markers to units')
    .option('--camera <profile>', 'camera profile JSON', DEFAULT_CAMERA_PROFILE)
    .option('--json', 'print JSON instead of text')
    .action(async (image: string, opts: { scenario: string; camera: string; json?: boolean }) => {
      const m = await measureImage(image, opts.scenario, opts.camera);
      if (opts.json) console.log(JSON.stringify(m, null, 2));
      else {
        const scenario = parseScenarioText(readFileSync(opts.scenario, 'utf8'), opts.scenario);
        console.log(formatMeasurement(m, new Map(scenario.units.map((u) => [u.id, u.name]))));
      }
      if (!m.tablePoseFound) process.exitCode = 3;
    });
}
