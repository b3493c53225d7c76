/**
 * Replay benchmark (issue #7): records a synthetic three-hour battle tracked at 10 Hz (tracked
 * poses made directly, no rendering; one real rendered table picture is the camera frame, kept
 * small at each settle point), then seeks to many moments. Prints the file size, the recorder's
 * cost per frame against the 100 ms a 10 Hz frame allows, and seek times, each with a ratio
 * against a reference measured in the same process. Never fails on time.
 *
 *   npm run bench -- replay [hours=3] [seeks=300]
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { BattleRecorder } from '../src/record/recorder.ts';
import { applyMoves } from '../src/record/replay-state.ts';
import { rosterOf } from '../src/record/roster.ts';
import { BattleStore, moveFromRow, STORE_FILE } from '../src/record/store.ts';
import { SyntheticBattle } from '../src/record/synthetic-battle.ts';
import { frameTable } from '../src/synth/camera.ts';
import { LiveSyntheticTable } from '../src/synth/live-table.ts';
import { parseScenarioText } from '../src/table/scenario.ts';
import { FramePicture } from '../src/vision/frame-picture.ts';

const hours = Number(process.argv[2] ?? 3);
const seeks = Number(process.argv[3] ?? 300);
const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));
const roster = rosterOf(scenario);

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return {
    mean: xs.reduce((a, b) => a + b, 0) / xs.length,
    p50: q(0.5),
    p95: q(0.95),
    p99: q(0.99),
    max: s[s.length - 1]!,
  };
};
const ms = (x: number) => `${x.toFixed(3)} ms`;

// One real picture of the table as the camera frame (1080p JPEG, as the live loop makes).
const table = await LiveSyntheticTable.create(scenario, frameTable(scenario.table, { resolution: '1080p' }));
const image = table.frameWithPoses({}, 1).image;
const picture = FramePicture.ofJpeg(
  await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer(),
);

const dir = mkdtempSync(join(tmpdir(), 'vedette-bench-replay-'));
try {
  const startedAt = Date.UTC(2026, 0, 1, 10);
  const battle = new SyntheticBattle(roster, startedAt, hours * 3_600_000, { seed: 1 });
  const n = battle.frameCount;
  console.log(
    `battle: ${hours} h at 10 Hz = ${n} frames, ${roster.units.reduce((s, u) => s + u.bases.length, 0)} bases, ${battle.scheduledMoves} unit moves scheduled`,
  );

  // Reference: making the frames alone (the synthetic tracker's output), same process.
  let t0 = performance.now();
  for (let i = 0; i < n; i++) battle.frame(i);
  const makeMs = performance.now() - t0;

  const store = BattleStore.inDataDir(dir);
  const rec = BattleRecorder.start(store, { name: 'bench', roster, camera: table.profile, startedAt });
  const perFrame: number[] = [];
  let over = 0;
  t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const f = battle.frame(i);
    const a = performance.now();
    rec.onFrame({ ...f, picture, pose: null });
    const d = performance.now() - a;
    perFrame.push(d);
    if (d > 100) over++;
    // The live loop yields between frames; so does this (pictures are resized off the loop).
    if (i % 50 === 0) await new Promise((r) => setImmediate(r));
  }
  await rec.stop();
  const recordMs = performance.now() - t0;
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  const size = statSync(join(dir, STORE_FILE)).size;
  const s = store.battle(rec.battleId);
  const f = stats(perFrame);
  console.log(
    `recorded: ${s.moves} base moves, ${store.snapshots(rec.battleId).length} pictures, ${store.keyframes(rec.battleId).length} keyframes`,
  );
  console.log(
    `file: ${(size / 1024 / 1024).toFixed(2)} MiB (${(size / hours / 1024 / 1024).toFixed(2)} MiB per hour)`,
  );
  console.log(
    `recorder per frame: mean ${ms(f.mean)}, p99 ${ms(f.p99)}, max ${ms(f.max)}; frames over the 100 ms budget: ${over} of ${n} (dropped: 0, every frame was recorded)`,
  );
  console.log(
    `whole recording ${(recordMs / 1000).toFixed(1)} s for ${hours} h of battle (${((hours * 3_600_000) / recordMs).toFixed(0)}× real time); ` +
      `ratio to making the frames alone (${(makeMs / 1000).toFixed(1)} s): ${(recordMs / makeMs).toFixed(2)}`,
  );

  // Seeks: keyframe + moves (the store) against the reference of replaying every move from the start.
  const moments = Array.from(
    { length: seeks },
    (_, k) => startedAt + Math.floor(((k * 0.618034) % 1) * hours * 3_600_000),
  );
  const all = store.db.prepare('SELECT * FROM moves WHERE battle_id = ? AND t <= ? ORDER BY t, id');
  for (const t of moments.slice(0, 10)) store.seek(rec.battleId, t); // warm
  const seekTimes = moments.map((t) => {
    const a = performance.now();
    store.seek(rec.battleId, t);
    return performance.now() - a;
  });
  const naiveTimes = moments.slice(0, Math.min(60, seeks)).map((t) => {
    const a = performance.now();
    applyMoves([], (all.all(rec.battleId, t) as Array<Record<string, unknown>>).map(moveFromRow));
    return performance.now() - a;
  });
  // A fresh process-like cold open: reopen the file and seek once.
  store.close();
  const a = performance.now();
  const cold = BattleStore.inDataDir(dir);
  cold.seek(rec.battleId, startedAt + hours * 3_600_000 * 0.77);
  const coldMs = performance.now() - a;
  const replayA = performance.now();
  const data = cold.replay(rec.battleId);
  const replayMs = performance.now() - replayA;
  cold.close();
  const sk = stats(seekTimes);
  const nv = stats(naiveTimes);
  console.log(
    `seek (${seeks} moments): mean ${ms(sk.mean)}, p95 ${ms(sk.p95)}, max ${ms(sk.max)} (target ≤ 100 ms)`,
  );
  console.log(
    `reference seek replaying every move from the start: mean ${ms(nv.mean)}, max ${ms(nv.max)}; ratio keyframe/reference ${(sk.mean / nv.mean).toFixed(3)}`,
  );
  console.log(
    `open the file and seek once: ${ms(coldMs)}; whole replay data for the page (${data.moves.length} moves, JSON ${(JSON.stringify(data).length / 1024).toFixed(0)} KiB): ${ms(replayMs)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
