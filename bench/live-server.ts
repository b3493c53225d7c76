/**
 * The server under test in the live benchmark, in a process of its own (so that its CPU time,
 * memory and CPU profile are its own): `vedette serve`'s camera choice (sourceFromOptions) and
 * its server (startServer, the same app and live loop), on a free loopback port, recording into
 * a temporary data folder as `serve` records into .vedette/. Started by bench/live.ts with an
 * IPC channel; says where it listens (and the synthetic camera's clock), stops when told.
 *
 *   node --import ./bin/ts.js bench/live-server.ts '{"dataDir":"…","url":"http://…/video","camera":"…json"}'
 */
import { DEFAULT_SCENARIO, sourceFromOptions } from '../src/cli/serve-command.ts';
import { startServer } from '../src/server/app.ts';
import { SyntheticSource } from '../src/vision/sources/synthetic-source.ts';

export interface LaunchOptions {
  readonly dataDir: string;
  /** An MJPEG stream (`serve --url`) with its camera profile (`--camera`); else the synthetic table. */
  readonly url?: string;
  readonly camera?: string;
  /** Synthetic table: every unit still (`serve --still`). */
  readonly still?: boolean;
}

export type FromLiveServer =
  | { readonly type: 'ready'; readonly url: string; readonly syntheticStartedAt: number | null }
  | { readonly type: 'failed'; readonly message: string };

async function main(): Promise<void> {
  const o = JSON.parse(process.argv[2] ?? '{}') as LaunchOptions;
  const source = sourceFromOptions({
    port: '0',
    scenario: DEFAULT_SCENARIO,
    ...(o.url ? { url: o.url } : {}),
    ...(o.camera ? { camera: o.camera } : {}),
    ...(o.still ? { still: true } : {}),
  });
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    scenarioPath: DEFAULT_SCENARIO,
    source,
    record: { dataDir: o.dataDir },
  });
  const camera = server.loop.currentSource;
  const ready: FromLiveServer = {
    type: 'ready',
    url: server.url,
    syntheticStartedAt: camera instanceof SyntheticSource ? camera.startedAt : null,
  };
  process.send?.(ready);
  const stop = () =>
    void server
      .close()
      .catch(() => undefined)
      .then(() => process.exit(0));
  process.on('message', (m) => {
    if (m === 'stop') stop();
  });
  process.once('disconnect', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  const failed: FromLiveServer = {
    type: 'failed',
    message: err instanceof Error ? err.message : String(err),
  };
  process.send?.(failed);
  process.exit(1);
});
