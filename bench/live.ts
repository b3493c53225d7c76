/**
 * Live benchmark (issue 13): how fast and how soon the live page follows the table.
 *
 * Four phases, each a fresh server started as `vedette serve` starts it (bench/live-server.ts:
 * the serve command's camera choice, the same app and live loop, recording into a temporary
 * folder), watched by a WebSocket client on /live as the browser watches it:
 *   - mjpeg still / mjpeg moving: `serve --url http://…/video --camera <profile>` reading a 30 fps
 *     1080p MJPEG stream served by this process (bench/live-stream.ts), read as `serve` reads
 *     any HTTP MJPEG camera (directly since issue 13.2; ffmpeg columns then show –). Its frames
 *     are drawn by Vedette's own renderer (src/synth) over the default scenario, JPEG-encoded with
 *     sharp (bench/live-frames.ts): the still table with fresh sensor noise each frame, or the
 *     demo's walking unit carried a step (default 1 in) every frame along a 94-frame serpentine;
 *   - synthetic still / synthetic moving: what `npm start` shows (`serve --still` and `serve`).
 * Measured over a window after a warm-up: overlay messages received per second (what the page's
 * status line counts) and the server's own counters; move-to-overlay latency (the frame in which
 * the unit moved, by when the camera sent it, to the first message carrying that pose or a later
 * one, matched against the renderer's truth: bench/live-latency.ts); CPU of the server and of its
 * ffmpeg and RSS (/proc); the server's detection time per frame beside native OpenCV 4.6 on the
 * same pictures (python3-opencv, bench/native-aruco.py), and a whole-frame search beside it.
 * Last, the demo in headless Chromium on the same machine (bench/page-measure.ts): the frames the
 * page drew per second, what its status line shows (skipped, said loudly, without chromium).
 * Seeds from 5000. docs/live-bench.md says what each figure means and what was measured.
 *
 * Run: npm run bench -- live [--seconds 12] [--warmup 2] [--step-mm 25.4] [--quality 85]
 *      [--fps 30] [--only mjpeg|synthetic] [--profile]    (default ≈ 3 min on a busy 2-core machine)
 *   --seconds  measured window per phase (longer: steadier figures)
 *   --profile  run each server under node --cpu-prof and print the busiest functions per thread
 *              (profiling costs a little speed: the figures of a profiled run are not the figures)
 * It prints figures and whether each target is met; it never fails on them.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_SCENARIO } from '../src/cli/default-scenario.ts';
import { renderBenchFrames } from './live-frames.ts';
import { nativeOnPictures, wholeFrameTimes, type TimedFrame } from './live-native.ts';
import { readProfiles, type ThreadProfile } from './live-profile.ts';
import { printReport } from './live-report.ts';
import { runPhase, type PhaseResult, type PhaseSpec } from './live-run.ts';
import { MjpegStream } from './live-stream.ts';
import { NativeAruco, NATIVE_PYTHON } from './recall-native.ts';
import { FIRST_BENCH_SEED } from './recall-scenes.ts';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, measurePage } from './page-measure.ts';
import type { BrowserFigure } from './live-report.ts';

/** The live benchmark's scenes take seeds from here (the recall benchmark's run from 5000). */
const LIVE_SEED = FIRST_BENCH_SEED + 900;

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} needs a positive number`);
  return v;
}

const PHASES: readonly PhaseSpec[] = [
  { name: 'mjpeg still', camera: 'mjpeg', moving: false },
  { name: 'mjpeg moving', camera: 'mjpeg', moving: true },
  { name: 'synthetic still', camera: 'synthetic', moving: false },
  { name: 'synthetic moving', camera: 'synthetic', moving: true },
];

/** Whether Debian's OpenCV answers at all; the reason when not. */
function nativeProblem(): string | null {
  try {
    execFileSync(NATIVE_PYTHON, ['-c', 'import cv2'], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `${NATIVE_PYTHON} -c 'import cv2' failed (${(err as Error).message.split('\n')[0]}): apt-get install python3-opencv`;
  }
}

async function main(): Promise<void> {
  const seconds = option('seconds', 12);
  const warmupS = option('warmup', 2);
  const stepMm = option('step-mm', 25.4);
  const jpegQuality = option('quality', 85);
  const fps = option('fps', 30);
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
  const profile = process.argv.includes('--profile');
  const started = performance.now();
  const loadAtStart = loadavg()[0]!;
  const log = (s: string) =>
    process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${s}\n`);

  const problem = nativeProblem();
  if (problem) log(`!!! native OpenCV ratio SKIPPED: ${problem}`);

  log('drawing the camera frames');
  const frames = await renderBenchFrames({
    scenarioPath: DEFAULT_SCENARIO,
    seed: LIVE_SEED,
    stillFrames: 12,
    stepMm,
    legMm: 500,
    jpegQuality,
  });
  log(
    `${frames.still.length} still + ${frames.moving.length} moving frames in ${(frames.renderMs / 1000).toFixed(1)} s`,
  );
  const work = mkdtempSync(join(tmpdir(), 'vedette-live-bench-'));
  const cameraPath = join(work, 'camera.json');
  writeFileSync(cameraPath, JSON.stringify(frames.profile));
  const stream = await MjpegStream.start(fps);
  const phases: PhaseResult[] = [];
  const profiles = new Map<string, readonly ThreadProfile[]>();
  try {
    for (const spec of PHASES) {
      if (only && spec.camera !== only) continue;
      const profileDir = profile ? join(work, `profile-${spec.name.replace(' ', '-')}`) : null;
      if (profileDir) mkdirSync(profileDir);
      log(`${spec.name}: starting the server`);
      const result = await runPhase(
        { frames, stream, cameraPath, dataDir: join(work, 'data'), warmupS, seconds, profileDir, log },
        spec,
      );
      phases.push(result);
      log(`${spec.name}: ${result.fps.toFixed(1)} fps`);
      if (profileDir) profiles.set(spec.name, readProfiles(profileDir, resolve('.'), result.monotonicWindow));
    }
  } finally {
    await stream.close();
  }

  const browser = only === 'mjpeg' ? null : await demoInChromium(seconds, log);

  let native: Map<string, readonly TimedFrame[]> | null = null;
  let wholeFrame: Awaited<ReturnType<typeof wholeFrameTimes>> | null = null;
  let nativeNote = problem ?? '';
  const opened = problem ? null : await NativeAruco.start(frames.scenario.markerDictionary);
  if (typeof opened === 'string') nativeNote = opened;
  if (opened && typeof opened !== 'string') {
    try {
      log('native OpenCV on the same pictures');
      native = new Map();
      for (const p of phases) native.set(p.spec.name, await nativeOnPictures(opened, p.pictures));
      wholeFrame = await wholeFrameTimes(
        opened,
        frames.still.map((s) => s.jpeg),
        frames.profile,
        frames.scenario,
      );
      nativeNote = `native: OpenCV ${opened.version}, ${opened.threads} threads, cv2.aruco.detectMarkers default parameters; Vedette live: the detection time the server reported for each picture`;
    } finally {
      opened.close();
    }
  }
  rmSync(work, { recursive: true, force: true });

  printReport({
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load average at start ${loadAtStart.toFixed(1)}`,
    setup: [
      `scenario ${DEFAULT_SCENARIO} (${frames.scenario.units.length} units), moving unit "${frames.movingUnitId}"`,
      `MJPEG camera: ${fps} fps 1920×1080, JPEG quality ${jpegQuality} (mean ${(frames.meanJpegBytes / 1024).toFixed(0)} KiB), ${frames.still.length} still frames looped; moving: ${(stepMm / 25.4).toFixed(2)} in per frame along a ${frames.moving.length}-frame serpentine loop; seed ${LIVE_SEED}`,
      `synthetic: the server's own renderer (serve --still / serve), its unit walking 150 mm out and back over 20 s`,
      `warm-up ${warmupS} s, measured ${seconds} s per phase${profile ? '; PROFILED (node --cpu-prof): speed figures are lower than unprofiled' : ''}`,
      ...(Math.max(loadAtStart, ...phases.map((p) => p.loadAverage)) > cpus().length
        ? [
            `**the machine was busy with other work (load average above its ${cpus().length} cores, see the table): rates, latencies and detection times are what was left over, lower bounds; CPU ms per frame is the steadier figure**`,
          ]
        : []),
    ],
    phases,
    browser,
    native,
    nativeNote,
    wholeFrame,
    profiles,
    seconds: (performance.now() - started) / 1000,
  });
}

/**
 * What the status line of the live page shows in a real browser on the same machine (the
 * WebSocket client above counts what the server delivers; a browser must also decode and draw
 * every picture, on the same cores): the demo in headless Chromium, a 1366 × 820 window.
 */
async function demoInChromium(seconds: number, log: (s: string) => void): Promise<BrowserFigure> {
  if (!existsSync(CHROMIUM)) {
    log(`!!! the demo in a browser SKIPPED: ${CHROMIUM} is missing (apt-get install chromium)`);
    return { skipped: `${CHROMIUM} is missing` };
  }
  log('synthetic moving in Chromium (1366×820): starting the server');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const size = { width: 1366, height: 820, dpr: 1, label: '1366x820' };
    const run = await measurePage(browser, size, 'page size', { seconds, warmup: 6 });
    log(
      `synthetic moving in Chromium: page ${run.pageFps.toFixed(1)} fps, server ${run.serverFps.toFixed(1)} fps`,
    );
    return {
      window: size.label,
      pageFps: run.pageFps,
      serverFps: run.serverFps,
      seconds,
      loadAverage: loadavg()[0]!,
    };
  } finally {
    await browser.close();
  }
}

await main();
