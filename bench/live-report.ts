/**
 * The live benchmark's printout (bench/live.ts): one table of the phases, the targets of issue 13
 * beside the figures, detection cost beside native OpenCV, and the CPU profiles' busiest functions.
 */
import { quantile } from './live-latency.ts';
import type { TimedFrame } from './live-native.ts';
import type { ThreadProfile } from './live-profile.ts';
import type { PhaseResult } from './live-run.ts';

/** The demo in a browser on the same machine (bench/live.ts), or why it was not measured. */
export type BrowserFigure =
  | {
      readonly window: string;
      readonly pageFps: number;
      readonly serverFps: number;
      readonly seconds: number;
      readonly loadAverage: number;
    }
  | { readonly skipped: string };

export interface LiveReport {
  readonly machine: string;
  readonly setup: readonly string[];
  readonly phases: readonly PhaseResult[];
  /** The demo in headless Chromium, or null when only the MJPEG phases ran. */
  readonly browser: BrowserFigure | null;
  /** Per phase name, native OpenCV on the pictures the server sent; null: native not run. */
  readonly native: ReadonlyMap<string, readonly TimedFrame[]> | null;
  readonly nativeNote: string;
  readonly wholeFrame: { readonly frames: readonly TimedFrame[]; readonly modes: readonly string[] } | null;
  readonly profiles: ReadonlyMap<string, readonly ThreadProfile[]>;
  readonly seconds: number;
}

const f = (v: number, d = 1) => (Number.isFinite(v) ? v.toFixed(d) : '–');
const mean = (v: readonly number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : Number.NaN);
const verdict = (ok: boolean, measured: boolean) => (!measured ? 'NOT MEASURED' : ok ? 'met' : 'NOT MET');

/** Server CPU time per processed frame, ms: what a frame costs whatever else the cores are doing. */
export function serverCpuPerFrame(p: PhaseResult): number {
  return (1000 * p.cores.server * p.windowS) / p.counts.processed;
}

function phaseTable(phases: readonly PhaseResult[]): string[] {
  const out = [
    '| phase | fps (client) | fps (status) | in / processed / dropped | server cores | server CPU ms / processed frame | ffmpeg cores | ffmpeg CPU ms / camera frame | server RSS MB mean / max | detection ms mean / p95 | loop lag ms | move→overlay ms p50 / p95 / max (moves shown / unresolved) | load avg |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const p of phases) {
    const l = p.latency;
    const lat = l ? `${f(l.p50, 0)} / ${f(l.p95, 0)} / ${f(l.max, 0)} (${l.shown} / ${l.unresolved})` : '–';
    out.push(
      `| ${p.spec.name} | ${f(p.fps)} | ${f(p.statusFps)} | ${p.counts.framesIn} / ${p.counts.processed} / ${p.counts.dropped} | ${f(p.cores.server, 2)} | ${f(serverCpuPerFrame(p), 0)} | ${p.cores.ffmpeg === null ? '–' : f(p.cores.ffmpeg, 2)} | ${p.cores.ffmpeg === null || !p.stream ? '–' : f((1000 * p.cores.ffmpeg) / p.stream.fps, 0)} | ${f(p.rssMb.mean, 0)} / ${f(p.rssMb.max, 0)} | ${f(p.detectionMs.mean)} / ${f(p.detectionMs.p95)} | ${f(p.eventLoopLagMs, 0)} | ${lat} | ${f(p.loadAverage)} |`,
    );
  }
  return out;
}

function phaseNotes(phases: readonly PhaseResult[]): string[] {
  const out: string[] = [];
  for (const p of phases) {
    const bits = [`start to first full overlay ${f(p.startupS)} s`, `window ${f(p.windowS)} s`];
    if (p.stream) {
      const q = p.stream.queuedFrames;
      bits.push(
        `camera sent ${f(p.stream.fps)} fps (${p.stream.missed} frames missed by a slow reader, ${p.stream.late} ticks late)` +
          (q ? `, ${f(q.mean)} frames (most ${f(q.max)}) waiting in socket queues` : ''),
      );
    }
    if (p.cores.ffmpeg !== null) bits.push(`ffmpeg max RSS ${f(p.rssMb.ffmpegMax, 0)} MB`);
    for (const [name, c] of p.cores.others) bits.push(`child ${name} ${f(c, 2)} cores`);
    bits.push(`this process (camera + client) ${f(p.cores.bench, 2)} cores`);
    if (p.poseErrorMm)
      bits.push(
        `still bases vs truth: p50 ${f(p.poseErrorMm.p50, 2)} mm, p95 ${f(p.poseErrorMm.p95, 2)} mm over ${p.poseErrorMm.readings} readings, ${p.poseErrorMm.missing} not seen`,
      );
    if (p.latency) {
      const l = p.latency;
      const legs = [
        ...(l.toServerMs
          ? [`camera → server capture p50 ${f(l.toServerMs.p50, 0)} / p95 ${f(l.toServerMs.p95, 0)} ms`]
          : []),
        `server capture → client p50 ${f(l.toClientMs.p50, 0)} / p95 ${f(l.toClientMs.p95, 0)} ms`,
      ];
      bits.push(
        `latency: ${l.moves} moves, tolerance ${l.toleranceMm} mm, ${l.unmatchedMessages} messages showing no frame; per shown frame ${legs.join(', ')}`,
      );
    }
    out.push(`- ${p.spec.name}: ${bits.join('; ')}`);
  }
  return out;
}

function ratio(frames: readonly TimedFrame[]): number {
  return mean(frames.map((t) => t.vedetteMs)) / mean(frames.map((t) => t.nativeMs));
}

function nativeLines(r: LiveReport): string[] {
  const out = ['', '## Detection cost beside native OpenCV (same frames)', ''];
  if (!r.native) {
    out.push(`**SKIPPED: ${r.nativeNote}**`);
    return out;
  }
  out.push(r.nativeNote, '');
  out.push(
    '| frames | n | Vedette ms mean / median | native ms mean / median | ratio (means) |',
    '|---|---|---|---|---|',
  );
  const row = (name: string, t: readonly TimedFrame[]) => {
    const v = t.map((x) => x.vedetteMs);
    const n = t.map((x) => x.nativeMs);
    out.push(
      `| ${name} | ${t.length} | ${f(mean(v))} / ${f(quantile(v, 0.5))} | ${f(mean(n))} / ${f(quantile(n, 0.5))} | ${f(ratio(t), 2)} × |`,
    );
  };
  for (const [name, t] of r.native) row(`${name}: live, as the server detected them`, t);
  if (r.wholeFrame) row('1080p whole-frame search (this process, after a warm-up pass)', r.wholeFrame.frames);
  return out;
}

function targetLines(r: LiveReport): string[] {
  const by = (name: string) => r.phases.find((p) => p.spec.name === name);
  const out = ['', '## Targets (issue 13)', ''];
  const still = by('mjpeg still');
  const moving = by('mjpeg moving');
  const demo = by('synthetic moving');
  const line = (text: string, ok: boolean, measured: boolean) =>
    out.push(`- ${text}: ${verdict(ok, measured)}`);
  if (still)
    line(
      `1080p 30 fps MJPEG, still table: ≥ 30 processed fps — ${f(still.fps)} fps`,
      still.fps >= 29.5,
      true,
    );
  if (moving) {
    line(`while a unit moves: ≥ 15 fps — ${f(moving.fps)} fps`, moving.fps >= 15, true);
    const p95 = moving.latency?.p95 ?? Number.NaN;
    line(
      `moved unit to overlay p95 ≤ 150 ms — ${f(p95, 0)} ms (${moving.latency?.unresolved ?? 0} moves never shown)`,
      p95 <= 150 && (moving.latency?.unresolved ?? 0) === 0,
      Number.isFinite(p95),
    );
  }
  const x = r.wholeFrame ? ratio(r.wholeFrame.frames) : Number.NaN;
  line(
    `full-frame 1080p detection ≤ 1.5 × native OpenCV 4.6 — ${r.wholeFrame ? `${f(x, 2)} ×` : `skipped: ${r.nativeNote}`}`,
    x <= 1.5,
    Number.isFinite(x),
  );
  // The status line counts the pictures the page drew: a browser's figure, not the WebSocket
  // client's (which only receives them).
  const b = r.browser;
  if (b && 'pageFps' in b)
    line(
      `\`npm start\` demo ≥ 20 fps in the status line — ${f(b.pageFps)} fps drawn by Chromium (${b.window} window, same machine, load ${f(b.loadAverage)}; server ${f(b.serverFps)} processed fps; the WebSocket client received ${demo ? f(demo.fps) : '–'})`,
      b.pageFps >= 20,
      true,
    );
  else if (demo || b)
    line(
      `\`npm start\` demo ≥ 20 fps in the status line — no browser (${b && 'skipped' in b ? b.skipped : 'not run'}); the WebSocket client received ${demo ? f(demo.fps) : '–'} fps`,
      false,
      false,
    );
  out.push(
    '',
    'CPU time per frame depends far less than rates on what else the machine runs; what the target rates would take in cores:',
  );
  for (const p of r.phases) {
    const rate = p.spec.camera === 'mjpeg' ? (p.spec.moving ? 15 : 30) : 20;
    const ms = serverCpuPerFrame(p);
    const ffmpeg = p.cores.ffmpeg !== null && p.stream ? (1000 * p.cores.ffmpeg) / p.stream.fps : 0;
    out.push(
      `- ${p.spec.name}: ${rate} fps × ${f(ms, 0)} ms server CPU = ${f((rate * ms) / 1000, 2)} cores${ffmpeg ? ` (+ ffmpeg reading 30 fps × ${f(ffmpeg, 0)} ms = ${f((30 * ffmpeg) / 1000, 2)} cores)` : ''}`,
    );
  }
  return out;
}

function profileLines(r: LiveReport): string[] {
  if (r.profiles.size === 0) return [];
  const out = ['', '## CPU profiles (node --cpu-prof, the measured window): self time by thread', ''];
  for (const [phase, threads] of r.profiles) {
    out.push(`### ${phase}`, '');
    for (const t of threads) {
      if (t.busyMs < 0.05 * t.totalMs) continue;
      out.push(`- ${t.thread}: busy ${f(t.busyMs / 1000)} s of ${f(t.totalMs / 1000)} s`);
      for (const s of t.top.slice(0, 10))
        out.push(`  - ${f(s.ms / 1000, 2)} s (${f(100 * s.share)} %) ${s.name}`);
    }
    out.push('');
  }
  return out;
}

export function printReport(r: LiveReport): void {
  const out = [
    `# Live benchmark, ${f(r.seconds, 0)} s — ${r.machine}`,
    '',
    ...r.setup.map((s) => `- ${s}`),
    '',
    ...phaseTable(r.phases),
    '',
    ...phaseNotes(r.phases),
    ...nativeLines(r),
    ...targetLines(r),
    ...profileLines(r),
  ];
  console.log(out.join('\n'));
}
