import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveRecording } from '../../src/record/live-recording.ts';
import type { Verdict } from '../../src/rules/engine/verdict.ts';
import { defaultSyntheticProfile } from '../../src/synth/calibration.ts';
import { recordable, scenarioNow, scenarioNowFile, scenarioThen } from '../support/recorded-charge.ts';

/**
 * `vedette rules --battle`: the real CLI asked about a recorded battle reads the table the
 * recording holds at the moment asked, and the table at the last turn mark before it, so Black
 * Powder's charged face comes from the recorded pose history (spec §5.9).
 */

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'vedette-rules-battle-'));
const scenarioPath = join(dir, 'charge.json');

beforeAll(async () => {
  // The scenario file holds the charger where it ends up: the file's poses must not be what is read.
  writeFileSync(scenarioPath, JSON.stringify(scenarioNowFile()));
  const loop = new EventEmitter();
  const recording = LiveRecording.attach(
    loop,
    { scenario: () => scenarioThen, camera: () => defaultSyntheticProfile('720p') },
    { dataDir: dir, recorder: { snapshotWidth: 0 } },
  );
  const t0 = recording.store!.battle(recording.currentBattleId!).startedAt;
  for (let ms = 0; ms <= 1000; ms += 100) loop.emit('frame', recordable(scenarioThen, t0 + ms));
  recording.current!.mark({ kind: 'turn', side: 'red', t: t0 + 1000 });
  for (let ms = 1100; ms <= 2500; ms += 100) loop.emit('frame', recordable(scenarioNow, t0 + ms));
  await recording.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function chargeFace(...extra: string[]): Promise<Verdict> {
  const args = [resolve('bin/vedette.js'), '--data', dir, 'rules', scenarioPath, '--json'];
  const { stdout } = await run('node', [...args, '--ask', "can 'C' charge 'T'?", ...extra], {
    timeout: 120_000,
  });
  const find = (v: Verdict): Verdict | undefined =>
    v.question === 'chargeFace' ? v : v.checks.map(find).find((x) => x !== undefined);
  const face = find((JSON.parse(stdout) as Verdict[])[0]!);
  expect(face).toBeDefined();
  return face!;
}

describe('vedette rules --battle', () => {
  it(
    'reads the face from the leader at the last turn mark, not from the file or the table now',
    { timeout: 150_000 },
    async () => {
      const file = await chargeFace();
      expect(file.facts).toMatchObject({ face: 'front', leaderFrom: 'now' });
      const end = await chargeFace('--battle', '1');
      expect(end.facts).toMatchObject({ face: 'left', leaderFrom: 'history' });
      expect(end.reasons[0]).toMatch(/at the start of the turn \(recorded\)/);
      // Half a second in, before the turn mark: the recorded table then, read as it stood.
      const before = await chargeFace('--battle', '1', '--at', '0.5');
      expect(before.facts).toMatchObject({ face: 'left', leaderFrom: 'now' });
    },
  );
});
