import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveRecording } from '../../src/record/live-recording.ts';
import { refereeRoutes } from '../../src/server/referee-routes.ts';
import { RulesWorker } from '../../src/server/rules-worker-client.ts';
import { defaultSyntheticProfile } from '../../src/synth/calibration.ts';
import { moved, recordable, scenarioNow, scenarioThen } from '../support/recorded-charge.ts';
import { call, FakeContext, frameFromFile, serve } from './route-support.ts';

/**
 * BP-E6 end to end in live play: the referee reads the charged face from where the charger's
 * leader stood at the turn mark the players made in the recording, not from where it stands now
 * (spec §5.9). The recording is fed frames as the live loop would; the referee asks the frame the
 * camera sees after the charger has moved.
 */

describe('referee: charge face from the recording', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vedette-turn-start-'));
  const loop = new EventEmitter();
  const recording = LiveRecording.attach(
    loop,
    { scenario: () => scenarioThen, camera: () => defaultSyntheticProfile('720p') },
    { dataDir, recorder: { snapshotWidth: 0 } },
  );
  class RecordedContext extends FakeContext {
    turnStartPoses() {
      return recording.turnStartPoses();
    }
  }
  const ctx = new RecordedContext(scenarioThen, frameFromFile(scenarioNow));
  let server: Awaited<ReturnType<typeof serve>>;
  const rules = new RulesWorker('test-turn-start');
  beforeAll(async () => void (server = await serve(refereeRoutes(ctx, rules))));
  afterAll(async () => {
    await server.close();
    await rules.close();
    await recording.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const chargeFace = async (): Promise<{ face: string; leaderFrom: string; reason: string }> => {
    const r = await call(`${server.url}/api/ask`, 'POST', { question: 'charge', a: 'C', b: 'T' });
    expect(r.status).toBe(200);
    type V = { question: string; facts: Record<string, string>; reasons: string[]; checks: V[] };
    const find = (v: V): V | undefined =>
      v.question === 'chargeFace' ? v : v.checks.map(find).find((x) => x !== undefined);
    const face = find(r.json['verdict'] as V);
    expect(face).toBeDefined();
    return { face: face!.facts['face']!, leaderFrom: face!.facts['leaderFrom']!, reason: face!.reasons[0]! };
  };

  it('before any turn mark the leader is read where it stands now', async () => {
    for (let at = 1000; at <= 2000; at += 100) loop.emit('frame', recordable(scenarioThen, at));
    const v = await chargeFace();
    expect(v).toMatchObject({ face: 'front', leaderFrom: 'now' });
  });

  it('after the players mark the turn, the face is the one the leader faced then', async () => {
    recording.current!.mark({ kind: 'turn', side: 'red' });
    // The charger moves into the target's front quarter and settles there.
    for (let at = 2100; at <= 3500; at += 100) loop.emit('frame', recordable(scenarioNow, at));
    const v = await chargeFace();
    expect(v).toMatchObject({ face: 'left', leaderFrom: 'history' });
    expect(v.reason).toMatch(/at the start of the turn \(recorded\)/);
    // The recording holds the move: the settled table now has the charger where the camera sees it.
    const poses = recording.store!.seek(recording.currentBattleId!, 3500).poses;
    const leaderBase = poses.find((p) => p.markerId === moved().bases[0]!.marker.id)!;
    expect(leaderBase.y).toBeCloseTo(moved().bases[0]!.pose!.y, 6);
  });

  it('a new turn mark after the move makes the new position the turn start', async () => {
    recording.current!.mark({ kind: 'turn', side: 'red' });
    loop.emit('frame', recordable(scenarioNow, 3600));
    expect(await chargeFace()).toMatchObject({ face: 'front', leaderFrom: 'history' });
  });
});
