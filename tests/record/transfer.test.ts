import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BattleRecorder } from '../../src/record/recorder.ts';
import { rosterOf } from '../../src/record/roster.ts';
import { BattleStore, STORE_FILE } from '../../src/record/store.ts';
import { SyntheticBattle } from '../../src/record/synthetic-battle.ts';
import {
  battleJson,
  exportBattleFile,
  importBattleFile,
  movesCsv,
  rulingsCsv,
} from '../../src/record/transfer.ts';
import { verdict } from '../../src/rules/engine/verdict.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { FramePicture } from '../../src/vision/frame-picture.ts';

const roster = rosterOf(parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8')));
const dir = mkdtempSync(join(tmpdir(), 'vedette-transfer-'));
const sourceDir = join(dir, 'a');
const exported = join(dir, 'battle.vedette-battle');
let battleId = 0;

beforeAll(async () => {
  const store = BattleStore.inDataDir(sourceDir);
  const picture = FramePicture.ofJpeg(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#335533' } })
      .jpeg()
      .toBuffer(),
  );
  const startedAt = 1_750_000_000_000;
  const battle = new SyntheticBattle(roster, startedAt, 5 * 60_000, { seed: 11, turnMs: 60_000 });
  const rec = BattleRecorder.start(store, {
    name: 'Prestonpans, club night',
    roster,
    camera: null,
    startedAt,
  });
  battleId = rec.battleId;
  for (let i = 0; i < battle.frameCount; i++) {
    const f = battle.frame(i);
    const settled = rec.onFrame({ ...f, picture });
    if (settled.length > 0) await new Promise((r) => setTimeout(r, 5)); // let the picture be kept
    if (i % 600 === 300)
      rec.ruling(
        verdict({
          ruleset: 'prestonpans',
          question: 'charge',
          asked: "can 'Camerons' charge 'Lee's'?",
          answer: 'borderline',
          lean: 'no',
          value: 11.9,
          limit: 12,
          margin: -0.1,
          unit: 'in',
          reasons: ['too close to call, "really"'],
          between: [
            { x: 1, y: 2 },
            { x: 3, y: 4 },
          ],
        }),
        "can 'Camerons' charge 'Lee's'?",
      );
  }
  rec.annotate('the Highland charge', { x: 900, y: 600 }, 'Ann');
  await rec.stop();
  exportBattleFile(store, battleId, exported);
  store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function freshStore(name: string): BattleStore {
  return BattleStore.inDataDir(join(dir, name));
}

describe('export and import', () => {
  it('round-trips a battle through one portable file', () => {
    const a = BattleStore.inDataDir(sourceDir);
    const b = freshStore('b');
    const imported = importBattleFile(b, exported);
    expect(imported.name).toBe('Prestonpans, club night');
    expect(imported.importedFrom).toBe('battle.vedette-battle');
    const ra = a.replay(battleId);
    const rb = b.replay(imported.id);
    expect(rb.moves.map(({ id: _, ...m }) => m)).toEqual(ra.moves.map(({ id: _, ...m }) => m));
    expect(rb.rulings.map((r) => r.verdict)).toEqual(ra.rulings.map((r) => r.verdict));
    expect(rb.snapshots.length).toBe(ra.snapshots.length);
    expect(rb.snapshots.length).toBeGreaterThan(0);
    expect(rb.annotations[0]!.text).toBe('the Highland charge');
    const t = ra.battle.startedAt + 150_000;
    expect(b.seek(imported.id, t).poses).toEqual(a.seek(battleId, t).poses);
    expect(() => importBattleFile(b, exported)).toThrow(/already here as #1/);
    a.close();
    b.close();
  });

  const refusals: Array<[string, (file: string) => void, RegExp]> = [
    ['a text file', (f) => writeFileSync(f, 'name,x,y\n'.repeat(100)), /not an SQLite database/],
    ['an empty file', (f) => writeFileSync(f, ''), /too small/],
    [
      'a truncated file',
      (f) => (copyFileSync(exported, f), truncateSync(f, Math.floor(statSync(exported).size / 3))),
      /damaged/,
    ],
    [
      'another program’s database',
      (f) => new Database(f).exec('CREATE TABLE t (a); INSERT INTO t VALUES (1);').close(),
      /without a Vedette format marker/,
    ],
    ['the whole store', (f) => copyFileSync(join(sourceDir, STORE_FILE), f), /whole battle store/],
    [
      'a newer version',
      (f) => edit(f, "UPDATE meta SET value = '99' WHERE key = 'schema_version'"),
      /newer Vedette.*version 99/,
    ],
    [
      'a broken roster',
      (f) => edit(f, 'UPDATE battles SET roster_json = \'{"units": [\''),
      /damaged: the roster is not valid JSON/,
    ],
    [
      'a ruling with no answer',
      (f) => edit(f, `UPDATE rulings SET verdict_json = json_set(verdict_json, '$.answer', 'maybe')`),
      /damaged: ruling \d+: answer/,
    ],
    [
      'a move off the map',
      (f) => edit(f, "UPDATE moves SET x = 'left' WHERE id = (SELECT min(id) FROM moves)"),
      /damaged: 1 moves/,
    ],
    [
      'two battles',
      (f) =>
        edit(
          f,
          "INSERT INTO battles (uid, name, scenario, ruleset, roster_json, started_at) SELECT uid || 'x', name, scenario, ruleset, roster_json, started_at FROM battles",
        ),
      /holds 2/,
    ],
  ];
  for (const [what, make, reason] of refusals) {
    it(`refuses ${what} with the reason, and writes nothing`, () => {
      const file = join(dir, `bad-${what.replace(/\W+/g, '-')}.vedette-battle`);
      make(file);
      const store = freshStore('refusals');
      // Unverified: these files were edited, so their hash no longer matches (which is refused
      // first); the checks below the hash must refuse them on their own.
      if (existsSync(file) && statSync(file).size >= 512) stripHash(file);
      expect(() => importBattleFile(store, file, { allowUnverified: true })).toThrow(reason);
      expect(store.listBattles()).toEqual([]);
      store.close();
    });
  }

  it('issue 15.3: an export carries its schema version and a content hash', () => {
    const db = new Database(exported, { readonly: true });
    const meta = Object.fromEntries(
      (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        r.value,
      ]),
    );
    db.close();
    expect(meta['format']).toBe('vedette-battle');
    expect(meta['schema_version']).toBe('1');
    expect(meta['content_sha256']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('issue 15.3: refuses a file with one bit flipped inside a row (SQLite itself sees nothing wrong)', () => {
    const file = join(dir, 'bit-flip.vedette-battle');
    copyFileSync(exported, file);
    // A move's x, as SQLite stores a REAL (8 bytes, big-endian IEEE 754), on a page of the moves
    // table (the same bytes may also lie in free space, which is not content).
    const dump = (f: string) => {
      const db = new Database(f, { readonly: true });
      const rows = JSON.stringify(db.prepare('SELECT * FROM moves ORDER BY id').all());
      db.close();
      return rows;
    };
    const db = new Database(file, { readonly: true });
    const x = (
      db.prepare('SELECT x FROM moves WHERE x <> round(x) ORDER BY id LIMIT 1').get() as { x: number }
    ).x;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const movePages = new Set(
      (db.prepare("SELECT pageno FROM dbstat WHERE name = 'moves'").all() as Array<{ pageno: number }>).map(
        (r) => r.pageno,
      ),
    );
    db.close();
    const before = dump(file);
    const pattern = Buffer.alloc(8);
    pattern.writeDoubleBE(x);
    const original = readFileSync(file);
    // The first copy of those bytes on a moves page whose flip changes a stored value (bytes in a
    // page's unused space are not content). The lowest bit of the mantissa: a fraction of a nanometre.
    let at = -1;
    for (;;) {
      at = original.indexOf(pattern, at + 1);
      expect(at).toBeGreaterThan(0);
      if (!movePages.has(Math.floor(at / pageSize) + 1)) continue;
      const bytes = Buffer.from(original);
      bytes[at + 7]! ^= 0x01;
      writeFileSync(file, bytes);
      if (dump(file) !== before) break;
    }
    const check = new Database(file, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    const store = freshStore('bit-flip');
    expect(() => importBattleFile(store, file)).toThrow(/does not match its content hash/);
    expect(store.listBattles()).toEqual([]);
    store.close();
  });

  it('issue 15.3: refuses a file without a content hash unless told the file is trusted', () => {
    const file = join(dir, 'no-hash.vedette-battle');
    edit(file, "DELETE FROM meta WHERE key = 'content_sha256'");
    const store = freshStore('no-hash');
    expect(() => importBattleFile(store, file)).toThrow(/no content hash.*--unverified/);
    expect(store.listBattles()).toEqual([]);
    expect(importBattleFile(store, file, { allowUnverified: true }).name).toBe('Prestonpans, club night');
    store.close();
  });

  // Numbers out of range, in a file whose hash was removed (as an older Vedette's would be): the
  // range checks stand on their own, hash or no hash.
  const outOfRange: Array<[string, string, RegExp]> = [
    [
      'an infinite coordinate',
      'UPDATE moves SET x = 9e999 WHERE id = (SELECT min(id) FROM moves)',
      /damaged: move \d+: x is Infinity, not a finite length/,
    ],
    [
      'a coordinate 5 km off the table',
      'UPDATE moves SET y = -5e6 WHERE id IN (SELECT id FROM moves ORDER BY id LIMIT 3)',
      /damaged: move \d+: y is -5000000, .*\(and 2 more moves like it\)/,
    ],
    [
      'a negative uncertainty',
      'UPDATE moves SET sigma_mm = -1 WHERE id = (SELECT max(id) FROM moves)',
      /damaged: move \d+: sigma_mm is -1/,
    ],
    [
      'an infinite number inside a ruling',
      `UPDATE rulings SET verdict_json = replace(verdict_json, '"value":11.9', '"value":1e999')`,
      /damaged: ruling \d+: value is not a finite number/,
    ],
    [
      'a keyframe pose at infinity',
      `UPDATE keyframes SET poses_json = '[[10,1e999,0,0,1,1]]' WHERE id = (SELECT min(id) FROM keyframes)`,
      /damaged: keyframe \d+: 0\.1 is not a finite number/,
    ],
    ['a time before 1970', 'UPDATE annotations SET t = -5', /damaged: note \d+: t is -5, not a time/],
  ];
  for (const [what, sql, reason] of outOfRange) {
    it(`issue 15.3: refuses ${what}, and writes nothing`, () => {
      const file = join(dir, `range-${what.replace(/\W+/g, '-')}.vedette-battle`);
      edit(file, `${sql}; DELETE FROM meta WHERE key = 'content_sha256'`);
      const store = freshStore(`range-${what.replace(/\W+/g, '-')}`);
      expect(() => importBattleFile(store, file, { allowUnverified: true })).toThrow(reason);
      expect(store.listBattles()).toEqual([]);
      store.close();
    });
  }

  it('writes JSON and CSV for other tools', () => {
    const store = BattleStore.inDataDir(sourceDir);
    const battle = store.battle(battleId);
    const json = battleJson(store, battleId) as { format: string; moves: unknown[]; rulings: unknown[] };
    expect(json.format).toBe('vedette-battle-json');
    expect(json.moves.length).toBe(battle.moves);
    const moves = movesCsv(battle, store.moves(battleId)).trim().split('\n');
    expect(moves[0]).toBe(
      't_ms,elapsed_s,unit_id,unit,marker_id,x_mm,y_mm,heading_deg,sigma_mm,from_x_mm,from_y_mm,from_heading_deg,moving_since_ms',
    );
    expect(moves.length).toBe(battle.moves + 1);
    const rulings = rulingsCsv(battle, store.rulings(battleId)).trim().split('\n');
    expect(rulings[1]).toContain("can 'Camerons' charge 'Lee's'?,borderline,no,11.900,12,-0.100,in");
    expect(rulings[1]).toContain('"too close to call, ""really"""');
    store.close();
  });

  it('works from the command line: battles, export, import', () => {
    const cli = (...args: string[]) =>
      execFileSync(process.execPath, ['bin/vedette.js', ...args], { encoding: 'utf8' });
    expect(cli('--data', sourceDir, 'battles')).toMatch(
      /^#1 .* 5 min 00 s\s+Prestonpans, club night — Prestonpans .*\d+ moves, \d+ turns, \d+ rulings/m,
    );
    const out = join(dir, 'cli.vedette-battle');
    expect(cli('--data', sourceDir, 'export', 'last', '--out', out)).toMatch(/wrote .*cli\.vedette-battle/);
    expect(cli('import', out, '--data', join(dir, 'c'))).toMatch(/imported as #1 "Prestonpans, club night"/);
    expect(cli('--data', sourceDir, 'export', '1', '--format', 'csv', '--out', join(dir, 'x'))).toMatch(
      /x-moves\.csv and .*x-rulings\.csv/,
    );
    let refused = '';
    try {
      cli('import', join(dir, 'nothing-here.vedette-battle'), '--data', join(dir, 'c'));
    } catch (err) {
      refused = String((err as { stderr?: string }).stderr);
    }
    expect(refused).toMatch(/does not exist/);
  });
});

/** Removes the content hash of a battle file, if it is one (as a file exported before hashes). */
function stripHash(file: string): void {
  try {
    const db = new Database(file);
    try {
      db.exec("DELETE FROM meta WHERE key = 'content_sha256'");
    } finally {
      db.close();
    }
  } catch {
    // Not a battle file at all: nothing to strip.
  }
}

function edit(file: string, sql: string): void {
  copyFileSync(exported, file);
  const db = new Database(file);
  db.exec(sql);
  db.close();
}
