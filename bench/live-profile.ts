/**
 * Summaries of the CPU profiles `node --cpu-prof` writes (one .cpuprofile per thread: the
 * server's main thread, the vision worker, the synthetic renderer…): sampled time per thread and
 * the functions with the most self time, over a window of the run. Profile timestamps are
 * CLOCK_MONOTONIC microseconds, the clock of process.hrtime in every process on the machine, so
 * the benchmark's measured window can be cut out of the server's profiles.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  /** Microseconds before each sample (the first from startTime). */
  readonly timeDeltas: readonly number[];
}

/** A span of CLOCK_MONOTONIC time, µs (process.hrtime.bigint() / 1000). */
export interface ProfileWindow {
  readonly fromUs: number;
  readonly toUs: number;
}

export interface SelfTime {
  readonly name: string;
  readonly ms: number;
  readonly share: number;
}

export interface ThreadProfile {
  readonly file: string;
  readonly thread: string;
  /** Sampled wall time, ms. */
  readonly totalMs: number;
  /** Sampled time not idle, ms. */
  readonly busyMs: number;
  readonly top: readonly SelfTime[];
}

/** Which thread a profile is of, told by the modules it ran. */
const THREADS: ReadonlyArray<readonly [string, string]> = [
  ['synthetic-worker.ts', 'synthetic renderer'],
  ['split-pass-worker.ts', 'split-pass worker'],
  ['worker-thread.ts', 'vision worker'],
  ['live-loop.ts', 'main (server)'],
  ['node:internal/modules/esm/worker', 'module loader (TypeScript hooks)'],
];

const WAITING = '(waiting)';

/**
 * Samples taken while a thread blocks in Atomics.wait land on the function that called it: the
 * split-pass helper's top-level loop, which does nothing else worth a sample.
 */
function waiting(f: ProfileNode['callFrame']): boolean {
  return f.functionName === '' && f.url.endsWith('/src/vision/split-pass-worker.ts');
}

function where(url: string, root: string): string {
  if (!url) return '';
  const path = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return inModules[1]!;
  return path.startsWith('/') ? relative(root, path) : path;
}

/**
 * Self time by function (name and file; line too where the code kept its lines), largest first,
 * over the window (whole profile without one): each sample counts the time until the next.
 */
export function selfTimes(
  profile: CpuProfile,
  root: string,
  window?: ProfileWindow,
): { total: number; busy: number; top: SelfTime[] } {
  const byNode = new Map<number, number>();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const lasts = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (window && (t < window.fromUs || t >= window.toUs)) continue;
    const id = profile.samples[i]!;
    byNode.set(id, (byNode.get(id) ?? 0) + lasts);
    total += lasts;
  }
  const byName = new Map<string, number>();
  for (const n of profile.nodes) {
    const ms = byNode.get(n.id);
    if (!ms) continue;
    const f = n.callFrame;
    const file = where(f.url, root);
    // Code loaded through tsx reported every function on line 1: a line there says nothing.
    const line = f.lineNumber > 0 ? `:${f.lineNumber + 1}` : '';
    const name = waiting(f) ? WAITING : `${f.functionName || '(anonymous)'}${file ? ` ${file}${line}` : ''}`;
    byName.set(name, (byName.get(name) ?? 0) + ms);
  }
  // (program) is native time V8 cannot attribute (libuv, sharp, the engine itself): kept, shown.
  const busy = total - (byName.get('(idle)') ?? 0) - (byName.get(WAITING) ?? 0);
  const top = [...byName]
    .filter(([name]) => name !== '(idle)' && name !== WAITING)
    .map(([name, ms]) => ({ name, ms, share: busy > 0 ? ms / busy : 0 }))
    .sort((a, b) => b.ms - a.ms);
  return { total, busy, top };
}

export function threadOf(profile: CpuProfile): string {
  const urls = profile.nodes.map((n) => n.callFrame.url);
  for (const [file, thread] of THREADS) if (urls.some((u) => u.endsWith(file) || u === file)) return thread;
  return 'other thread';
}

/** Every profile in a folder, busiest first (over the window, if given). */
export function readProfiles(dir: string, root: string, window?: ProfileWindow, topN = 12): ThreadProfile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((file) => {
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
      const { total, busy, top } = selfTimes(profile, root, window);
      return { file, thread: threadOf(profile), totalMs: total, busyMs: busy, top: top.slice(0, topN) };
    })
    .sort((a, b) => b.busyMs - a.busyMs);
}
