import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Command } from 'commander';
import { ScenarioError } from '../table/scenario.ts';
import { StoreDamagedError } from '../record/store-check.ts';

/**
 * How the `vedette` command fails: one line that names the thing and what to do, a non-zero exit
 * status, and no stack trace unless `--debug` is given. Commands throw `CliError` for mistakes they
 * recognise; anything else (a missing file, a port in use) is put into words here.
 */

export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    /** 2: bad input (the default); 1: the machine (a port, a device); 3: nothing could be measured. */
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

interface SystemError extends Error {
  code?: string;
  path?: string;
  port?: number;
  syscall?: string;
}

/** One line for any failure. */
export function describeFailure(err: unknown): { message: string; exitCode: number } {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof ScenarioError) return { message: err.message, exitCode: 2 };
  // A damaged store's message is the one failure that lists steps: it is shown whole.
  if (err instanceof StoreDamagedError) return { message: err.message, exitCode: 2 };
  const e = err instanceof Error ? (err as SystemError) : null;
  if (e?.code === 'EADDRINUSE')
    return {
      message: `port ${e.port ?? ''} is already in use (another Vedette or another server?): stop it, or choose another with --port`,
      exitCode: 1,
    };
  if (e?.code === 'EACCES' && e.syscall === 'listen')
    return {
      message: `not allowed to listen on port ${e.port ?? ''}: choose a port above 1023 with --port`,
      exitCode: 1,
    };
  if (e?.code === 'ENOENT' && e.path)
    return {
      message: `${e.path} not found: check the file name and the folder you run vedette from`,
      exitCode: 2,
    };
  if (e?.code === 'EISDIR' && e.path)
    return { message: `${e.path} is a folder, not a file: give the file inside it`, exitCode: 2 };
  const text = e ? e.message : String(err);
  return { message: text.split('\n')[0] ?? text, exitCode: 1 };
}

/** A file the command needs, or a one-line error naming it and the option it came from. */
export function requireFile(path: string, what: string): string {
  if (!existsSync(path))
    throw new CliError(`${what} ${path} not found: check the name (and the folder you run vedette from)`);
  return path;
}

/** --port: a whole number 1–65535 (0: any free port). */
export function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(n) || n < 0 || n > 65535)
    throw new CliError(`--port must be a whole number from 1 to 65535, not "${text}"`);
  return n;
}

/** Fails at once, in words, when the port is taken (instead of after starting the camera). */
export function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: SystemError) => {
      if (err.code === 'EADDRINUSE' || err.code === 'EACCES') {
        err.port ??= port;
        reject(err);
      } else resolve(); // not ours to judge: the real listen will say
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** Edit distance with transpositions (Damerau, optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** Every command path ("print markers") with its options' long names. */
function commandTree(program: Command, prefix = ''): Array<{ path: string; options: string[] }> {
  return program.commands.flatMap((c) => {
    const path = `${prefix}${c.name()}`;
    return [
      { path, options: c.options.map((o) => o.long ?? '').filter(Boolean) },
      ...commandTree(c, `${path} `),
    ];
  });
}

/**
 * "Did you mean": the nearest command (within two edits), else an option of some command that the
 * word spells nearly (`tabel` → `print mat --table`), else the list of commands.
 */
export function suggestFor(program: Command, word: string, within: readonly string[] = []): string {
  const tree = commandTree(program).filter(
    (c) => within.length === 0 || c.path.startsWith(`${within.join(' ')} `),
  );
  const names = tree.map((c) => ({ path: c.path, name: c.path.split(' ').at(-1)! }));
  const near = names
    .map((c) => ({ ...c, d: editDistance(word.toLowerCase(), c.name) }))
    .filter((c) => c.d <= 2)
    .sort((a, b) => a.d - b.d)[0];
  if (near) return `did you mean "vedette ${near.path}"?`;
  const option = tree
    .flatMap((c) =>
      c.options.map((o) => ({ path: c.path, o, d: editDistance(word.toLowerCase(), o.replace(/^--/, '')) })),
    )
    .filter((x) => x.d <= 2)
    .sort((a, b) => a.d - b.d)[0];
  if (option) return `did you mean "vedette ${option.path} ${option.o} …"?`;
  const top = (
    within.length
      ? tree.filter((c) => c.path.split(' ').length === within.length + 1)
      : tree.filter((c) => !c.path.includes(' '))
  ).map((c) => c.path);
  return `the commands are: ${top.join(', ')} (vedette --help)`;
}
