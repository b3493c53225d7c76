import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { CameraProfile } from '../camera/profile.ts';
import {
  annotationFromRow,
  markFromRow,
  moveFromRow,
  num,
  numOrNull,
  rulingFromRow,
  snapshotFromRow,
  strOrNull,
  type Row,
} from './event-rows.ts';
import { applyMoves } from './replay-state.ts';
import { migrate, STORE_FORMAT } from './schema.ts';
import { checkStoreFile } from './store-check.ts';
import type {
  AnnotationRecord,
  BattleDetail,
  BattleRoster,
  BattleSummary,
  KeyframeRecord,
  MarkRecord,
  MoveRecord,
  RecordedPose,
  ReplayData,
  RulingRecord,
  SeekResult,
  SnapshotInfo,
} from './types.ts';

/**
 * The battle store: one SQLite file (WAL, synchronous=NORMAL) in the data folder holding every
 * battle. Writes from the 10 Hz recording path are queued and committed together in one
 * transaction at least every `flushIntervalMs` (default 250 ms), so a killed process loses at
 * most that much; player actions (turn marks, annotations, rulings) are committed at once.
 */

export const STORE_FILE = 'battles.db';
export const DEFAULT_DATA_DIR = '.vedette';

export interface StoreOptions {
  /** Longest a queued event waits before it is committed (ms). */
  readonly flushIntervalMs?: number;
  readonly readonly?: boolean;
}

export interface NewBattle {
  readonly name: string;
  readonly roster: BattleRoster;
  readonly camera: CameraProfile | null;
  readonly startedAt: number;
  readonly uid?: string;
  readonly importedFrom?: string | null;
}

export { moveFromRow } from './event-rows.ts';

export class BattleNotFoundError extends Error {
  override name = 'BattleNotFoundError';
}

/** Poses in keyframes are stored compactly: [markerId, x, y, headingDeg, sigmaMm, sigmaHeadingDeg]. */
export function encodePoses(poses: readonly RecordedPose[]): string {
  return JSON.stringify(poses.map((p) => [p.markerId, p.x, p.y, p.headingDeg, p.sigmaMm, p.sigmaHeadingDeg]));
}

export function decodePoses(json: string): RecordedPose[] {
  const rows = JSON.parse(json) as number[][];
  return rows.map(([markerId = 0, x = 0, y = 0, headingDeg = 0, sigmaMm = 0, sigmaHeadingDeg = 0]) => ({
    markerId,
    x,
    y,
    headingDeg,
    sigmaMm,
    sigmaHeadingDeg,
  }));
}

const SUMMARY_SQL = `
  SELECT b.*,
    (SELECT count(*) FROM moves m WHERE m.battle_id = b.id) AS n_moves,
    (SELECT count(*) FROM rulings r WHERE r.battle_id = b.id) AS n_rulings,
    (SELECT count(*) FROM marks k WHERE k.battle_id = b.id AND k.kind = 'turn') AS n_turns,
    max(b.started_at,
      coalesce((SELECT max(t) FROM keyframes WHERE battle_id = b.id), 0),
      coalesce((SELECT max(t) FROM moves WHERE battle_id = b.id), 0),
      coalesce((SELECT max(t) FROM marks WHERE battle_id = b.id), 0),
      coalesce((SELECT max(t) FROM rulings WHERE battle_id = b.id), 0),
      coalesce((SELECT max(t) FROM annotations WHERE battle_id = b.id), 0),
      coalesce(b.ended_at, 0)) AS last_event_at
  FROM battles b`;

function summaryFromRow(r: Row): BattleSummary {
  return {
    id: num(r['id']),
    uid: String(r['uid']),
    name: String(r['name']),
    scenario: String(r['scenario']),
    ruleset: String(r['ruleset']),
    startedAt: num(r['started_at']),
    endedAt: numOrNull(r['ended_at']),
    lastEventAt: num(r['last_event_at']),
    moves: num(r['n_moves']),
    rulings: num(r['n_rulings']),
    turns: num(r['n_turns']),
    importedFrom: strOrNull(r['imported_from']),
  };
}

export class BattleStore {
  readonly db: Database.Database;
  private readonly pending: Array<() => void> = [];
  private lastFlush = Date.now();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly flushIntervalMs: number;
  private readonly stmt;

  constructor(
    readonly file: string,
    options: StoreOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 250;
    // A damaged file is refused before anything below could write to it (store-check.ts).
    checkStoreFile(file);
    if (!options.readonly) mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file, options.readonly ? { readonly: true, fileMustExist: true } : {});
    if (!options.readonly) {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
    }
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    if (!options.readonly) migrate(this.db, STORE_FORMAT);
    const db = this.db;
    this.stmt = {
      insertMove: db.prepare(
        `INSERT INTO moves (battle_id, t, marker_id, unit_id, x, y, heading_deg, sigma_mm, sigma_heading_deg,
           from_x, from_y, from_heading_deg, moving_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertKeyframe: db.prepare('INSERT INTO keyframes (battle_id, t, poses_json) VALUES (?, ?, ?)'),
      insertMark: db.prepare(
        'INSERT INTO marks (battle_id, t, kind, turn, phase, side, source, label) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertRuling: db.prepare(
        `INSERT INTO rulings (battle_id, t, ruleset, question, asked, answer, inputs_json, verdict_json)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertAnnotation: db.prepare(
        'INSERT INTO annotations (battle_id, t, text, x, y, author) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertSnapshot: db.prepare(
        'INSERT INTO snapshots (battle_id, t, width, height, pose_json, jpeg) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      keyframeAtOrBefore: db.prepare(
        'SELECT t, poses_json FROM keyframes WHERE battle_id = ? AND t <= ? ORDER BY t DESC LIMIT 1',
      ),
      movesBetween: db.prepare('SELECT * FROM moves WHERE battle_id = ? AND t > ? AND t <= ? ORDER BY t, id'),
      movesUpTo: db.prepare('SELECT * FROM moves WHERE battle_id = ? AND t <= ? ORDER BY t, id'),
    };
    if (!options.readonly) {
      this.timer = setInterval(() => this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** The store of a data folder (`<dir>/battles.db`). */
  static inDataDir(dir: string, options: StoreOptions = {}): BattleStore {
    return new BattleStore(join(dir, STORE_FILE), options);
  }

  // -------------------------------------------------------------------------------------------
  // Writing

  private enqueue(op: () => void, now = false): void {
    this.pending.push(op);
    if (now || Date.now() - this.lastFlush >= this.flushIntervalMs) this.flush();
  }

  /** Commits everything queued, in one transaction. */
  flush(): void {
    this.lastFlush = Date.now();
    if (this.pending.length === 0) return;
    const ops = this.pending.splice(0);
    this.db.transaction(() => {
      for (const op of ops) op();
    })();
  }

  startBattle(b: NewBattle): number {
    this.flush();
    const info = this.db
      .prepare(
        `INSERT INTO battles (uid, name, scenario, ruleset, roster_json, camera_json, started_at, imported_from)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        b.uid ?? randomUUID(),
        b.name,
        b.roster.scenario,
        b.roster.ruleset,
        JSON.stringify(b.roster),
        b.camera ? JSON.stringify(b.camera) : null,
        b.startedAt,
        b.importedFrom ?? null,
      );
    return Number(info.lastInsertRowid);
  }

  endBattle(battleId: number, at: number): void {
    this.flush();
    this.db.prepare('UPDATE battles SET ended_at = ? WHERE id = ?').run(at, battleId);
  }

  setCamera(battleId: number, camera: CameraProfile): void {
    this.enqueue(() =>
      this.db
        .prepare('UPDATE battles SET camera_json = ? WHERE id = ?')
        .run(JSON.stringify(camera), battleId),
    );
  }

  addMove(battleId: number, m: MoveRecord): void {
    this.enqueue(() =>
      this.stmt.insertMove.run(
        battleId,
        Math.round(m.t),
        m.markerId,
        m.unitId,
        m.x,
        m.y,
        m.headingDeg,
        m.sigmaMm,
        m.sigmaHeadingDeg,
        m.from?.x ?? null,
        m.from?.y ?? null,
        m.from?.headingDeg ?? null,
        Math.round(m.movingSince),
      ),
    );
  }

  addKeyframe(battleId: number, k: KeyframeRecord): void {
    const json = encodePoses(k.poses);
    this.enqueue(() => this.stmt.insertKeyframe.run(battleId, Math.round(k.t), json));
  }

  addMark(battleId: number, m: MarkRecord): number {
    this.flush();
    const info = this.stmt.insertMark.run(
      battleId,
      Math.round(m.t),
      m.kind,
      m.turn,
      m.phase,
      m.side,
      m.source,
      m.label,
    );
    return Number(info.lastInsertRowid);
  }

  addRuling(battleId: number, r: RulingRecord): number {
    this.flush();
    const v = r.verdict;
    const info = this.stmt.insertRuling.run(
      battleId,
      Math.round(r.t),
      v.ruleset,
      v.question,
      v.asked,
      v.answer,
      JSON.stringify(r.inputs),
      JSON.stringify(v),
    );
    return Number(info.lastInsertRowid);
  }

  addAnnotation(battleId: number, a: AnnotationRecord): number {
    this.flush();
    const info = this.stmt.insertAnnotation.run(
      battleId,
      Math.round(a.t),
      a.text,
      a.at?.x ?? null,
      a.at?.y ?? null,
      a.author,
    );
    return Number(info.lastInsertRowid);
  }

  addSnapshot(battleId: number, s: Omit<SnapshotInfo, 'id'>, jpeg: Buffer): void {
    const pose = s.pose ? JSON.stringify(s.pose) : null;
    this.enqueue(() =>
      this.stmt.insertSnapshot.run(battleId, Math.round(s.t), s.width, s.height, pose, jpeg),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Reading (what is queued is committed first, so a reader sees every event)

  listBattles(): BattleSummary[] {
    this.flushIfWritable();
    return (this.db.prepare(`${SUMMARY_SQL} ORDER BY b.started_at, b.id`).all() as Row[]).map(summaryFromRow);
  }

  battle(id: number): BattleDetail {
    this.flushIfWritable();
    const r = this.db.prepare(`${SUMMARY_SQL} WHERE b.id = ?`).get(id) as Row | undefined;
    if (!r) throw new BattleNotFoundError(`no battle #${id}`);
    return {
      ...summaryFromRow(r),
      roster: JSON.parse(String(r['roster_json'])) as BattleRoster,
      camera: r['camera_json'] === null ? null : (JSON.parse(String(r['camera_json'])) as CameraProfile),
    };
  }

  /** A battle by number, uid (or its first 8+ characters) or exact name; the latest when `ref` is "last". */
  findBattle(ref: string): BattleDetail {
    const all = this.listBattles();
    const needle = ref.trim();
    let hit: BattleSummary | undefined;
    if (needle === 'last' || needle === 'latest') hit = all[all.length - 1];
    else if (/^#?\d+$/.test(needle)) hit = all.find((b) => b.id === Number(needle.replace('#', '')));
    if (!hit) hit = all.find((b) => b.uid === needle || (needle.length >= 8 && b.uid.startsWith(needle)));
    if (!hit) {
      const named = all.filter((b) => b.name.toLowerCase() === needle.toLowerCase());
      if (named.length > 1)
        throw new BattleNotFoundError(`${named.length} battles are called "${ref}": give its number`);
      hit = named[0];
    }
    if (!hit) throw new BattleNotFoundError(`no battle "${ref}" (see \`vedette battles\`)`);
    return this.battle(hit.id);
  }

  /** The settled pose of every base at t: the keyframe at or before t, then the moves after it. */
  seek(battleId: number, t: number): SeekResult {
    this.flushIfWritable();
    const key = this.stmt.keyframeAtOrBefore.get(battleId, t) as
      { t: number; poses_json: string } | undefined;
    const rows = (
      key ? this.stmt.movesBetween.all(battleId, key.t, t) : this.stmt.movesUpTo.all(battleId, t)
    ) as Row[];
    const poses = applyMoves(key ? decodePoses(key.poses_json) : [], rows.map(moveFromRow));
    return {
      t,
      keyframeAt: key ? num(key.t) : null,
      movesApplied: rows.length,
      poses: [...poses.values()].sort((a, b) => a.markerId - b.markerId),
    };
  }

  moves(battleId: number): MoveRecord[] {
    this.flushIfWritable();
    return (
      this.db.prepare('SELECT * FROM moves WHERE battle_id = ? ORDER BY t, id').all(battleId) as Row[]
    ).map(moveFromRow);
  }

  keyframes(battleId: number): KeyframeRecord[] {
    this.flushIfWritable();
    return (
      this.db
        .prepare('SELECT t, poses_json FROM keyframes WHERE battle_id = ? ORDER BY t, id')
        .all(battleId) as Row[]
    ).map((r) => ({ t: num(r['t']), poses: decodePoses(String(r['poses_json'])) }));
  }

  marks(battleId: number): MarkRecord[] {
    this.flushIfWritable();
    return (
      this.db.prepare('SELECT * FROM marks WHERE battle_id = ? ORDER BY t, id').all(battleId) as Row[]
    ).map(markFromRow);
  }

  rulings(battleId: number): RulingRecord[] {
    this.flushIfWritable();
    return (
      this.db.prepare('SELECT * FROM rulings WHERE battle_id = ? ORDER BY t, id').all(battleId) as Row[]
    ).map(rulingFromRow);
  }

  annotations(battleId: number): AnnotationRecord[] {
    this.flushIfWritable();
    return (
      this.db.prepare('SELECT * FROM annotations WHERE battle_id = ? ORDER BY t, id').all(battleId) as Row[]
    ).map(annotationFromRow);
  }

  snapshots(battleId: number): SnapshotInfo[] {
    this.flushIfWritable();
    return (
      this.db
        .prepare('SELECT id, t, width, height, pose_json FROM snapshots WHERE battle_id = ? ORDER BY t, id')
        .all(battleId) as Row[]
    ).map(snapshotFromRow);
  }

  snapshotJpeg(battleId: number, snapshotId: number): Buffer | null {
    this.flushIfWritable();
    const r = this.db
      .prepare('SELECT jpeg FROM snapshots WHERE battle_id = ? AND id = ?')
      .get(battleId, snapshotId) as { jpeg: Buffer } | undefined;
    return r?.jpeg ?? null;
  }

  /** Everything the replay page needs except the pictures themselves. */
  replay(battleId: number): ReplayData {
    const battle = this.battle(battleId);
    const first = this.db
      .prepare('SELECT t, poses_json FROM keyframes WHERE battle_id = ? ORDER BY t, id LIMIT 1')
      .get(battleId) as { t: number; poses_json: string } | undefined;
    return {
      battle,
      initial: first
        ? { t: num(first.t), poses: decodePoses(first.poses_json) }
        : { t: battle.startedAt, poses: [] },
      moves: this.moves(battleId),
      marks: this.marks(battleId),
      rulings: this.rulings(battleId),
      annotations: this.annotations(battleId),
      snapshots: this.snapshots(battleId),
    };
  }

  private flushIfWritable(): void {
    if (!this.db.readonly) this.flush();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    if (!this.db.open) return;
    if (!this.db.readonly) this.flush();
    this.db.close();
  }
}
