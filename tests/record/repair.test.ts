import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BattleRecorder } from '../../src/record/recorder.ts';
import { repairStore } from '../../src/record/repair.ts';
import { rosterOf } from '../../src/record/roster.ts';
import { StoreDamagedError, storeFileProblem } from '../../src/record/store-check.ts';
import { BattleStore, STORE_FILE } from '../../src/record/store.ts';
import { SyntheticBattle } from '../../src/record/synthetic-battle.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';

/**
 * Issue 15, point 1: a damaged battle store is named, never overwritten, and repairable.
 * `vedette serve` on a damaged battles.db used to print "file is not a database" and hang for
 * ever (its vision worker kept the process alive); now it exits non-zero, names the file and says
 * what to do, before any camera or worker starts. `vedette battles --repair` moves the file aside
 * and keeps every battle that can still be read.
 */

const roster = rosterOf(parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8')));
const root = mkdtempSync(join(tmpdir(), 'vedette-repair-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => {
  const d = join(root, `d${n++}`);
  mkdirSync(d);
  return d;
};

/** Runs the CLI; resolves with its exit code and output, or code null if it was still running after `ms`. */
function cli(args: string[], ms: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/vedette.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, stdout, stderr });
    }, ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A store with two recorded battles, closed (everything in the main file). */
function storeWithBattles(dir: string): { moves: number[] } {
  const store = BattleStore.inDataDir(dir);
  const moves: number[] = [];
  for (const [i, startedAt] of [1_700_000_000_000, 1_700_100_000_000].entries()) {
    const battle = new SyntheticBattle(roster, startedAt, 20 * 60_000, { seed: 3 + i });
    const rec = BattleRecorder.start(store, { name: `battle ${i + 1}`, roster, camera: null, startedAt });
    for (let f = 0; f < battle.frameCount; f++) rec.onFrame(battle.frame(f));
    rec.ruling(
      {
        ruleset: 'measure',
        question: 'distance',
        asked: 'distance from lees to camerons',
        answer: 'yes',
        reasons: ['7.00 in'],
        options: {},
        facts: {},
        checks: [],
      } as unknown as Parameters<BattleRecorder['ruling']>[0],
      'distance lees camerons',
    );
    store.endBattle(rec.battleId, startedAt + 20 * 60_000);
    moves.push(store.moves(rec.battleId).length);
  }
  store.close();
  return { moves };
}

/** Overwrites one leaf page of `table` (the middle one) with garbage, as a failing disk would. */
function damagePageOf(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const leaves = (
    db
      .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno")
      .all(table) as Array<{
      pageno: number;
    }>
  ).map((r) => r.pageno);
  db.close();
  expect(leaves.length).toBeGreaterThan(4);
  const page = leaves[Math.floor(leaves.length / 2)]!;
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
  closeSync(fd);
  return page;
}

describe('issue 15.1: a damaged battle store', () => {
  it(
    '`vedette serve` exits non-zero, names the file and what to do, and leaves it as it was',
    { timeout: 120_000 },
    async () => {
      const dir = freshDir();
      const file = join(dir, STORE_FILE);
      writeFileSync(file, Buffer.concat([Buffer.from('not SQLite at all '), Buffer.alloc(8192, 0x5a)]));
      const before = readFileSync(file);
      const run = await cli(['serve', '--data', dir, '--port', '0'], 60_000);
      expect(run.code, `still running after 60 s; stderr: ${run.stderr}`).not.toBeNull();
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(file);
      expect(run.stderr).toMatch(/damaged/);
      expect(run.stderr).toContain('vedette battles --repair');
      expect(run.stderr).toMatch(/move it aside/);
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(existsSync(`${file}-wal`)).toBe(false);
    },
  );

  it('is refused by every command that opens it, with the same words, and never written', () => {
    const dir = freshDir();
    storeWithBattles(dir);
    const file = join(dir, STORE_FILE);
    damagePageOf(file, 'moves');
    const before = readFileSync(file);
    expect(storeFileProblem(file)).toMatch(/malformed|SQLite's check says/);
    expect(() => BattleStore.inDataDir(dir)).toThrow(StoreDamagedError);
    expect(() => BattleStore.inDataDir(dir, { readonly: true })).toThrow(/--repair/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('`--repair` keeps every battle that can still be read and moves the damaged file aside', () => {
    const dir = freshDir();
    const { moves } = storeWithBattles(dir);
    const file = join(dir, STORE_FILE);
    damagePageOf(file, 'moves');
    const damaged = readFileSync(file);
    const report = repairStore(dir, new Date('2026-01-02T03:04:05Z'));
    expect(report.healthy).toBe(false);
    expect(report.readable).toBe(true);
    expect(report.movedTo).toBe(join(dir, 'battles-damaged-2026-01-02T03-04-05-000Z.db'));
    expect(readFileSync(report.movedTo!).equals(damaged)).toBe(true);
    const total = moves[0]! + moves[1]!;
    console.log(
      `repair: kept ${JSON.stringify(report.kept)} of ${total} moves; lost ${JSON.stringify(report.lost)}`,
    );
    expect(report.kept['battles']).toBe(2);
    expect(report.kept['rulings']).toBe(2);
    // One page of moves (a few dozen rows) is gone; every other move is back.
    expect(report.kept['moves']).toBeLessThan(total);
    expect(report.kept['moves']).toBeGreaterThan(total - 200);
    const store = BattleStore.inDataDir(dir);
    expect(store.listBattles().map((b) => b.name)).toEqual(['battle 1', 'battle 2']);
    for (const b of store.listBattles()) expect(store.replay(b.id).moves.length).toBe(b.moves);
    store.close();
    expect(storeFileProblem(file)).toBeNull();
  });

  it('`--repair` on a file with nothing readable starts an empty store, and on a healthy one does nothing', async () => {
    const dir = freshDir();
    const file = join(dir, STORE_FILE);
    writeFileSync(file, Buffer.alloc(4096, 0x33));
    const run = await cli(['battles', '--repair', '--data', dir], 60_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Nothing could be read from it/);
    expect(run.stdout).toMatch(/kept, unchanged, as .*battles-damaged-/);
    const healthy = await cli(['battles', '--repair', '--data', dir], 60_000);
    expect(healthy.stdout).toMatch(/is healthy: nothing to repair/);
    expect((await cli(['battles', '--data', dir], 60_000)).stdout).toMatch(/No battles recorded yet/);
  });
});
