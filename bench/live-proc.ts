/**
 * CPU time and memory of the server under test and of the processes it started (ffmpeg), read
 * from /proc (Linux): utime + stime of every thread of the process (worker threads included), and
 * the resident set size.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcTimes {
  readonly at: number;
  /** CPU seconds so far, by pid: the root process and each child alive at the time. */
  readonly cpuS: ReadonlyMap<number, number>;
  /** Resident set, bytes, by pid. */
  readonly rssBytes: ReadonlyMap<number, number>;
  /** Command name by pid. */
  readonly names: ReadonlyMap<number, string>;
}

export const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
export const PAGE_BYTES = Number(execFileSync('getconf', ['PAGESIZE']).toString().trim()) || 4096;

interface StatLine {
  readonly pid: number;
  readonly name: string;
  readonly ppid: number;
  readonly cpuS: number;
  readonly rssBytes: number;
}

/** /proc/<pid>/stat, or null when the process is gone. */
export function parseStat(text: string): StatLine | null {
  // The command name is in parentheses and may itself hold spaces or parentheses.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state): utime is field 14, stime 15, rss 24.
  const field = (n: number) => Number(rest[n - 3]);
  return {
    pid: Number(text.slice(0, open).trim()),
    name: text.slice(open + 1, close),
    ppid: field(4),
    cpuS: (field(14) + field(15)) / TICKS_PER_S,
    rssBytes: field(24) * PAGE_BYTES,
  };
}

function readStat(pid: number): StatLine | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** The process and its direct children, now. */
export function sampleProcesses(rootPid: number): ProcTimes {
  const lines: StatLine[] = [];
  const root = readStat(rootPid);
  if (root) lines.push(root);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = readStat(Number(entry));
    if (s && s.ppid === rootPid) lines.push(s);
  }
  return {
    at: Date.now(),
    cpuS: new Map(lines.map((l) => [l.pid, l.cpuS])),
    rssBytes: new Map(lines.map((l) => [l.pid, l.rssBytes])),
    names: new Map(lines.map((l) => [l.pid, l.name])),
  };
}

/**
 * Cores used between two samples (CPU seconds / wall seconds): the root process, and its
 * children by command name (a child started in between counts from zero).
 */
export function coresBetween(
  a: ProcTimes,
  b: ProcTimes,
  rootPid: number,
): { readonly root: number; readonly children: ReadonlyMap<string, number> } {
  const wallS = (b.at - a.at) / 1000;
  let root = 0;
  const children = new Map<string, number>();
  for (const [pid, cpu] of b.cpuS) {
    const used = (cpu - (a.cpuS.get(pid) ?? 0)) / wallS;
    if (pid === rootPid) root = used;
    else {
      const name = b.names.get(pid) ?? String(pid);
      children.set(name, (children.get(name) ?? 0) + used);
    }
  }
  return { root, children };
}
