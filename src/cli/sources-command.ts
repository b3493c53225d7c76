import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import type { Command } from 'commander';

/** A V4L2 device found on this machine, with what ffmpeg says it can send. */
export interface VideoDevice {
  readonly path: string;
  /** Lines of `ffmpeg -f v4l2 -list_formats all -i <device>` (formats and sizes), or why not. */
  readonly formats: readonly string[];
}

export interface SourcesReport {
  readonly ffmpeg: string | null;
  readonly devices: readonly VideoDevice[];
}

function ffmpegVersion(): string | null {
  const run = spawnSync('ffmpeg', ['-hide_banner', '-version'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) return null;
  return run.stdout.split('\n')[0] ?? 'ffmpeg';
}

/** /dev/video* (V4L2 capture devices), each with the formats ffmpeg lists for it. */
export function findVideoDevices(devDir = '/dev', withFfmpeg = true): VideoDevice[] {
  let names: string[];
  try {
    names = readdirSync(devDir).filter((n) => /^video\d+$/.test(n));
  } catch {
    return [];
  }
  names.sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
  return names.map((n) => {
    const path = `${devDir}/${n}`;
    if (!withFfmpeg) return { path, formats: [] };
    const run = spawnSync('ffmpeg', ['-hide_banner', '-f', 'v4l2', '-list_formats', 'all', '-i', path], {
      encoding: 'utf8',
      timeout: 5000,
    });
    const formats = (run.stderr ?? '')
      .split('\n')
      .filter((l) => /(Raw|Compressed)\s*:/.test(l))
      .map((l) => l.replace(/^\[[^\]]+\]\s*/, '').trim());
    return {
      path,
      formats: formats.length > 0 ? formats : ['(no capture formats: a metadata node, or busy)'],
    };
  });
}

export function sourcesReport(): SourcesReport {
  const ffmpeg = ffmpegVersion();
  return { ffmpeg, devices: findVideoDevices('/dev', ffmpeg !== null) };
}

export function formatSourcesReport(r: SourcesReport): string {
  const out: string[] = [];
  out.push('Cameras Vedette can watch the table with (vedette serve …):', '');
  out.push(
    r.ffmpeg
      ? `ffmpeg: ${r.ffmpeg}`
      : 'ffmpeg: NOT INSTALLED — webcams, streams and videos need it (Debian: apt-get install ffmpeg)',
  );
  out.push('', 'Webcams (V4L2):');
  if (r.devices.length === 0)
    out.push('  none found (/dev/video* is empty; plug one in, or check you are in the "video" group)');
  for (const d of r.devices) {
    out.push(`  ${d.path}`);
    for (const f of d.formats) out.push(`      ${f}`);
  }
  out.push(
    `  use: vedette serve --webcam ${r.devices[0]?.path ?? '/dev/video0'} --size 1920x1080 --fps 30 --input-format mjpeg --camera my-camera.json`,
  );
  out.push(
    '',
    'Network cameras and phone camera apps:',
    '  vedette serve --url rtsp://user:pass@192.168.1.40:554/stream1 --camera my-camera.json',
    '  vedette serve --url http://192.168.1.41:8080/video          (HTTP MJPEG, e.g. a phone "IP webcam" app)',
    '  (an HTTP MJPEG stream is read directly, without ffmpeg; RTSP and other streams go through ffmpeg)',
    '',
    'A video file:',
    '  vedette serve --video game.mp4 [--realtime] [--loop] --camera my-camera.json',
    '',
    'A folder of images (in name order, looped), or some images:',
    '  vedette serve --folder shots/ --camera my-camera.json',
    '  vedette serve --images a.png b.png --camera my-camera.json',
    '',
    "A browser's own camera (a phone held over the table):",
    '  vedette serve --lan --browser-camera --tls-cert cert.pem --tls-key key.pem',
    '  then open the printed link on the phone and press "Use this device\'s camera".',
    '  (Browsers allow the camera only on https:// pages or localhost: see docs/cameras.md.)',
    '',
    'The built-in synthetic table (the default):',
    '  vedette serve [--still]',
    '',
    'Without --camera the camera model is estimated from --size and --hfov and flagged as an estimate;',
    'calibrate with `vedette calibrate` for measurements you can defend. More in docs/cameras.md.',
  );
  return out.join('\n');
}

export function registerSourcesCommand(program: Command): void {
  program
    .command('sources')
    .description('list the cameras this machine has (V4L2 webcams) and how to use every kind of camera')
    .option('--json', 'machine-readable list')
    .action((opts: { json?: boolean }) => {
      const report = sourcesReport();
      console.log(opts.json ? JSON.stringify(report, null, 2) : formatSourcesReport(report));
    });
}
