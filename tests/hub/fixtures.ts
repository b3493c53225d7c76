import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { BattleRecorder } from '../../src/record/recorder.ts';
import { rosterOf } from '../../src/record/roster.ts';
import { BattleStore } from '../../src/record/store.ts';
import { SyntheticBattle } from '../../src/record/synthetic-battle.ts';
import { verdict } from '../../src/rules/engine/verdict.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { FramePicture } from '../../src/vision/frame-picture.ts';

/** A table's record made up for the hub tests: a synthetic battle recorded into a data folder. */

export const DEMO = 'scenarios/prestonpans-demo.json';

export async function tinyJpeg(shade = 120): Promise<Buffer> {
  return sharp({ create: { width: 160, height: 90, channels: 3, background: { r: shade, g: 90, b: 60 } } })
    .jpeg({ quality: 60 })
    .toBuffer();
}

/** Records `durationMs` of a synthetic battle (moves, keyframes, inferred turns, pictures, rulings, notes). */
export async function recordBattle(
  dataDir: string,
  options: { startedAt: number; durationMs: number; name?: string; end?: boolean },
): Promise<{ battleId: number; uid: string }> {
  const roster = rosterOf(parseScenarioText(readFileSync(DEMO, 'utf8')));
  const store = BattleStore.inDataDir(dataDir);
  const battle = new SyntheticBattle(roster, options.startedAt, options.durationMs, {
    moveEveryMs: 1500,
    moveDurationMs: 300,
    turnMs: 6000,
  });
  const rec = BattleRecorder.start(
    store,
    { name: options.name ?? 'hub test battle', roster, camera: null, startedAt: options.startedAt },
    { settle: { frames: 3 }, keyframeEveryMs: 5000 },
  );
  const picture = FramePicture.ofJpeg(await tinyJpeg());
  const frames = Math.floor(options.durationMs / battle.frameIntervalMs);
  for (let i = 0; i < frames; i++) {
    const frame = battle.frame(i);
    rec.onFrame({ ...frame, picture });
    if (i % 20 === 10)
      rec.ruling(
        verdict({
          ruleset: 'test',
          question: 'tick',
          asked: `tick ${i}?`,
          answer: i % 40 === 10 ? 'yes' : 'no',
        }),
        `tick ${i}?`,
        undefined,
        frame.at,
      );
    if (i % 100 === 50) rec.annotate(`note ${i}`, { x: 100, y: 200 }, 'umpire');
    // Let the picture encoder finish now and then, so pictures are kept.
    if (i % 50 === 0) await new Promise((r) => setTimeout(r, 5));
  }
  if (options.end !== false) await rec.stop();
  store.flush();
  const uid = store.battle(rec.battleId).uid;
  store.close();
  return { battleId: rec.battleId, uid };
}
