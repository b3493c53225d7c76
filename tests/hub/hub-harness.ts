import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

/** What the hub tests share: `vedette` child processes, waiting on them, a TCP proxy that can be cut. */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const ORGANISER = 'organiser-token-for-the-hub-tests';

export interface Child {
  readonly proc: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): Promise<number | string>;
}

/** Runs `node bin/vedette.js <args>` from the repository root. */
export function vedette(args: readonly string[], name: string): Child {
  const proc = spawn(process.execPath, ['bin/vedette.js', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, VEDETTE_HUB_TOKEN: '' },
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<number | string>((resolve) =>
    proc.once('exit', (code, signal) => resolve(code ?? signal ?? 'gone')),
  );
  return {
    proc,
    output: () => `--- ${name} ---\n${out}`,
    exited,
    kill(signal) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** Runs a short `vedette` command to its end; returns its output, or throws with it. */
export async function vedetteOnce(args: readonly string[]): Promise<string> {
  const child = vedette(args, args.join(' '));
  const code = await child.exited;
  if (code !== 0) throw new Error(`vedette ${args.join(' ')} exited ${code}\n${child.output()}`);
  return child.output();
}

export async function until(
  what: string,
  test: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  pollMs = 200,
  details: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await test()) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`timed out waiting for ${what}\n${details()}`);
}

export async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * A TCP proxy on loopback in front of a server: `cut()` drops every connection through it and
 * refuses new ones (a network cut as the table sees it) until `restore()`.
 */
export class CuttableProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private isCut = false;
  port = 0;

  constructor(private readonly targetPort: number) {
    this.server = createServer((client) => {
      if (this.isCut) return void client.destroy();
      const upstream = createConnection({ host: '127.0.0.1', port: this.targetPort });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  cut(): void {
    this.isCut = true;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.isCut = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
