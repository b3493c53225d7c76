/**
 * Hub benchmark (issue #17): a real PostgreSQL (Debian's, in a temporary folder, default durable
 * settings), `vedette hub` as child processes, simulated tables and spectators in this process
 * (bench/hub-load.ts). Two runs: one hub process, then two on the same database with every
 * spectator on the other process than its table's upload (every picture crosses processes
 * through PostgreSQL). Prints events ingested per second, table-to-spectator latency (p50, p95),
 * what reached the spectators, the hub processes' CPU, the database size per battle-hour, and
 * that every event arrived exactly once. Never fails on time.
 *
 *   npm run bench -- hub [tables=50] [spectators=500] [seconds=20] [movesPerSecond=10]
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { startLocalPostgres } from '../src/hub/db/local-postgres.ts';
import { addTable } from '../src/hub/store/tables.ts';
import { frameTable } from '../src/synth/camera.ts';
import { LiveSyntheticTable } from '../src/synth/live-table.ts';
import { parseScenarioText } from '../src/table/scenario.ts';
import { freePort } from '../tests/hub/pg-harness.ts';
import { SimTable, Spectators } from './hub-load.ts';

const tables = Number(process.argv[2] ?? 50);
const spectatorCount = Number(process.argv[3] ?? 500);
const seconds = Number(process.argv[4] ?? 20);
const movesPerSecond = Number(process.argv[5] ?? 10);
const FPS = 4;
const ORGANISER = 'bench-organiser-token-0123456789';
const EVENT_TABLES = ['battles', 'moves', 'rulings', 'keyframes', 'snapshots', 'marks', 'annotations'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : NaN;
};

/** CPU seconds used so far by a process (user + system, from /proc). */
function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

async function startHubProcess(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['bin/vedette.js', 'hub', '--database', databaseUrl, '--port', String(port), '--organiser-token', ORGANISER, '--public', '--max-connections', '20'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/hub/api/health`)).ok) return child;
    } catch {
      /* starting */
    }
    await sleep(100);
  }
  throw new Error('the hub did not start');
}

async function eventRows(pool: pg.Pool): Promise<number> {
  const r = await pool.query(`SELECT ${EVENT_TABLES.slice(1).map((t) => `(SELECT count(*) FROM ${t})`).join(' + ')} AS n`);
  return Number(r.rows[0].n);
}

async function run(label: string, processes: 1 | 2, db: Awaited<ReturnType<typeof startLocalPostgres>>, frame: Buffer, snapshot: Buffer) {
  const databaseUrl = await db.ensureDatabase(processes === 1 ? 'bench_one' : 'bench_two');
  const ports = [await freePort(), await freePort()].slice(0, processes);
  const hubs = [];
  for (const port of ports) hubs.push(await startHubProcess(databaseUrl, port));
  const urls = ports.map((p) => `http://127.0.0.1:${p}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const sims: SimTable[] = [];
  for (let i = 0; i < tables; i++) {
    const id = `table-${i + 1}`;
    const { token } = await addTable(pool, { id, players: [`Player ${2 * i + 1}`, `Player ${2 * i + 2}`] });
    sims.push(new SimTable({ id, token, hubUrl: urls[i % processes]!, movesPerSecond, fps: FPS, frame, snapshot }));
  }
  for (const s of sims) s.start();
  // Spectators spread over the tables; with two processes each watches through the process its table does not upload to.
  const spectators = new Spectators(
    Array.from({ length: spectatorCount }, (_, k) => {
      const t = k % tables;
      return `${urls[(t + processes - 1) % processes]!.replace('http', 'ws')}/hub/live/table-${t + 1}`;
    }),
  );
  await sleep(5000); // warm up: sockets open, outboxes caught up
  const rows0 = await eventRows(pool);
  const written0 = sims.reduce((s, t) => s + t.written, 0);
  const sent0 = sims.reduce((s, t) => s + t.framesSent, 0);
  const cpu0 = hubs.map((h) => cpuSeconds(h.pid!));
  const t0 = Date.now();
  spectators.measuring = true;
  await sleep(seconds * 1000);
  spectators.measuring = false;
  const elapsed = (Date.now() - t0) / 1000;
  const rows1 = await eventRows(pool);
  const written1 = sims.reduce((s, t) => s + t.written, 0);
  const sent1 = sims.reduce((s, t) => s + t.framesSent, 0);
  const cpu1 = hubs.map((h) => cpuSeconds(h.pid!));
  const open = spectators.open;
  spectators.close();
  for (const s of sims) s.stopWriting();
  // Drain: every event of every table's record must reach the hub, once.
  const local = () => sims.reduce((s, t) => s + t.localCount(), 0);
  const drainStart = Date.now();
  let hubRows = await eventRows(pool);
  while (hubRows < local() && Date.now() - drainStart < 60_000) {
    await sleep(250);
    hubRows = await eventRows(pool);
  }
  const drainS = (Date.now() - drainStart) / 1000;
  const localRows = local();
  const battleHours = sims.reduce((s, t) => s + (t.lastEventAt - t.startedAt), 0) / 3_600_000;
  const size = await pool.query(`SELECT ${EVENT_TABLES.map((t) => `pg_total_relation_size('${t}')`).join(' + ')} AS bytes`);
  const bytes = Number(size.rows[0].bytes);
  const frameRate = spectators.frames / elapsed;
  const offered = ((sent1 - sent0) / elapsed / tables) * spectatorCount;

  console.log(`\n${label}: ${tables} tables × ${movesPerSecond} moves/s, ${spectatorCount} spectators (${open} connected), ${FPS} frames/s per table (${(frame.length / 1024).toFixed(0)} KB each), ${elapsed.toFixed(1)} s measured`);
  console.log(`  events ingested        ${((rows1 - rows0) / elapsed).toFixed(0)} /s   (tables wrote ${((written1 - written0) / elapsed).toFixed(0)} /s)`);
  console.log(
    `  table → spectator      p50 ${q(spectators.latencies, 0.5).toFixed(0)} ms, p95 ${q(spectators.latencies, 0.95).toFixed(0)} ms, max ${q(spectators.latencies, 1).toFixed(0)} ms over ${spectators.latencies.length} state messages`,
  );
  console.log(
    `  pictures to spectators ${frameRate.toFixed(0)} /s of ${offered.toFixed(0)} /s offered (${((frameRate / offered) * 100).toFixed(0)} %; slow sockets skip whole frames), ${((frameRate * frame.length * 8) / 1e6).toFixed(0)} Mbit/s`,
  );
  console.log(`  hub CPU                ${cpu1.map((c, i) => `${(((c - cpu0[i]!) / elapsed) * 100).toFixed(0)} %`).join(' + ')} of one core`);
  console.log(`  database size          ${(bytes / 1e6).toFixed(1)} MB for ${battleHours.toFixed(2)} battle-hours: ${(bytes / 1e6 / battleHours).toFixed(1)} MB per battle-hour at ${movesPerSecond} moves/s`);
  console.log(`  exactly once           ${hubRows} events in the hub, ${localRows} in the tables' records ${hubRows === localRows ? '(equal)' : '(DIFFERENT)'}; drained in ${drainS.toFixed(1)} s after the tables stopped`);

  await Promise.all(sims.map((s) => s.close()));
  await pool.end();
  for (const h of hubs) h.kill('SIGTERM');
  await sleep(500);
}

const dir = mkdtempSync(join(tmpdir(), 'vedette-bench-pg-'));
const db = await startLocalPostgres({ dir, port: await freePort() });
try {
  const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));
  const live = await LiveSyntheticTable.create(scenario, frameTable(scenario.table, { resolution: '1080p' }));
  const { image } = live.frame(0);
  const raw = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  // What a table's uplink sends by default (960 px wide), and a kept picture (640 px, quality 70).
  const frame = await raw.clone().resize({ width: 960 }).jpeg({ quality: 75 }).toBuffer();
  const snapshot = await raw.clone().resize({ width: 640 }).jpeg({ quality: 70 }).toBuffer();
  console.log(`hub benchmark on ${cpus().length} cores (${cpus()[0]?.model ?? '?'}); PostgreSQL with its default (durable) settings`);
  await run('One hub process', 1, db, frame, snapshot);
  await run('Two hub processes, every spectator on the other one', 2, db, frame, snapshot);
} finally {
  db.stop('fast');
  rmSync(dir, { recursive: true, force: true });
}
