// One file at ~400 lines on purpose: export and its validating import are the two sides of one file format.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { cameraProfileSchema } from '../camera/profile.ts';
import { battleContentHash, CONTENT_HASH_KEY } from './content-hash.ts';
import { rosterSchema } from './roster.ts';
import { checkValueRanges, nonFiniteNumberAt } from './value-ranges.ts';
import {
  BattleFileError,
  EXPORT_FORMAT,
  migrate,
  readMeta,
  SCHEMA_VERSION,
  STORE_FORMAT,
  TABLES,
} from './schema.ts';
import type { BattleStore } from './store.ts';
import type { BattleDetail, MoveRecord, RulingRecord } from './types.ts';

/**
 * Battles in and out. The portable form of a battle is its own SQLite file with the store's
 * schema, a format marker (`meta.format = 'vedette-battle'`), a schema version and a content hash
 * (`meta.content_sha256`, content-hash.ts); imports check every one of those, the file's
 * integrity, each row's contents and every number's range (value-ranges.ts) before anything is
 * copied, and refuse with the reason. JSON and CSV exports are for other tools (not imported).
 */

export const BATTLE_FILE_EXTENSION = '.vedette-battle';
const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** Writes one battle to a new file. Refuses to overwrite. */
export function exportBattleFile(store: BattleStore, battleId: number, outFile: string): { bytes: number } {
  store.battle(battleId); // exists, or throws
  if (existsSync(outFile))
    throw new BattleFileError(`${outFile} already exists: choose another name or remove it`);
  store.flush();
  const out = new Database(outFile);
  try {
    migrate(out, EXPORT_FORMAT);
    out.prepare('ATTACH DATABASE ? AS src').run(store.file);
    out.transaction(() => {
      out.prepare('INSERT INTO main.battles SELECT * FROM src.battles WHERE id = ?').run(battleId);
      for (const table of TABLES) {
        if (table === 'battles') continue;
        out.prepare(`INSERT INTO main.${table} SELECT * FROM src.${table} WHERE battle_id = ?`).run(battleId);
      }
    })();
    out.exec('DETACH DATABASE src');
    const hash = battleContentHash(out, EXPORT_FORMAT, SCHEMA_VERSION);
    out.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(CONTENT_HASH_KEY, hash);
    // Rewritten compactly: no free pages, no stale bytes of other battles left in the file.
    out.exec('VACUUM');
  } finally {
    out.close();
  }
  return { bytes: statSync(outFile).size };
}

const finite = z.number().finite();
const mm = finite.min(-1_000_000).max(1_000_000);
const degrees = finite.min(-3600).max(3600);
const poseRow = z.tuple([
  z.number().int().nonnegative().max(100_000),
  mm,
  mm,
  degrees,
  finite.min(0).max(1_000_000),
  finite.min(0).max(3600),
]);
const verdictSchema: z.ZodType<unknown> = z.lazy(() =>
  z.looseObject({
    ruleset: z.string(),
    question: z.string(),
    asked: z.string(),
    answer: z.enum(['yes', 'no', 'borderline']),
    reasons: z.array(z.string()),
    options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    checks: z.array(verdictSchema),
    between: z
      .tuple([z.strictObject({ x: finite, y: finite }), z.strictObject({ x: finite, y: finite })])
      .optional(),
  }),
);
const tablePoseSchema = z.looseObject({
  rotation: z.array(finite).length(9),
  translation: z.array(finite).length(3),
});
const inputsSchema = z.looseObject({
  question: z.string(),
  poses: z.array(
    z.strictObject({
      markerId: z.number().int(),
      x: finite,
      y: finite,
      headingDeg: finite,
      sigmaMm: finite,
      sigmaHeadingDeg: finite,
    }),
  ),
});

/** Parsed JSON with every number finite (JSON's 1e999 parses as Infinity), or BattleFileError. */
function parseJson(text: unknown, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(String(text));
  } catch {
    throw new BattleFileError(`damaged: ${what} is not valid JSON`);
  }
  const at = nonFiniteNumberAt(value);
  if (at) throw new BattleFileError(`damaged: ${what}: ${at} is not a finite number`);
  return value;
}

function check<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new BattleFileError(
      `damaged: ${what}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}`,
    );
  }
  return r.data;
}

export interface ImportOptions {
  /**
   * Accept a file without a content hash (exported before Vedette had one): every other check
   * still runs. A file whose hash does not match is refused whatever this says.
   */
  readonly allowUnverified?: boolean;
}

/** Opens a file as an exported battle and checks everything, or throws BattleFileError with the reason. */
export function validateBattleFile(
  file: string,
  options: ImportOptions = {},
): { db: Database.Database; uid: string; name: string; verified: boolean } {
  if (!existsSync(file)) throw new BattleFileError(`${file} does not exist`);
  const size = statSync(file).size;
  if (size < 512)
    throw new BattleFileError(`not a Vedette battle file: ${size} bytes is too small to be one`);
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(16);
  readSync(fd, head, 0, 16, 0);
  closeSync(fd);
  if (head.toString('latin1') !== SQLITE_MAGIC)
    throw new BattleFileError('not a Vedette battle file: it is not an SQLite database');
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const ok = db.pragma('integrity_check', { simple: true });
    if (ok !== 'ok') throw new BattleFileError(`damaged: SQLite integrity check says: ${String(ok)}`);
  } catch (err) {
    if (err instanceof BattleFileError) throw err;
    throw new BattleFileError(`damaged: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    let meta;
    try {
      meta = readMeta(db);
    } catch (err) {
      throw new BattleFileError(`damaged: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!meta)
      throw new BattleFileError(
        'not a Vedette battle file: an SQLite database without a Vedette format marker',
      );
    if (meta.format === STORE_FORMAT)
      throw new BattleFileError(
        'this is a whole battle store (battles.db), not one exported battle: use `vedette export` to make one',
      );
    if (meta.format !== EXPORT_FORMAT)
      throw new BattleFileError(`not a Vedette battle file: its format is "${meta.format}"`);
    if (!Number.isInteger(meta.version) || meta.version < 1)
      throw new BattleFileError('damaged: the schema version is missing');
    if (meta.version > SCHEMA_VERSION)
      throw new BattleFileError(
        `made by a newer Vedette (battle file version ${meta.version}; this one reads up to ${SCHEMA_VERSION}): update Vedette to import it`,
      );
    for (const table of TABLES) {
      const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
      if (!has) throw new BattleFileError(`damaged: table "${table}" is missing`);
    }
    const stored = db.prepare('SELECT value FROM meta WHERE key = ?').get(CONTENT_HASH_KEY) as
      { value: string } | undefined;
    if (stored === undefined && !options.allowUnverified)
      throw new BattleFileError(
        'this file has no content hash (it was exported by an older Vedette, or the hash was removed), so it ' +
          'cannot be verified: import it with --unverified if you trust where it came from',
      );
    if (stored !== undefined && stored.value !== battleContentHash(db, meta.format, meta.version))
      throw new BattleFileError(
        'damaged: its content does not match its content hash (the file was changed or corrupted after export)',
      );
    const battles = db.prepare('SELECT * FROM battles').all() as Array<Record<string, unknown>>;
    if (battles.length !== 1)
      throw new BattleFileError(`damaged: a battle file holds one battle, this one holds ${battles.length}`);
    const b = battles[0]!;
    const id = Number(b['id']);
    check(rosterSchema, parseJson(b['roster_json'], 'the roster'), 'the roster');
    if (b['camera_json'] !== null)
      check(cameraProfileSchema, parseJson(b['camera_json'], 'the camera profile'), 'the camera profile');
    if (!Number.isSafeInteger(Number(b['started_at'])))
      throw new BattleFileError('damaged: the start time is not a time');
    for (const table of TABLES) {
      if (table === 'battles') continue;
      const stray = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE battle_id <> ?`).get(id) as {
        n: number;
      };
      if (stray.n > 0)
        throw new BattleFileError(`damaged: ${stray.n} ${table} belong to no battle in the file`);
    }
    const badMoves = db
      .prepare(
        `SELECT count(*) AS n FROM moves WHERE typeof(t) <> 'integer' OR typeof(x) NOT IN ('real', 'integer')
           OR typeof(y) NOT IN ('real', 'integer') OR typeof(heading_deg) NOT IN ('real', 'integer')`,
      )
      .get() as { n: number };
    if (badMoves.n > 0)
      throw new BattleFileError(`damaged: ${badMoves.n} moves have a time or position that is not a number`);
    checkValueRanges(db);
    for (const s of db
      .prepare('SELECT id, pose_json FROM snapshots WHERE pose_json IS NOT NULL')
      .iterate() as IterableIterator<{ id: number; pose_json: string }>)
      check(tablePoseSchema, parseJson(s.pose_json, `picture ${s.id} pose`), `picture ${s.id} pose`);
    for (const k of db.prepare('SELECT id, poses_json FROM keyframes').iterate() as IterableIterator<{
      id: number;
      poses_json: string;
    }>)
      check(z.array(poseRow), parseJson(k.poses_json, `keyframe ${k.id}`), `keyframe ${k.id}`);
    for (const r of db
      .prepare('SELECT id, inputs_json, verdict_json FROM rulings')
      .iterate() as IterableIterator<{
      id: number;
      inputs_json: string;
      verdict_json: string;
    }>) {
      check(verdictSchema, parseJson(r.verdict_json, `ruling ${r.id}`), `ruling ${r.id}`);
      check(inputsSchema, parseJson(r.inputs_json, `ruling ${r.id} inputs`), `ruling ${r.id} inputs`);
    }
    const badJpeg = db
      .prepare(
        "SELECT count(*) AS n FROM snapshots WHERE typeof(jpeg) <> 'blob' OR substr(jpeg, 1, 2) <> x'FFD8'",
      )
      .get() as {
      n: number;
    };
    if (badJpeg.n > 0) throw new BattleFileError(`damaged: ${badJpeg.n} pictures are not JPEG`);
    return { db, uid: String(b['uid']), name: String(b['name']), verified: stored !== undefined };
  } catch (err) {
    db.close();
    throw err;
  }
}

function columns(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
}

/** Imports an exported battle into the store; returns the new battle. Nothing is written unless all of it is good. */
export function importBattleFile(
  store: BattleStore,
  file: string,
  options: ImportOptions = {},
): BattleDetail {
  const { db, uid } = validateBattleFile(file, options);
  db.close();
  const existing = store.listBattles().find((b) => b.uid === uid);
  if (existing)
    throw new BattleFileError(`this battle is already here as #${existing.id} ("${existing.name}")`);
  store.flush();
  const main = store.db;
  main.prepare('ATTACH DATABASE ? AS imp').run(file);
  try {
    const newId = main.transaction(() => {
      const cols = columns(main, 'battles').filter((c) => c !== 'id' && c !== 'imported_from');
      const info = main
        .prepare(
          `INSERT INTO main.battles (${cols.join(', ')}, imported_from) SELECT ${cols.join(', ')}, ? FROM imp.battles`,
        )
        .run(basename(file));
      const id = Number(info.lastInsertRowid);
      for (const table of TABLES) {
        if (table === 'battles') continue;
        const c = columns(main, table).filter((x) => x !== 'id' && x !== 'battle_id');
        main
          .prepare(
            `INSERT INTO main.${table} (battle_id, ${c.join(', ')}) SELECT ?, ${c.join(', ')} FROM imp.${table} ORDER BY id`,
          )
          .run(id);
      }
      return id;
    })();
    return store.battle(newId);
  } finally {
    main.exec('DETACH DATABASE imp');
  }
}

// -----------------------------------------------------------------------------------------------
// JSON and CSV for other tools

export const JSON_FORMAT = 'vedette-battle-json';

export function battleJson(store: BattleStore, battleId: number): unknown {
  const data = store.replay(battleId);
  return {
    format: JSON_FORMAT,
    version: SCHEMA_VERSION,
    units: { length: 'mm', angle: 'degrees CCW from table +y', time: 'epoch ms' },
    battle: data.battle,
    marks: data.marks,
    keyframes: store.keyframes(battleId),
    moves: data.moves,
    rulings: data.rulings,
    annotations: data.annotations,
    snapshots: data.snapshots,
  };
}

function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csv(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  return [header.join(','), ...rows.map((r) => r.map(csvField).join(','))].join('\n') + '\n';
}

export function movesCsv(battle: BattleDetail, moves: readonly MoveRecord[]): string {
  const unitName = new Map(battle.roster.units.map((u) => [u.id, u.name]));
  return csv(
    [
      't_ms',
      'elapsed_s',
      'unit_id',
      'unit',
      'marker_id',
      'x_mm',
      'y_mm',
      'heading_deg',
      'sigma_mm',
      'from_x_mm',
      'from_y_mm',
      'from_heading_deg',
      'moving_since_ms',
    ],
    moves.map((m) => [
      m.t,
      ((m.t - battle.startedAt) / 1000).toFixed(1),
      m.unitId,
      unitName.get(m.unitId) ?? m.unitId,
      m.markerId,
      m.x,
      m.y,
      m.headingDeg,
      m.sigmaMm,
      m.from?.x,
      m.from?.y,
      m.from?.headingDeg,
      m.movingSince,
    ]),
  );
}

export function rulingsCsv(battle: BattleDetail, rulings: readonly RulingRecord[]): string {
  return csv(
    [
      't_ms',
      'elapsed_s',
      'ruleset',
      'question',
      'asked',
      'answer',
      'lean',
      'value',
      'limit',
      'margin',
      'unit',
      'reasons',
    ],
    rulings.map((r) => [
      r.t,
      ((r.t - battle.startedAt) / 1000).toFixed(1),
      r.verdict.ruleset,
      r.verdict.question,
      r.verdict.asked,
      r.verdict.answer,
      r.verdict.lean,
      r.verdict.value,
      r.verdict.limit,
      r.verdict.margin,
      r.verdict.unit,
      r.verdict.reasons.join(' | '),
    ]),
  );
}
