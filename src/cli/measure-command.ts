import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { loadCameraProfile } from '../camera/profile.ts';
import type { UnitDistance } from '../table/measured-units.ts';
import { parseScenarioText } from '../table/scenario.ts';
import { readImageFile } from '../vision/sources/image-files.ts';
import { CliError, requireFile } from './failure.ts';
import { MEASURE_FORMAT, reportImage, type ImageReport } from './image-report.ts';

export const DEFAULT_CAMERA_PROFILE = 'calibration/synthetic-1080p.json';

/** The default camera profile from the working folder, else the one Vedette ships (run from anywhere). */
export function defaultCameraProfile(): string {
  if (existsSync(DEFAULT_CAMERA_PROFILE)) return DEFAULT_CAMERA_PROFILE;
  return fileURLToPath(new URL(`../../${DEFAULT_CAMERA_PROFILE}`, import.meta.url));
}

/** One image's measurement as `measure --json` prints it (docs/cli-json.md). */
export type ImageMeasurement = Omit<ImageReport, 'detections'>;

export interface MeasureOutput {
  readonly format: typeof MEASURE_FORMAT;
  readonly images: readonly ImageMeasurement[];
}

/** Runs the live pipeline once on each still image (each on its own) and measures every pair of units. */
export async function measureImages(
  imagePaths: readonly string[],
  scenarioPath: string,
  cameraPath: string,
): Promise<MeasureOutput> {
  const scenario = parseScenarioText(readFileSync(scenarioPath, 'utf8'), scenarioPath);
  const camera = loadCameraProfile(cameraPath);
  const images: ImageMeasurement[] = [];
  for (const path of imagePaths) {
    const { detections: _detections, ...measured } = await reportImage(
      path,
      await readImageFile(path),
      scenario,
      camera,
    );
    images.push(measured);
  }
  return { format: MEASURE_FORMAT, images };
}

export function formatMeasurement(
  m: ImageMeasurement,
  names: Map<string, string>,
  referenceIds: readonly number[] = [],
): string {
  const lines: string[] = [`${m.image} (${m.width} × ${m.height})`];
  if (!m.table.found) {
    const seen = [...new Set(m.references.map((r) => r.id))].sort((a, b) => a - b);
    const missing = referenceIds.filter((id) => !seen.includes(id));
    lines.push(
      `Table pose not found: ${seen.length} of ${referenceIds.length || '?'} reference markers seen` +
        `${seen.length ? ` (${seen.join(', ')})` : ''}${missing.length ? `, not ${missing.join(', ')}` : ''}, and three that agree are needed. ` +
        'Nothing was measured: bring the table corners into the picture, light them evenly, and check --scenario is this table.',
    );
    return lines.join('\n');
  }
  const used = m.references.filter((r) => r.used).length;
  lines.push(
    `table pose from ${used} reference marker${used === 1 ? '' : 's'}, reprojection RMS ${m.table.rmsPx!.toFixed(3)} px; ${m.bases.length} bases found`,
  );
  for (const b of m.bases)
    lines.push(
      `  ${b.unitName} base ${b.baseIndex + 1} (marker ${b.markerId}): ${b.xIn.toFixed(2)}, ${b.yIn.toFixed(2)} in, heading ${b.headingDeg.toFixed(1)}° ± ${b.sigmaHeadingDeg.toFixed(1)}°, ± ${b.sigmaIn.toFixed(3)} in${b.stage ? ` [${b.stage}]` : ''}`,
    );
  if (m.unknownIds.length) lines.push(`unknown marker ids (not in the scenario): ${m.unknownIds.join(', ')}`);
  if (m.unitsMissing.length) lines.push(`units not seen: ${m.unitsMissing.join(', ')}`);
  for (const d of m.distances as UnitDistance[])
    lines.push(
      `${names.get(d.a)} ↔ ${names.get(d.b)}: ${d.distanceIn.toFixed(2)} in ± ${d.uncertaintyIn.toFixed(2)}`,
    );
  return lines.join('\n');
}

export function registerMeasureCommand(program: Command): void {
  program
    .command('measure')
    .description('measure every base and the distance between every pair of units in camera images')
    .argument(
      '<images...>',
      'PNG or JPEG images taken by the camera the profile describes (each measured on its own)',
    )
    .requiredOption('--scenario <file>', 'scenario file binding markers to units')
    .option('--camera <profile>', `camera profile JSON (default ${DEFAULT_CAMERA_PROFILE})`)
    .option('--json', 'print JSON (format vedette.measure/1, docs/cli-json.md) instead of text')
    .action(async (imagePaths: string[], opts: { scenario: string; camera?: string; json?: boolean }) => {
      // What the user named first: the images, then the scenario, then the camera.
      for (const path of imagePaths) requireFile(path, 'image');
      requireFile(opts.scenario, '--scenario: scenario file');
      const camera = opts.camera
        ? requireFile(opts.camera, '--camera: camera profile')
        : defaultCameraProfile();
      const out = await measureImages(imagePaths, opts.scenario, camera);
      if (opts.json) console.log(JSON.stringify(out, null, 2));
      else {
        const scenario = parseScenarioText(readFileSync(opts.scenario, 'utf8'), opts.scenario);
        const names = new Map(scenario.units.map((u) => [u.id, u.name]));
        const refs = scenario.referenceMarkers.map((r) => r.id);
        console.log(out.images.map((m) => formatMeasurement(m, names, refs)).join('\n\n'));
      }
      if (out.images.some((m) => !m.table.found)) {
        const n = out.images.filter((m) => !m.table.found).length;
        throw new CliError(
          `the table pose was not found in ${n === 1 && out.images.length === 1 ? 'the image' : `${n} of ${out.images.length} images`}: the reference markers must be in view (see above)`,
          3,
        );
      }
    });
}
