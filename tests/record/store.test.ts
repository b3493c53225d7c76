import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BattleRecorder } from '../../src/record/recorder.ts';
import { stateAt } from '../../src/record/replay-state.ts';
import { rosterOf } from '../../src/record/roster.ts';
import { BattleStore } from '../../src/record/store.ts';
import { SyntheticBattle } from '../../src/record/synthetic-battle.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { readFileSync } from 'node:fs';
import { verdict } from '../../src/rules/engine/verdict.ts';

const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));
const roster = rosterOf(scenario);
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'vedette-store-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function recordSynthetic(store: BattleStore, minutes: number, startedAt = 1_700_000_000_000) {
  const battle = new SyntheticBattle(roster, startedAt, minutes * 60_000, { seed: 3 });
  const rec = BattleRecorder.start(store, { name: 'test', roster, camera: null, startedAt });
  for (let i = 0; i < battle.frameCount; i++) rec.onFrame(battle.frame(i));
  return { battle, rec };
}

describe('battle store', () => {
  it('records settled moves only (one per base per scheduled move) and infers turns', async () => {
    const store = BattleStore.inDataDir(tempDir());
    const { battle, rec } = recordSynthetic(store, 20);
    await rec.stop();
    const bases = roster.units.reduce((s, u) => s + u.bases.length, 0);
    const moves = store.moves(rec.battleId);
    const firstSightings = moves.filter((m) => m.from === null).length;
    expect(firstSightings).toBe(bases);
    // Each scheduled move moves every base of its unit once; jitter adds nothing.
    expect(battle.scheduledMoves).toBeGreaterThan(40);
    expect(moves.filter((m) => m.from !== null).length).toBe(battle.scheduledBaseMoves);
    const summary = store.listBattles()[0]!;
    expect(summary.endedAt).not.toBeNull();
    expect(summary.turns).toBeGreaterThanOrEqual(4); // 20 min, sides swap every 4 min
    expect(store.marks(rec.battleId).every((m) => m.source === 'inferred')).toBe(true);
    store.close();
  });

  it('seeks to the same state as replaying every move, and close to the truth at rest', async () => {
    const store = BattleStore.inDataDir(tempDir());
    const { battle, rec } = recordSynthetic(store, 15);
    await rec.stop();
    const data = store.replay(rec.battleId);
    for (let k = 0; k < 60; k++) {
      const elapsed = Math.round(((k + 0.5) / 60) * 15 * 60_000);
      const t = battle.startedAt + elapsed;
      const seek = store.seek(rec.battleId, t);
      const brute = stateAt(data.initial, data.moves, t);
      expect(seek.poses.length).toBe(brute.size);
      for (const p of seek.poses) {
        const q = brute.get(p.markerId)!;
        expect(Math.hypot(p.x - q.x, p.y - q.y)).toBeLessThan(1e-9);
      }
      // Every moment more than 1 s after a move finished: the replayed pose is the true one.
      const truth = battle.truthAt(elapsed);
      const restingSince = battle.truthAt(elapsed - 1500);
      for (const p of seek.poses) {
        const now = truth.get(p.markerId)!;
        const before = restingSince.get(p.markerId)!;
        if (Math.hypot(now.x - before.x, now.y - before.y) > 0) continue; // moving or just moved
        expect(Math.hypot(p.x - now.x, p.y - now.y)).toBeLessThan(1);
      }
    }
    store.close();
  });

  it('keeps rulings with their inputs, marks and annotations', () => {
    const store = BattleStore.inDataDir(tempDir());
    const rec = BattleRecorder.start(store, { name: 'rulings', roster, camera: null, startedAt: 1000 });
    rec.onFrame({
      at: 1000,
      bases: [{ markerId: 10, x: 1, y: 2, headingDeg: 0, sigmaMm: 0.1, sigmaHeadingDeg: 0.1, seen: true }],
    });
    const v = verdict({
      ruleset: 'prestonpans',
      question: 'range',
      asked: 'is A in range of B?',
      answer: 'yes',
      value: 5,
      limit: 6,
      unit: 'in',
      between: [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
      ],
    });
    rec.ruling(v, "is 'A' in range of 'B'?", { strict: true });
    rec.mark({ kind: 'turn', side: 'jacobite' });
    rec.mark({ kind: 'phase', phase: 'shooting' });
    rec.annotate('Camerons waver', { x: 10, y: 20 }, 'Ann');
    const r = store.rulings(rec.battleId)[0]!;
    expect(r.verdict).toEqual(v);
    expect(r.inputs.poses[0]).toMatchObject({ markerId: 10, x: 1, y: 2 });
    expect(r.inputs.options).toEqual({ strict: true });
    const marks = store.marks(rec.battleId);
    expect(marks.map((m) => m.label)).toEqual(['Turn 1 · Jacobite (Prince Charles)', 'shooting']);
    expect(store.annotations(rec.battleId)[0]).toMatchObject({
      text: 'Camerons waver',
      at: { x: 10, y: 20 },
      author: 'Ann',
    });
    expect(store.findBattle('rulings').id).toBe(rec.battleId);
    expect(() => store.findBattle('nope')).toThrow(/no battle "nope"/);
    store.close();
  });
});
