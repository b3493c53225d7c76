/**
 * One phase of the live benchmark (bench/live.ts): a server started as `vedette serve` starts it
 * (bench/live-server.ts), watching either the benchmark's MJPEG camera or its own synthetic
 * table, still or with a unit moving; a WebSocket client on /live as the browser; after a warm-up,
 * a measured window: overlay messages received, the server's own counters (/api/status), CPU and
 * memory of the server and of its ffmpeg (/proc), and, for a moving unit, the latency of every move.
 */
import { loadavg } from 'node:os';
import type { ServerStatus } from '../src/server/server-options.ts';
import type { StateMessage } from '../src/server/protocol.ts';
import { LiveClient, type PictureSample, type ReceivedState } from './live-client.ts';
import { demoPose, type BenchFrames } from './live-frames.ts';
import {
  latencySplit,
  matchMessages,
  moveLatencies,
  quantile,
  type OverlayMessage,
  type SentFrame,
  type TablePoint,
  type UnitPose,
} from './live-latency.ts';
import type { ProfileWindow } from './live-profile.ts';
import { coresBetween, sampleProcesses, type ProcTimes } from './live-proc.ts';
import type { LaunchOptions } from './live-server.ts';
import { spawnLiveServer, stopLiveServer, type LiveServerProcess } from './live-server-process.ts';
import type { MjpegStream } from './live-stream.ts';

export interface PhaseSpec {
  readonly name: string;
  readonly camera: 'mjpeg' | 'synthetic';
  readonly moving: boolean;
}

export interface PhaseContext {
  readonly frames: BenchFrames;
  readonly stream: MjpegStream;
  /** Camera profile file of the MJPEG camera (the renderer's), for `--camera`. */
  readonly cameraPath: string;
  readonly dataDir: string;
  readonly warmupS: number;
  readonly seconds: number;
  /** Folder for this phase's CPU profiles (node --cpu-prof), or null. */
  readonly profileDir: string | null;
  readonly log: (line: string) => void;
}

/** A reported base farther than this from its truth does not show the frame (MJPEG: a third of a step). */
export const MJPEG_TOLERANCE_MM = 8;
/** The demo's unit walks at most 0.8 mm a frame: a tighter match, a few frames of its walk. */
export const DEMO_TOLERANCE_MM = 4;

export interface Latency {
  readonly p50: number;
  readonly p95: number;
  readonly mean: number;
  readonly max: number;
  readonly shown: number;
  readonly moves: number;
  readonly unresolved: number;
  /** Messages whose pose of the moving unit showed no frame (stale, or a base missing or off). */
  readonly unmatchedMessages: number;
  readonly toleranceMm: number;
  /** Per shown frame: camera write to server capture, and server capture to client (p50 / p95, ms). */
  readonly toServerMs: { readonly p50: number; readonly p95: number } | null;
  readonly toClientMs: { readonly p50: number; readonly p95: number };
}

export interface PhaseResult {
  readonly spec: PhaseSpec;
  readonly startupS: number;
  readonly windowS: number;
  /** Overlay messages the client received per second (what the live page's status line counts). */
  readonly fps: number;
  readonly statusFps: number;
  readonly counts: { readonly framesIn: number; readonly processed: number; readonly dropped: number };
  /** Cores used: the server (all its threads), its ffmpeg (null: none), other children by name, this process. */
  readonly cores: {
    readonly server: number;
    readonly ffmpeg: number | null;
    readonly others: ReadonlyMap<string, number>;
    readonly bench: number;
  };
  readonly rssMb: { readonly mean: number; readonly max: number; readonly ffmpegMax: number };
  /** The machine's 1-minute load average at the window's end (other work on the cores shows here). */
  readonly loadAverage: number;
  readonly detectionMs: { readonly mean: number; readonly p50: number; readonly p95: number };
  readonly eventLoopLagMs: number;
  readonly latency: Latency | null;
  /** Still table: every base reported against the renderer's truth (a check that poses are right). */
  readonly poseErrorMm: {
    readonly p50: number;
    readonly p95: number;
    readonly readings: number;
    readonly missing: number;
  } | null;
  readonly stream: {
    readonly fps: number;
    readonly missed: number;
    readonly late: number;
    /** Camera frames waiting in the kernel's socket queues, mean and most (from `ss`; null: unknown). */
    readonly queuedFrames: { readonly mean: number; readonly max: number } | null;
  } | null;
  readonly pictures: readonly PictureSample[];
  /** The measured window on CLOCK_MONOTONIC, for cutting it out of CPU profiles. */
  readonly monotonicWindow: ProfileWindow;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mean = (v: readonly number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : Number.NaN);

function launch(ctx: PhaseContext, spec: PhaseSpec): LiveServerProcess {
  const options: LaunchOptions =
    spec.camera === 'mjpeg'
      ? { dataDir: ctx.dataDir, url: ctx.stream.url, camera: ctx.cameraPath }
      : { dataDir: ctx.dataDir, still: !spec.moving };
  return spawnLiveServer(options, {
    log: ctx.log,
    ...(ctx.profileDir ? { profileDir: ctx.profileDir } : {}),
  });
}

async function status(url: string): Promise<ServerStatus> {
  const res = await fetch(`${url}/api/status`, { signal: AbortSignal.timeout(5000) });
  return (await res.json()) as ServerStatus;
}

/** The moving unit's bases as a message reports them. */
function reportedPose(message: StateMessage, unitId: string): UnitPose {
  const unit = message.units.find((u) => u.id === unitId);
  return new Map((unit?.bases ?? []).map((b) => [b.markerId, { x: b.x, y: b.y }]));
}

/** Waits for the overlay to show the table and every base of the moving unit. */
async function firstFullOverlay(client: LiveClient, unitId: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const last = client.states.at(-1)?.message;
    const unit = last?.units.find((u) => u.id === unitId);
    if (last?.pose && unit && unit.bases.length > 0 && unit.bases.every((b) => b.seen)) return true;
    await sleep(200);
  }
  return false;
}

/** Waits (at most `timeoutMs`) until a message shows the last frame the camera sent before `to`, or a later one. */
async function caughtUp(
  client: LiveClient,
  stream: MjpegStream,
  frames: BenchFrames,
  to: number,
  timeoutMs: number,
): Promise<void> {
  const last = stream.sent.filter((f) => f.sentAt < to).at(-1);
  if (!last) return;
  const deadline = Date.now() + timeoutMs;
  const windowMs = ((frames.moving.length - 2) * 1000) / stream.fps;
  while (Date.now() < deadline) {
    const recent = client.states.slice(-5).map((s) => ({
      receivedAt: s.receivedAt,
      reported: reportedPose(s.message, frames.movingUnitId),
      capturedAt: s.message.timestamp,
    }));
    const shown = matchMessages(stream.sent, recent, { toleranceMm: MJPEG_TOLERANCE_MM, windowMs });
    if (shown.some((k) => k !== null && k >= last.index)) return;
    await sleep(250);
  }
}

function latencyOf(
  frames: readonly SentFrame[],
  messages: readonly OverlayMessage[],
  window: { from: number; to: number },
  toleranceMm: number,
  windowMs: number,
): Latency {
  const matched = matchMessages(frames, messages, { toleranceMm, windowMs });
  const r = moveLatencies(frames, messages, matched, window);
  const v = r.latenciesMs;
  const split = latencySplit(frames, messages, matched);
  const p = (x: readonly number[]) => ({ p50: quantile(x, 0.5), p95: quantile(x, 0.95) });
  return {
    p50: quantile(v, 0.5),
    p95: quantile(v, 0.95),
    mean: mean(v),
    max: v.length ? Math.max(...v) : Number.NaN,
    shown: v.length,
    moves: r.moves,
    unresolved: r.unresolved,
    unmatchedMessages: matched.filter((m) => m === null).length,
    toleranceMm,
    // A source that stamps frames itself (the synthetic table) has no camera-to-server leg.
    toServerMs: messages.some((m) => m.frameIndex !== undefined) ? null : p(split.toServerMs),
    toClientMs: p(split.toClientMs),
  };
}

function poseErrors(states: readonly ReceivedState[], truth: UnitPose): PhaseResult['poseErrorMm'] {
  const errors: number[] = [];
  let missing = 0;
  for (const { message } of states) {
    const seen = new Map<number, TablePoint>();
    for (const u of message.units) for (const b of u.bases) if (b.seen) seen.set(b.markerId, b);
    for (const [id, t] of truth) {
      const r = seen.get(id);
      if (r) errors.push(Math.hypot(r.x - t.x, r.y - t.y));
      else missing++;
    }
  }
  return { p50: quantile(errors, 0.5), p95: quantile(errors, 0.95), readings: errors.length, missing };
}

export async function runPhase(ctx: PhaseContext, spec: PhaseSpec): Promise<PhaseResult> {
  const { frames, stream } = ctx;
  if (spec.camera === 'mjpeg') stream.play(spec.moving ? frames.moving : frames.still);
  const launchedAt = Date.now();
  const { child, ready } = launch(ctx, spec);
  let client: LiveClient | null = null;
  try {
    const hello = await ready;
    if (hello.type !== 'ready') throw new Error(`${spec.name}: the server did not start: ${hello.message}`);
    const pid = child.pid!;
    client = await LiveClient.connect(hello.url);
    if (!(await firstFullOverlay(client, frames.movingUnitId, 90_000)))
      throw new Error(`${spec.name}: no overlay with the table and the moving unit within 90 s`);
    const startupS = (Date.now() - launchedAt) / 1000;
    ctx.log(`${spec.name}: overlay after ${startupS.toFixed(1)} s; warming up ${ctx.warmupS} s`);
    await sleep(ctx.warmupS * 1000);

    const statusA = await status(hello.url);
    const procA = sampleProcesses(pid);
    const benchA = process.cpuUsage();
    const from = Date.now();
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    const sentBefore = stream.sent.length;
    const { missed: missedA, late: lateA } = stream;
    client.samplePictures((ctx.seconds * 1000) / 10, 10);
    const rss: number[] = [];
    const ffmpegRss: number[] = [];
    const queued: number[] = [];
    let procB: ProcTimes = procA;
    while (Date.now() - from < ctx.seconds * 1000) {
      await sleep(500);
      procB = sampleProcesses(pid);
      rss.push(procB.rssBytes.get(pid) ?? 0);
      let c = 0;
      for (const [p, b] of procB.rssBytes) if (p !== pid && procB.names.get(p) === 'ffmpeg') c += b;
      ffmpegRss.push(c);
      const q = spec.camera === 'mjpeg' ? stream.queuedBytes() : null;
      if (q !== null) queued.push(q / frames.meanJpegBytes);
    }
    const to = Date.now();
    const toUs = Number(process.hrtime.bigint() / 1000n);
    const benchCpu = process.cpuUsage(benchA);
    const statusB = await status(hello.url);
    // Moves near the end of the window are answered after it: wait for the overlay to catch up.
    await sleep(1500);
    if (spec.moving && spec.camera === 'mjpeg') await caughtUp(client, stream, frames, to, 10_000);
    const statesAll = [...client.states];
    const inWindow = statesAll.filter((s) => s.receivedAt >= from && s.receivedAt < to);
    const windowS = (to - from) / 1000;
    const cores = coresBetween(procA, procB, pid);
    const detections = inWindow.map((s) => s.message.detectionMs);
    const streamSent = stream.sent.slice(sentBefore).filter((f) => f.sentAt < to).length;

    let latency: Latency | null = null;
    if (spec.moving) {
      const later = statesAll.filter((s) => s.receivedAt >= from);
      if (spec.camera === 'mjpeg') {
        const sent = stream.sent.filter((f) => f.sentAt >= from - 2000);
        const messages = later.map((s) => ({
          receivedAt: s.receivedAt,
          reported: reportedPose(s.message, frames.movingUnitId),
          capturedAt: s.message.timestamp,
        }));
        // Within one loop no pose comes back; the frame was sent before the server's capture stamp.
        const loopMs = ((frames.moving.length - 2) * 1000) / stream.fps;
        latency = latencyOf(sent, messages, { from, to }, MJPEG_TOLERANCE_MM, loopMs);
      } else {
        const startedAt = hello.syntheticStartedAt ?? Number.NaN;
        const byFrame = new Map<number, SentFrame>();
        for (const s of statesAll) {
          const m = s.message;
          byFrame.set(m.frame, {
            index: m.frame,
            sentAt: m.timestamp,
            truth: demoPose(frames, m.timestamp - startedAt),
          });
        }
        const sent = [...byFrame.values()].sort((a, b) => a.index - b.index);
        const messages = later.map((s) => ({
          receivedAt: s.receivedAt,
          reported: reportedPose(s.message, frames.movingUnitId),
          frameIndex: s.message.frame,
          capturedAt: s.message.timestamp,
        }));
        latency = latencyOf(sent, messages, { from, to }, DEMO_TOLERANCE_MM, 0);
      }
    }
    const others = new Map(cores.children);
    const ffmpeg = others.get('ffmpeg') ?? null;
    others.delete('ffmpeg');
    return {
      spec,
      startupS,
      windowS,
      fps: inWindow.length / windowS,
      statusFps: statusB.frames.processedFps,
      counts: {
        framesIn: statusB.frames.framesIn - statusA.frames.framesIn,
        processed: statusB.frames.framesProcessed - statusA.frames.framesProcessed,
        dropped: statusB.frames.framesDropped - statusA.frames.framesDropped,
      },
      cores: { server: cores.root, ffmpeg, others, bench: (benchCpu.user + benchCpu.system) / 1e6 / windowS },
      rssMb: {
        mean: mean(rss) / 2 ** 20,
        max: Math.max(...rss) / 2 ** 20,
        ffmpegMax: Math.max(...ffmpegRss) / 2 ** 20,
      },
      loadAverage: loadavg()[0]!,
      detectionMs: {
        mean: mean(detections),
        p50: quantile(detections, 0.5),
        p95: quantile(detections, 0.95),
      },
      eventLoopLagMs: statusB.eventLoopLagMs,
      latency,
      poseErrorMm: spec.moving ? null : poseErrors(inWindow, frames.stillTruth),
      stream:
        spec.camera === 'mjpeg'
          ? {
              fps: streamSent / windowS,
              missed: stream.missed - missedA,
              late: stream.late - lateA,
              queuedFrames: queued.length ? { mean: mean(queued), max: Math.max(...queued) } : null,
            }
          : null,
      pictures: client.pictures,
      monotonicWindow: { fromUs, toUs },
    };
  } finally {
    client?.close();
    await stopLiveServer(child);
  }
}
