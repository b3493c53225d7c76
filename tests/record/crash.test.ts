import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BattleStore } from '../../src/record/store.ts';

/**
 * A recording process killed with SIGKILL mid-battle: on reopening, the battle is there, opens,
 * seeks, and every event the process produced more than one second before the kill is stored.
 */

const dir = mkdtempSync(join(tmpdir(), 'vedette-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Event {
  kind: 'MOVE' | 'RULING';
  t: number;
  key: number;
}

describe('crash safety', () => {
  it('loses at most the last second of events to SIGKILL', { timeout: 60_000 }, async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'tests/record/fixtures/crash-recorder.ts', dir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const events: Event[] = [];
    let battleId = -1;
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const [kind, a, b] = line.split(' ');
        if (kind === 'READY') battleId = Number(a);
        else if (kind === 'MOVE' || kind === 'RULING') events.push({ kind, t: Number(a), key: Number(b) });
      }
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Let it record for a few seconds (moves every 0.7 s, rulings every 0.5 s), then kill it.
    const deadline = Date.now() + 40_000;
    while (
      Date.now() < deadline &&
      (battleId < 0 || events.filter((e) => e.kind === 'MOVE' && e.t > events[0]!.t + 4000).length < 5)
    )
      await new Promise((r) => setTimeout(r, 50));
    // Kill at a moment unrelated to the flush cadence.
    await new Promise((r) => setTimeout(r, 137));
    child.kill('SIGKILL');
    const killedAt = Date.now();
    await exited;
    expect(battleId).toBeGreaterThan(0);

    const store = BattleStore.inDataDir(dir);
    const battle = store.findBattle(String(battleId));
    expect(battle.endedAt).toBeNull();
    const moves = store.moves(battleId);
    const rulings = store.rulings(battleId);
    const storedMoves = new Set(moves.map((m) => `${m.t}/${m.markerId}`));
    const storedRulings = new Set(rulings.map((r) => r.t));
    const missing = events.filter((e) =>
      e.kind === 'MOVE' ? !storedMoves.has(`${e.t}/${e.key}`) : !storedRulings.has(e.t),
    );
    const lastStored = Math.max(battle.lastEventAt, ...moves.map((m) => m.t));
    console.log(
      `crash: ${events.length} events reported, ${events.length - missing.length} stored, ${missing.length} missing; ` +
        `oldest missing event ${missing.length ? killedAt - Math.min(...missing.map((e) => e.t)) : 0} ms before the kill; ` +
        `last stored event ${killedAt - lastStored} ms before the kill`,
    );
    expect(events.length).toBeGreaterThan(10);
    for (const e of missing) expect(killedAt - e.t).toBeLessThanOrEqual(1000);
    expect(killedAt - lastStored).toBeLessThanOrEqual(1000);
    // The battle opens: replay data and a seek to the end.
    const replay = store.replay(battleId);
    expect(replay.moves.length).toBe(moves.length);
    const seek = store.seek(battleId, killedAt);
    expect(seek.poses.length).toBeGreaterThan(20);
    store.close();
  });
});
