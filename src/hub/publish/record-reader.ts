import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type {
  AnnotationRow,
  BattleMeta,
  EventKind,
  KeyframeRow,
  MarkRow,
  MoveRow,
  RulingRow,
  SnapshotRow,
} from '../protocol/ingest.ts';

/**
 * Reads the table's own battle store (`<data>/battles.db`, src/record/) for the outbox, through
 * its own read-only connection: WAL lets it read while the recorder writes, and it never writes.
 * Rows come out in id order, as the hub's wire rows, with the id as `seq`.
 */

type Row = Record<string, unknown>;
const n = (v: unknown): number => Number(v);
const nOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const sOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export interface LocalBattle {
  readonly id: number;
  readonly meta: BattleMeta;
}

export type WireRow = MoveRow | KeyframeRow | MarkRow | RulingRow | AnnotationRow | SnapshotRow;

/** Rough bytes of a wire row in the JSON body, to keep requests bounded. */
export function wireSize(kind: EventKind, row: WireRow): number {
  if (kind === 'snapshots') return (row as SnapshotRow).jpeg.length + 200;
  if (kind === 'keyframes') return (row as KeyframeRow).posesJson.length + 50;
  if (kind === 'rulings')
    return (row as RulingRow).verdictJson.length + (row as RulingRow).inputsJson.length + 200;
  return 250;
}

function digestOf(meta: Omit<BattleMeta, 'digest'>): string {
  return createHash('sha256').update(JSON.stringify(meta)).digest('hex');
}

function toWire(kind: EventKind, r: Row): WireRow {
  switch (kind) {
    case 'moves':
      return {
        seq: n(r['id']),
        t: n(r['t']),
        markerId: n(r['marker_id']),
        unitId: String(r['unit_id']),
        x: n(r['x']),
        y: n(r['y']),
        headingDeg: n(r['heading_deg']),
        sigmaMm: n(r['sigma_mm']),
        sigmaHeadingDeg: n(r['sigma_heading_deg']),
        fromX: nOrNull(r['from_x']),
        fromY: nOrNull(r['from_y']),
        fromHeadingDeg: nOrNull(r['from_heading_deg']),
        movingSince: n(r['moving_since']),
      };
    case 'keyframes':
      return { seq: n(r['id']), t: n(r['t']), posesJson: String(r['poses_json']) };
    case 'marks':
      return {
        seq: n(r['id']),
        t: n(r['t']),
        kind: r['kind'] === 'phase' ? 'phase' : 'turn',
        turn: nOrNull(r['turn']),
        phase: sOrNull(r['phase']),
        side: sOrNull(r['side']),
        source: r['source'] === 'player' ? 'player' : 'inferred',
        label: String(r['label']),
      };
    case 'rulings':
      return {
        seq: n(r['id']),
        t: n(r['t']),
        ruleset: String(r['ruleset']),
        question: String(r['question']),
        asked: String(r['asked']),
        answer: String(r['answer']),
        inputsJson: String(r['inputs_json']),
        verdictJson: String(r['verdict_json']),
      };
    case 'annotations':
      return {
        seq: n(r['id']),
        t: n(r['t']),
        text: String(r['text']),
        x: nOrNull(r['x']),
        y: nOrNull(r['y']),
        author: sOrNull(r['author']),
      };
    case 'snapshots':
      return {
        seq: n(r['id']),
        t: n(r['t']),
        width: n(r['width']),
        height: n(r['height']),
        poseJson: sOrNull(r['pose_json']),
        jpeg: (r['jpeg'] as Buffer).toString('base64'),
      };
  }
}

export class RecordReader {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    this.db.pragma('busy_timeout = 5000');
  }

  /** The battles recorded at this table (not imported ones) that started at or after `since`. */
  battles(since: number): LocalBattle[] {
    const rows = this.db
      .prepare('SELECT * FROM battles WHERE imported_from IS NULL AND started_at >= ? ORDER BY id')
      .all(since) as Row[];
    return rows.map((r) => {
      const meta = {
        uid: String(r['uid']),
        localId: n(r['id']),
        name: String(r['name']),
        scenario: String(r['scenario']),
        ruleset: String(r['ruleset']),
        rosterJson: String(r['roster_json']),
        cameraJson: sOrNull(r['camera_json']),
        startedAt: n(r['started_at']),
        endedAt: nOrNull(r['ended_at']),
      };
      return { id: n(r['id']), meta: { ...meta, digest: digestOf(meta) } };
    });
  }

  /** The open battle with the latest start, if any (the one being recorded). */
  openBattleStart(): number | null {
    const r = this.db
      .prepare(
        'SELECT started_at FROM battles WHERE imported_from IS NULL AND ended_at IS NULL ORDER BY id DESC LIMIT 1',
      )
      .get() as { started_at: number } | undefined;
    return r ? n(r.started_at) : null;
  }

  /** Rows of one kind after `afterSeq`, in order, at most `limit`. */
  rows(kind: EventKind, battleId: number, afterSeq: number, limit: number): WireRow[] {
    const rows = this.db
      .prepare(`SELECT * FROM ${kind} WHERE battle_id = ? AND id > ? ORDER BY id LIMIT ?`)
      .all(battleId, afterSeq, limit) as Row[];
    return rows.map((r) => toWire(kind, r));
  }

  close(): void {
    this.db.close();
  }
}
