/**
 * Starting and stopping bench/live-server.ts (the server under test, as `vedette serve` starts it)
 * in a process of its own, for the live and page benchmarks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { FromLiveServer, LaunchOptions } from './live-server.ts';

export interface LiveServerProcess {
  readonly child: ChildProcess;
  /** Where it listens, once it does (or why it could not start). */
  readonly ready: Promise<FromLiveServer>;
}

/** Spawns the server; its output lines go to `log` (prefixed), its CPU profiles to `profileDir`. */
export function spawnLiveServer(
  options: LaunchOptions,
  o: { readonly log: (line: string) => void; readonly profileDir?: string },
): LiveServerProcess {
  const prof = o.profileDir ? ['--cpu-prof', '--cpu-prof-dir', o.profileDir] : [];
  const script = join(import.meta.dirname, 'live-server.ts');
  const child = spawn(
    process.execPath,
    [...prof, '--import', new URL('../bin/ts.js', import.meta.url).href, script, JSON.stringify(options)],
    {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  const forward = (d: Buffer) => {
    for (const line of d.toString().split('\n')) if (line.trim()) o.log(`  [server] ${line}`);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  const ready = new Promise<FromLiveServer>((resolve) => {
    child.once('message', (m) => resolve(m as FromLiveServer));
    child.once('exit', (code) => resolve({ type: 'failed', message: `server exited (code ${code})` }));
  });
  return { child, ready };
}

/** Asks the server to stop, and kills it if it has not within 20 s. */
export async function stopLiveServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.send('stop');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}
