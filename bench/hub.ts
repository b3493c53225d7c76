/**
 * Hub benchmark (issue #17): a real PostgreSQL (Debian's, in a temporary folder, default durable
 * settings), `vedette hub` as child processes, simulated tables and spectators in this process
 * (bench/hub-load.ts). Two runs: one hub process, then two on the same database with every
 * spectator on the other process than its table's upload (every picture crosses processes
 * through PostgreSQL). The load runs in two processes of its own (bench/hub-worker.ts: the tables;
 * the spectators) so it does not starve with what it measures. Prints events ingested per second, table-to-spectator latency (p50, p95),
 * what reached the spectators, the hub processes' CPU, the database size per battle-hour, and
 * that every event arrived exactly once. Never fails on time.
 *
 *   npm run bench -- hub [tables=50] [spectators=500] [seconds=20] [movesPerSecond=10]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const tables = Number(process.argv[2] ?? 50);
const spectatorCount = Number(process.argv[3] ?? 500);
const seconds = Number(process.argv[4] ?? 20);
const movesPerSecond = Number(process.argv[5] ?? 10);
const FPS = 4;
const ORGANISER = 'bench-organiser-token-0123456789';
const EVENT_TABLES = ['battles', 'moves', 'rulings', 'keyframes', 'snapshots', 'marks', 'annotations'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    [
      'bin/vedette.js',
      'hub',
      '--database',
      databaseUrl,
      '--port',
      String(port),
      '--organiser-token',
      ORGANISER,
      '--public',
      '--max-connections',
      '20',
    ],
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
  const r = await pool.query(
    `SELECT ${EVENT_TABLES.slice(1)
      .map((t) => `(SELECT count(*) FROM ${t})`)
      .join(' + ')} AS n`,
  );
  return Number(r.rows[0].n);
}

/** Runs a load process (bench/hub-worker.ts) and resolves with the JSON line it prints. */
function worker<T>(role: 'tables' | 'spectators', config: unknown, scratch: string): Promise<T> {
  const file = join(scratch, `${role}.json`);
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(
    process.execPath,
    ['--import', new URL('../bin/ts.js', import.meta.url).href, 'bench/hub-worker.ts', role, file],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line) reject(new Error(`the ${role} process exited ${code}`));
      else resolve(JSON.parse(line) as T);
    }),
  );
}

async function run(
  label: string,
  processes: 1 | 2,
  db: Awaited<ReturnType<typeof startLocalPostgres>>,
  frame: string,
  snapshot: string,
  frameBytes: number,
  scratch: string,
) {
  const databaseUrl = await db.ensureDatabase(processes === 1 ? 'bench_one' : 'bench_two');
  const ports = [await freePort(), await freePort()].slice(0, processes);
  const hubs = [];
  for (const port of ports) hubs.push(await startHubProcess(databaseUrl, port));
  const urls = ports.map((p) => `http://127.0.0.1:${p}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const list: Array<{ id: string; token: string; hubUrl: string }> = [];
  for (let i = 0; i < tables; i++) {
    const id = `table-${i + 1}`;
    const { token } = await addTable(pool, { id, players: [`Player ${2 * i + 1}`, `Player ${2 * i + 2}`] });
    list.push({ id, token, hubUrl: urls[i % processes]! });
  }
  // Spectators spread over the tables; with two processes each watches through the process its table does not upload to.
  const spectatorUrls = Array.from({ length: spectatorCount }, (_, k) => {
    const t = k % tables;
    return `${urls[(t + processes - 1) % processes]!.replace('http', 'ws')}/hub/live/table-${t + 1}`;
  });
  const measureFrom = Date.now() + 8000; // warm up: processes started, sockets open, outboxes caught up
  const measureTo = measureFrom + seconds * 1000;
  const tablesDone = worker<{ written: number; framesSent: number; localRows: number; battleHours: number }>(
    'tables',
    {
      tables: list,
      movesPerSecond,
      fps: FPS,
      frameFile: frame,
      snapshotFile: snapshot,
      measureFrom,
      measureTo,
    },
    scratch,
  );
  const spectatorsDone = worker<{
    open: number;
    frames: number;
    states: number;
    p50: number;
    p95: number;
    max: number;
  }>('spectators', { urls: spectatorUrls, measureFrom, measureTo }, scratch);
  await sleep(measureFrom - Date.now());
  const rows0 = await eventRows(pool);
  const cpu0 = hubs.map((h) => cpuSeconds(h.pid!));
  await sleep(measureTo - Date.now());
  const rows1 = await eventRows(pool);
  const cpu1 = hubs.map((h) => cpuSeconds(h.pid!));
  const elapsed = seconds;
  const [t, s] = await Promise.all([tablesDone, spectatorsDone]);
  const hubRows = await eventRows(pool);
  const size = await pool.query(
    `SELECT ${EVENT_TABLES.map((x) => `pg_total_relation_size('${x}')`).join(' + ')} AS bytes`,
  );
  const bytes = Number(size.rows[0].bytes);
  const frameRate = s.frames / elapsed;
  const offered = (t.framesSent / elapsed / tables) * spectatorCount;

  console.log(
    `\n${label}: ${tables} tables × ${movesPerSecond} moves/s, ${spectatorCount} spectators (${s.open} connected), ${FPS} frames/s per table (${(frameBytes / 1024).toFixed(0)} KB each), ${elapsed} s measured`,
  );
  console.log(
    `  events ingested        ${((rows1 - rows0) / elapsed).toFixed(0)} /s   (the tables wrote ${(t.written / elapsed).toFixed(0)} /s into their records)`,
  );
  console.log(
    `  table → spectator      p50 ${s.p50.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms, max ${s.max.toFixed(0)} ms over ${s.states} state messages`,
  );
  console.log(
    `  pictures to spectators ${frameRate.toFixed(0)} /s of ${offered.toFixed(0)} /s sent up × viewers (${((frameRate / offered) * 100).toFixed(0)} %; slow sockets skip whole frames), ${((frameRate * frameBytes * 8) / 1e6).toFixed(0)} Mbit/s`,
  );
  console.log(
    `  hub CPU                ${cpu1.map((c, i) => `${(((c - cpu0[i]!) / elapsed) * 100).toFixed(0)} %`).join(' + ')} of one core`,
  );
  console.log(
    `  database size          ${(bytes / 1e6).toFixed(1)} MB for ${t.battleHours.toFixed(2)} battle-hours: ${(bytes / 1e6 / t.battleHours).toFixed(1)} MB per battle-hour at ${movesPerSecond} moves/s`,
  );
  console.log(
    `  exactly once           ${hubRows} events in the hub, ${t.localRows} in the tables' records ${hubRows === t.localRows ? '(equal)' : '(DIFFERENT)'}`,
  );

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
  const frameFile = join(dir, 'frame.jpg');
  const snapshotFile = join(dir, 'snapshot.jpg');
  writeFileSync(frameFile, frame);
  writeFileSync(snapshotFile, snapshot);
  console.log(
    `hub benchmark on ${cpus().length} cores (${cpus()[0]?.model ?? '?'}); PostgreSQL with its default (durable) settings`,
  );
  await run('One hub process', 1, db, frameFile, snapshotFile, frame.length, dir);
  await run(
    'Two hub processes, every spectator on the other one',
    2,
    db,
    frameFile,
    snapshotFile,
    frame.length,
    dir,
  );
} finally {
  db.stop('fast');
  rmSync(dir, { recursive: true, force: true });
}
