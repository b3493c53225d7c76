import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express, { type Router } from 'express';
import { defaultSyntheticProfile } from '../../src/synth/calibration.ts';
import type { LiveFrame } from '../../src/server/live-loop.ts';
import { snapshotOf } from '../../src/server/live-state.ts';
import type { RouteContext } from '../../src/server/route-context.ts';
import { fileObservations } from '../../src/table/measured-units.ts';
import type { Scenario } from '../../src/table/scenario.ts';
import type { PipelineResult } from '../../src/vision/pipeline.ts';
import { FramePicture } from '../../src/vision/frame-picture.ts';

/** A processed frame in which every base stands at its scenario pose, seen, with a stable table pose. */
export function frameFromFile(
  scenario: Scenario,
  jpeg: Buffer = Buffer.alloc(0),
  unknownIds: number[] = [],
): LiveFrame {
  const bases = fileObservations(scenario).map((o) => ({ ...o, lastSeenAt: 0 }));
  const result: PipelineResult = {
    sequence: 7,
    capturedAt: 0,
    detections: [],
    located: {
      table: {
        pose: { rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 1000] },
        rmsPx: 0.1,
        referenceIds: [],
        rejectedIds: [],
        status: 'stable',
        shiftPx: null,
      },
      bases,
      unknownIds,
    },
    bases,
    detectionMs: 1,
    locateMs: 1,
  } as unknown as PipelineResult;
  return { picture: FramePicture.ofJpeg(jpeg), snapshot: snapshotOf(scenario, result), latencyMs: 1 };
}

export class FakeContext implements RouteContext {
  replaced = 0;
  constructor(
    private current: Scenario,
    public frame: LiveFrame | undefined,
  ) {}
  scenario(): Scenario {
    return this.current;
  }
  camera() {
    return defaultSyntheticProfile('720p');
  }
  latest(): LiveFrame | undefined {
    return this.frame;
  }
  recentUnknownIds(): readonly number[] {
    return this.frame?.snapshot.result.located.unknownIds ?? [];
  }
  async replaceScenario(next: Scenario): Promise<void> {
    this.current = next;
    this.replaced += 1;
    this.frame = frameFromFile(next, this.frame ? await this.frame.picture.jpeg() : undefined);
  }
}

export async function serve(...routers: Router[]): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  for (const r of routers) app.use(r);
  const http: Server = createServer(app);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => http.close(() => r())) };
}

export async function call(
  url: string,
  method: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
