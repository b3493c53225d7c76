import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { battleContentHash, CONTENT_HASH_KEY } from '../../src/record/content-hash.ts';
import { BattleRecorder } from '../../src/record/recorder.ts';
import { rosterOf } from '../../src/record/roster.ts';
import { BattleFileError, EXPORT_FORMAT, SCHEMA_VERSION } from '../../src/record/schema.ts';
import { storeFileProblem } from '../../src/record/store-check.ts';
import { BattleStore, STORE_FILE } from '../../src/record/store.ts';
import { SyntheticBattle } from '../../src/record/synthetic-battle.ts';
import { exportBattleFile, importBattleFile } from '../../src/record/transfer.ts';
import { verdict } from '../../src/rules/engine/verdict.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { FramePicture } from '../../src/vision/frame-picture.ts';

/**
 * Fuzz pass over imported battle files (issue 15): damaged copies of a real export — bits flipped
 * anywhere, the file cut short, blocks overwritten, and rows edited by someone who then
 * recomputed the content hash — are each either imported whole and identical to the original, or
 * refused with a BattleFileError; never another exception, never a partial import, and the store
 * stays healthy.
 */

const dir = mkdtempSync(join(tmpdir(), 'vedette-import-fuzz-'));
const exported = join(dir, 'battle.vedette-battle');
let original: Buffer;
let originalMoves = '';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const movesOf = (store: BattleStore, id: number) =>
  JSON.stringify(store.moves(id).map(({ id: _id, ...m }) => m));

beforeAll(async () => {
  const roster = rosterOf(parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8')));
  const store = BattleStore.inDataDir(join(dir, 'source'));
  const picture = FramePicture.ofJpeg(
    await sharp({ create: { width: 32, height: 24, channels: 3, background: '#556b2f' } })
      .jpeg()
      .toBuffer(),
  );
  const startedAt = 1_760_000_000_000;
  const battle = new SyntheticBattle(roster, startedAt, 3 * 60_000, { seed: 5, turnMs: 60_000 });
  const rec = BattleRecorder.start(store, { name: 'fuzzed', roster, camera: null, startedAt });
  for (let i = 0; i < battle.frameCount; i++) {
    if (rec.onFrame({ ...battle.frame(i), picture }).length > 0) await new Promise((r) => setTimeout(r, 2));
    if (i === 200)
      rec.ruling(
        verdict({
          ruleset: 'prestonpans',
          question: 'shoot',
          asked: "can 'Lee's' shoot 'Camerons'?",
          answer: 'yes',
          value: 5.5,
          limit: 8,
          margin: 2.5,
          unit: 'in',
          reasons: ['in range'],
        }),
        "can 'Lee's' shoot 'Camerons'?",
      );
  }
  rec.annotate('a note', { x: 10, y: 20 }, null);
  await rec.stop();
  exportBattleFile(store, rec.battleId, exported);
  originalMoves = movesOf(store, rec.battleId);
  store.close();
  original = readFileSync(exported);
}, 60_000);

type Damage =
  | { readonly kind: 'flips'; readonly bits: ReadonlyArray<number> }
  | { readonly kind: 'cut'; readonly at: number }
  | { readonly kind: 'block'; readonly at: number; readonly fill: number }
  | {
      readonly kind: 'edit';
      readonly table: string;
      readonly column: string;
      readonly value: unknown;
      readonly rehash: boolean;
    };

const EDITABLE: ReadonlyArray<readonly [string, string]> = [
  ['battles', 'started_at'],
  ['battles', 'roster_json'],
  ['moves', 'x'],
  ['moves', 'heading_deg'],
  ['moves', 'sigma_mm'],
  ['moves', 't'],
  ['moves', 'marker_id'],
  ['keyframes', 'poses_json'],
  ['rulings', 'verdict_json'],
  ['annotations', 'y'],
  ['snapshots', 'width'],
  ['snapshots', 'jpeg'],
  ['marks', 'turn'],
];

const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({
    kind: fc.constant('flips' as const),
    bits: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('block' as const), at: fc.nat(), fill: fc.integer({ min: 0, max: 255 }) }),
  fc
    .record({
      column: fc.constantFrom(...EDITABLE),
      value: fc.oneof(
        fc.constant(Number.POSITIVE_INFINITY),
        fc.constant(Number.NEGATIVE_INFINITY),
        fc.constant(null),
        fc.double(),
        fc.integer(),
        fc.constant(9e15),
        fc.string({ maxLength: 12 }),
        fc.constant('{"a":1e999}'),
        fc.constant('[[1,2,3,4,5,6]]'),
      ),
      rehash: fc.boolean(),
    })
    .map(({ column: [table, column], value, rehash }) => ({
      kind: 'edit' as const,
      table,
      column,
      value,
      rehash,
    })),
);

function damaged(d: Damage, file: string): void {
  if (d.kind === 'edit') {
    writeFileSync(file, original);
    const db = new Database(file);
    try {
      try {
        db.prepare(`UPDATE ${d.table} SET ${d.column} = ? WHERE id = (SELECT min(id) FROM ${d.table})`).run(
          d.value as never,
        );
      } catch {
        // The schema itself refused the value (NOT NULL, CHECK): the file stays as it was.
      }
      if (d.rehash)
        db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(
          battleContentHash(db, EXPORT_FORMAT, SCHEMA_VERSION),
          CONTENT_HASH_KEY,
        );
    } finally {
      db.close();
    }
    return;
  }
  const bytes = Buffer.from(original);
  if (d.kind === 'flips') for (const bit of d.bits) bytes[(bit >> 3) % bytes.length]! ^= 1 << (bit & 7);
  if (d.kind === 'block') bytes.fill(d.fill, d.at % bytes.length, (d.at % bytes.length) + 64);
  writeFileSync(file, d.kind === 'cut' ? bytes.subarray(0, d.at % bytes.length) : bytes);
}

describe('fuzz: damaged battle files (issue 15)', () => {
  it(
    'imports each whole and unchanged, or refuses it with the reason; never half',
    { timeout: 240_000 },
    async () => {
      const outcomes: Record<string, number> = {};
      let n = 0;
      await fc.assert(
        fc.asyncProperty(damage, async (d) => {
          const caseDir = join(dir, `case-${n++}`);
          const file = join(caseDir, 'in.vedette-battle');
          const store = BattleStore.inDataDir(caseDir);
          try {
            damaged(d, file);
            let result: string;
            try {
              const b = importBattleFile(store, file);
              const moves = movesOf(store, b.id);
              if (d.kind === 'edit' && d.rehash) {
                // A consistent forgery (a sensible value, the hash recomputed) is a valid file: what
                // matters is that every number it brought in is finite.
                for (const m of store.replay(b.id).moves)
                  for (const v of [m.x, m.y, m.headingDeg, m.sigmaMm, m.sigmaHeadingDeg, m.t])
                    expect(Number.isFinite(v)).toBe(true);
                result = moves === originalMoves ? 'imported' : 'imported the edit';
              } else {
                // Otherwise an import is the original battle, exactly.
                expect(moves === originalMoves, `${d.kind} changed the battle and was imported`).toBe(true);
                result = 'imported';
              }
            } catch (err) {
              if (!(err instanceof BattleFileError)) throw err;
              expect(store.listBattles()).toEqual([]);
              result = err.message.replace(/\d+/g, '#').slice(0, 48);
            }
            outcomes[`${d.kind}: ${result}`] = (outcomes[`${d.kind}: ${result}`] ?? 0) + 1;
          } finally {
            store.close();
          }
          expect(storeFileProblem(join(caseDir, STORE_FILE))).toBeNull();
          rmSync(caseDir, { recursive: true, force: true });
        }),
        { numRuns: 150, seed: 0x15b4 },
      );
      const summary = Object.entries(outcomes)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${v}× ${k}`);
      console.log(`import fuzz (150 damaged files):\n  ${summary.join('\n  ')}`);
      // Edits that keep a valid hash are caught by the row and range checks, not only by the hash.
      expect(
        Object.keys(outcomes).some((k) => k.startsWith('edit: damaged: ') && !/content hash/.test(k)),
      ).toBe(true);
    },
  );
});
