/**
 * Summaries of the CPU profiles `node --cpu-prof` writes (one .cpuprofile per thread: the
 * server's main thread, the vision worker, the synthetic renderer…): sampled time per thread and
 * the functions with the most self time.
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
];

function where(url: string, root: string): string {
  if (!url) return '';
  const path = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return inModules[1]!;
  return path.startsWith('/') ? relative(root, path) : path;
}

/** Self time by function (name, file and line), largest first. */
export function selfTimes(
  profile: CpuProfile,
  root: string,
): { total: number; busy: number; top: SelfTime[] } {
  const total = (profile.endTime - profile.startTime) / 1000;
  const perSample = profile.samples.length > 0 ? total / profile.samples.length : 0;
  const byNode = new Map<number, number>();
  for (const s of profile.samples) byNode.set(s, (byNode.get(s) ?? 0) + 1);
  const byName = new Map<string, number>();
  for (const n of profile.nodes) {
    const count = byNode.get(n.id);
    if (!count) continue;
    const f = n.callFrame;
    const file = where(f.url, root);
    const name = `${f.functionName || '(anonymous)'}${file ? ` ${file}:${f.lineNumber + 1}` : ''}`;
    byName.set(name, (byName.get(name) ?? 0) + count * perSample);
  }
  // (program) is native time V8 cannot attribute (libuv, sharp, the engine itself): kept, shown.
  const busy = total - (byName.get('(idle)') ?? 0);
  const top = [...byName]
    .filter(([name]) => name !== '(idle)')
    .map(([name, ms]) => ({ name, ms, share: busy > 0 ? ms / busy : 0 }))
    .sort((a, b) => b.ms - a.ms);
  return { total, busy, top };
}

export function threadOf(profile: CpuProfile): string {
  const urls = profile.nodes.map((n) => n.callFrame.url);
  for (const [file, thread] of THREADS) if (urls.some((u) => u.endsWith(file))) return thread;
  return 'other thread';
}

/** Every profile in a folder, busiest first. */
export function readProfiles(dir: string, root: string, topN = 12): ThreadProfile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((file) => {
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
      const { total, busy, top } = selfTimes(profile, root);
      return { file, thread: threadOf(profile), totalMs: total, busyMs: busy, top: top.slice(0, topN) };
    })
    .sort((a, b) => b.busyMs - a.busyMs);
}
