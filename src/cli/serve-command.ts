import type { Command } from 'commander';
import { startServer } from '../server/app.ts';
import type { SourceSpec } from '../vision/sources/create-source.ts';
import { DEFAULT_CAMERA_PROFILE } from './measure-command.ts';

export const DEFAULT_SCENARIO = 'scenarios/prestonpans-demo.json';

interface ServeOptions {
  port: string;
  host: string;
  scenario: string;
  images?: string[];
  camera: string;
  still?: boolean;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('watch the table and serve the live page (default: the built-in synthetic table)')
    .option('--port <n>', 'HTTP port', '8080')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--scenario <file>', 'scenario file', DEFAULT_SCENARIO)
    .option('--images <files...>', 'use still images (looped) as the camera instead of the synthetic table')
    .option('--camera <profile>', 'camera profile for --images', DEFAULT_CAMERA_PROFILE)
    .option('--still', 'synthetic table: keep every unit still')
    .action(async (opts: ServeOptions) => {
      const source: SourceSpec = opts.images
        ? { kind: 'images', paths: opts.images, cameraPath: opts.camera }
        : { kind: 'synthetic', moving: !opts.still };
      const server = await startServer({ port: Number(opts.port), host: opts.host, scenarioPath: opts.scenario, source });
      console.log(`Vedette is watching "${server.scenario().name}" — open ${server.url}`);
      const shutdown = () => {
        void server.close().then(() => process.exit(0));
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    });
}
