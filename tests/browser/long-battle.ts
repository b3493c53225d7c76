import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BattleRecorder } from '../../src/record/recorder.ts';
import { rosterOf } from '../../src/record/roster.ts';
import { BattleStore } from '../../src/record/store.ts';
import { verdict } from '../../src/rules/engine/verdict.ts';
import { parseScenarioText, type Scenario } from '../../src/table/scenario.ts';
import { ROOT } from './browser-harness.ts';

/**
 * A three-hour battle recorded through the real recorder (no camera: the poses are written by
 * this file, so they are the truth): every unit of the Prestonpans demo stands where the scenario
 * puts it, and every 20 minutes one unit advances 40 mm, alternately Jacobite and Government.
 * Frames come once a minute, and every second for a few seconds after each move (the settle
 * detector needs a few still frames). Rulings are written the way older recordings wrote them,
 * with unit ids in the question ("distance from lees to murrays"), plus a shooting question.
 */

export const BATTLE_MS = 3 * 3600 * 1000;
const MOVE_EVERY_MS = 20 * 60 * 1000;
const STEP_MM = 40;

export interface Pose {
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
}

export interface LongBattle {
  readonly battleId: number;
  readonly startedAt: number;
  readonly scenario: Scenario;
  /** Where each base truly stands at t (its last move settles within 10 s; ask away from moves). */
  truthAt(t: number): Map<number, Pose>;
  /** Times of the moves (battle ms after the start). */
  readonly moveTimes: readonly number[];
  readonly rulings: ReadonlyArray<{ kind: string; units: readonly string[] }>;
}

export async function recordLongBattle(
  dataDir: string,
  startedAt = Date.UTC(2026, 2, 14, 13),
): Promise<LongBattle> {
  const scenario = parseScenarioText(readFileSync(join(ROOT, 'scenarios/prestonpans-demo.json'), 'utf8'));
  const opening = new Map<number, Pose>();
  for (const u of scenario.units)
    for (const b of u.bases) {
      if (!b.pose) throw new Error(`${u.id} has a base without a pose`);
      opening.set(b.marker.id, { x: b.pose.x, y: b.pose.y, headingDeg: b.pose.headingDeg ?? 0 });
    }
  // The schedule: [time, unit] advancing STEP_MM along its facing.
  const bySide = (side: string) => scenario.units.filter((u) => u.side === side);
  const sides = [...new Set(scenario.units.map((u) => u.side))];
  const schedule: Array<{ t: number; unit: string }> = [];
  for (let k = 1, t = MOVE_EVERY_MS; t < BATTLE_MS; k++, t += MOVE_EVERY_MS) {
    const side = bySide(sides[k % sides.length]!);
    schedule.push({ t, unit: side[Math.floor(k / sides.length) % side.length]!.id });
  }
  const posesAt = (t: number): Map<number, Pose> => {
    const poses = new Map(opening);
    for (const s of schedule) {
      if (s.t > t) break;
      for (const b of scenario.units.find((u) => u.id === s.unit)!.bases) {
        const p = poses.get(b.marker.id)!;
        const h = (p.headingDeg * Math.PI) / 180;
        poses.set(b.marker.id, { ...p, x: p.x - STEP_MM * Math.sin(h), y: p.y + STEP_MM * Math.cos(h) });
      }
    }
    return poses;
  };

  const store = BattleStore.inDataDir(dataDir);
  const rec = BattleRecorder.start(store, {
    name: 'Three hours at Prestonpans',
    roster: rosterOf(scenario),
    camera: null,
    startedAt,
  });
  const times = new Set<number>();
  for (let t = 0; t <= BATTLE_MS; t += 60_000) times.add(t);
  for (let k = 0; k < 8; k++) times.add(k * 1000);
  for (const s of schedule) for (let k = 0; k < 8; k++) times.add(s.t + k * 1000);
  const rulings: Array<{ kind: string; units: string[] }> = [];
  const rulingAt = new Map<number, () => void>([
    [
      30 * 60_000,
      () => {
        rec.ruling(
          verdict({
            ruleset: 'measure',
            question: 'distance',
            asked: 'distance from lees to murrays',
            answer: 'yes',
            value: 6.1,
            unit: 'in',
          }),
          'distance lees murrays',
        );
        rulings.push({ kind: 'distance', units: ['lees', 'murrays'] });
      },
    ],
    [
      90 * 60_000,
      () => {
        rec.ruling(
          verdict({
            ruleset: 'prestonpans',
            question: 'shoot',
            asked: "can Lee's shoot the Camerons?",
            answer: 'no',
            value: 14.2,
            limit: 12,
            margin: -2.2,
            unit: 'in',
          }),
          'shoot lees camerons',
        );
        rulings.push({ kind: 'shoot', units: ['lees', 'camerons'] });
      },
    ],
    [
      150 * 60_000,
      () => {
        rec.ruling(
          verdict({
            ruleset: 'measure',
            question: 'distance',
            asked: 'distance from camerons to gardiners',
            answer: 'yes',
            value: 20.4,
            unit: 'in',
          }),
          'distance camerons gardiners',
        );
        rulings.push({ kind: 'distance', units: ['camerons', 'gardiners'] });
      },
    ],
  ]);
  for (const t of [...times].sort((a, b) => a - b)) {
    const poses = posesAt(t);
    rec.onFrame({
      at: startedAt + t,
      bases: [...poses].map(([markerId, p]) => ({
        markerId,
        ...p,
        sigmaMm: 0.3,
        sigmaHeadingDeg: 0.2,
        seen: true,
      })),
    });
    rulingAt.get(t)?.();
  }
  await rec.stop(startedAt + BATTLE_MS);
  store.close();
  return {
    battleId: rec.battleId,
    startedAt,
    scenario,
    truthAt: (t) => posesAt(t - startedAt),
    moveTimes: schedule.map((s) => s.t),
    rulings,
  };
}
