import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadCameraProfile } from '../camera/profile.ts';
import { MARKER_DICTIONARIES, parseScenarioText, type MarkerDictionaryName } from '../table/scenario.ts';
import { MarkerDetector } from '../vision/detector.ts';
import { readImageFile } from '../vision/sources/image-files.ts';
import { DETECT_FORMAT, reportImage, type DetectionReport } from './image-report.ts';
import { DEFAULT_CAMERA_PROFILE } from './measure-command.ts';

/** One image's raw detections as `detect --json` prints them (docs/cli-json.md). */
export interface ImageDetections {
  readonly image: string;
  readonly width: number;
  readonly height: number;
  readonly detections: readonly DetectionReport[];
}

export interface DetectOutput {
  readonly format: typeof DETECT_FORMAT;
  readonly images: readonly ImageDetections[];
}

/**
 * Raw detections. With a scenario (and camera profile), the live pipeline's search with priors —
 * every stage, unknown ids included; without, OpenCV's plain detector for one dictionary.
 */
export async function detectImages(
  imagePaths: readonly string[],
  opts: { scenario?: string; camera: string; dictionary: MarkerDictionaryName },
): Promise<DetectOutput> {
  const images: ImageDetections[] = [];
  if (opts.scenario) {
    const scenario = parseScenarioText(readFileSync(opts.scenario, 'utf8'), opts.scenario);
    const camera = loadCameraProfile(opts.camera);
    for (const path of imagePaths) {
      const r = await reportImage(path, await readImageFile(path), scenario, camera);
      images.push({ image: r.image, width: r.width, height: r.height, detections: r.detections });
    }
    return { format: DETECT_FORMAT, images };
  }
  // Without a scenario nothing says which codes to expect: only exactly read codes are reported
  // (no corrected bits), so a stranger's pattern is not passed off as a marker.
  const detector = await MarkerDetector.create({
    dictionary: opts.dictionary,
    correctionBits: { apriltag_36h11: 0, aruco_mip_36h12: 0, aruco_5x5_250: 0, aruco_4x4_250: 0 },
  });
  try {
    for (const path of imagePaths) {
      const image = await readImageFile(path);
      images.push({
        image: path,
        width: image.width,
        height: image.height,
        detections: detector.detect(image).map((d) => ({
          id: d.id,
          role: null,
          corners: d.corners.map((c) => [c.u, c.v] as const),
          stage: 'opencv',
          evidence: null,
        })),
      });
    }
  } finally {
    detector.dispose();
  }
  return { format: DETECT_FORMAT, images };
}

function formatDetections(d: ImageDetections): string {
  const lines = [`${d.image} (${d.width} × ${d.height}): ${d.detections.length} markers`];
  for (const m of d.detections) {
    const u = m.corners.reduce((s, c) => s + c[0], 0) / 4;
    const v = m.corners.reduce((s, c) => s + c[1], 0) / 4;
    lines.push(
      `  ${String(m.id).padStart(4)}  at (${u.toFixed(1)}, ${v.toFixed(1)}) px${m.role ? `  ${m.role}` : ''}${m.stage ? `  [${m.stage}]` : ''}`,
    );
  }
  return lines.join('\n');
}

export function registerDetectCommand(program: Command): void {
  program
    .command('detect')
    .description('list the markers found in camera images (ids and corners in pixels)')
    .argument('<images...>', 'PNG or JPEG images')
    .option(
      '--scenario <file>',
      'search as the live pipeline does, with this scenario’s ids, sizes and table',
    )
    .option('--camera <profile>', 'camera profile JSON (with --scenario)', DEFAULT_CAMERA_PROFILE)
    .option(
      '--dictionary <name>',
      `marker dictionary without a scenario (${MARKER_DICTIONARIES.join(', ')})`,
      'aruco_mip_36h12',
    )
    .option('--json', 'print JSON (format vedette.detect/1, docs/cli-json.md) instead of text')
    .action(
      async (
        imagePaths: string[],
        opts: { scenario?: string; camera: string; dictionary: string; json?: boolean },
      ) => {
        if (!(MARKER_DICTIONARIES as readonly string[]).includes(opts.dictionary))
          throw new Error(
            `unknown dictionary "${opts.dictionary}": use one of ${MARKER_DICTIONARIES.join(', ')}`,
          );
        const out = await detectImages(imagePaths, {
          ...(opts.scenario ? { scenario: opts.scenario } : {}),
          camera: opts.camera,
          dictionary: opts.dictionary as MarkerDictionaryName,
        });
        if (opts.json) console.log(JSON.stringify(out, null, 2));
        else console.log(out.images.map(formatDetections).join('\n\n'));
      },
    );
}
