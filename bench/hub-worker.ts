/**
 * A load process of `npm run bench -- hub`, so the load does not starve in one event loop with
 * what it measures: `tables <config.json>` runs the simulated tables, `spectators <config.json>`
 * the live-view sockets. Each runs until `measureTo`, counts what happened between `measureFrom`
 * and `measureTo`, and prints one JSON line with its figures.
 */
import { readFileSync } from 'node:fs';
import { SimTable, Spectators } from './hub-load.ts';

export interface TablesConfig {
  readonly tables: ReadonlyArray<{ id: string; token: string; hubUrl: string }>;
  readonly movesPerSecond: number;
  readonly fps: number;
  readonly frameFile: string;
  readonly snapshotFile: string;
  readonly measureFrom: number;
  readonly measureTo: number;
}

export interface SpectatorsConfig {
  readonly urls: readonly string[];
  readonly measureFrom: number;
  readonly measureTo: number;
}

const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));

async function runTables(c: TablesConfig): Promise<void> {
  const frame = readFileSync(c.frameFile);
  const snapshot = readFileSync(c.snapshotFile);
  const sims = c.tables.map(
    (t) => new SimTable({ ...t, movesPerSecond: c.movesPerSecond, fps: c.fps, frame, snapshot }),
  );
  for (const s of sims) s.start();
  const count = () => ({
    written: sims.reduce((s, t) => s + t.written, 0),
    frames: sims.reduce((s, t) => s + t.framesSent, 0),
  });
  await sleepUntil(c.measureFrom);
  const a = count();
  await sleepUntil(c.measureTo);
  const b = count();
  for (const s of sims) s.stopWriting();
  // Let the outboxes send what is left, then say what the tables' records hold.
  const drainFrom = Date.now();
  while (Date.now() - drainFrom < 60_000 && sims.some((s) => s.outbox.status().state !== 'up to date'))
    await new Promise((r) => setTimeout(r, 200));
  await new Promise((r) => setTimeout(r, 1000));
  const result = {
    written: b.written - a.written,
    framesSent: b.frames - a.frames,
    localRows: sims.reduce((s, t) => s + t.localCount(), 0),
    battleHours: sims.reduce((s, t) => s + (t.lastEventAt - t.startedAt), 0) / 3_600_000,
  };
  await Promise.all(sims.map((s) => s.close()));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

async function runSpectators(c: SpectatorsConfig): Promise<void> {
  const spectators = new Spectators(c.urls);
  await sleepUntil(c.measureFrom);
  spectators.measuring = true;
  await sleepUntil(c.measureTo);
  spectators.measuring = false;
  const sorted = [...spectators.latencies].sort((x, y) => x - y);
  const q = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN;
  const result = {
    open: spectators.open,
    frames: spectators.frames,
    states: spectators.states,
    p50: q(0.5),
    p95: q(0.95),
    max: q(1),
  };
  spectators.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

const [role, file] = process.argv.slice(2);
const config = JSON.parse(readFileSync(file!, 'utf8')) as unknown;
if (role === 'tables') await runTables(config as TablesConfig);
else if (role === 'spectators') await runSpectators(config as SpectatorsConfig);
else throw new Error('usage: hub-worker.ts tables|spectators <config.json>');
