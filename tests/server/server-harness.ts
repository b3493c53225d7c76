import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/app.ts';
import { frameTable } from '../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import type { Scenario } from '../../src/table/scenario.ts';

/** What the server tests share: starting the real server, its socket address, waiting on it. */

export const DEMO = 'scenarios/prestonpans-demo.json';

/** The real server on a free loopback port; the Prestonpans demo on the still synthetic camera unless told. */
export function startTestServer(options: Partial<ServerOptions> = {}): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    scenarioPath: DEMO,
    source: { kind: 'synthetic', moving: false },
    ...options,
  });
}

/** The server's live WebSocket address. */
export const liveUrl = (server: { readonly url: string }): string =>
  server.url.replace('http', 'ws') + '/live';

/** A temporary folder with copies of scenarios/ and calibration/, for a server that may write to them. */
export function copiedData(prefix: string): { dir: string; scenariosDir: string; calibrationDir: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const scenariosDir = join(dir, 'scenarios');
  const calibrationDir = join(dir, 'calibration');
  cpSync('scenarios', scenariosDir, { recursive: true });
  cpSync('calibration', calibrationDir, { recursive: true });
  return { dir, scenariosDir, calibrationDir };
}

/** Polls `test` every `pollMs` until it holds; throws after `timeoutMs`. */
export async function until(
  what: string,
  test: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  pollMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await test()) return;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The synthetic 1080p table's first frame, and that frame as a JPEG of the given quality. */
export async function syntheticJpeg(scenario: Scenario, quality: number) {
  const table = await LiveSyntheticTable.create(
    scenario,
    frameTable(scenario.table, { resolution: '1080p' }),
  );
  const { image } = table.frame(0);
  const jpeg = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
  return { table, image, jpeg };
}
