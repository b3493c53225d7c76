import type { TablePose } from '../camera/table-pose.ts';
import type { Verdict } from '../rules/engine/verdict.ts';
import type {
  AnnotationRecord,
  MarkRecord,
  MoveRecord,
  RulingInputs,
  RulingRecord,
  SnapshotInfo,
} from './types.ts';

/**
 * Database rows of a battle's events into the record's shapes (types.ts). A table's SQLite store
 * and the hub's PostgreSQL archive hold the same columns; the hub keeps the table's own event id
 * as `seq` (see `withTableIds`), and PostgreSQL hands int8 back as strings, which `Number` reads
 * the same.
 */

export type Row = Record<string, unknown>;

export const num = (v: unknown): number => Number(v);
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export function moveFromRow(r: Row): MoveRecord {
  return {
    id: num(r['id']),
    t: num(r['t']),
    markerId: num(r['marker_id']),
    unitId: String(r['unit_id']),
    x: num(r['x']),
    y: num(r['y']),
    headingDeg: num(r['heading_deg']),
    sigmaMm: num(r['sigma_mm']),
    sigmaHeadingDeg: num(r['sigma_heading_deg']),
    from:
      r['from_x'] === null
        ? null
        : { x: num(r['from_x']), y: num(r['from_y']), headingDeg: num(r['from_heading_deg']) },
    movingSince: num(r['moving_since']),
  };
}

export function markFromRow(r: Row): MarkRecord {
  return {
    id: num(r['id']),
    t: num(r['t']),
    kind: r['kind'] === 'phase' ? 'phase' : 'turn',
    turn: numOrNull(r['turn']),
    phase: strOrNull(r['phase']),
    side: strOrNull(r['side']),
    source: r['source'] === 'player' ? 'player' : 'inferred',
    label: String(r['label']),
  };
}

export function rulingFromRow(r: Row): RulingRecord {
  return {
    id: num(r['id']),
    t: num(r['t']),
    inputs: JSON.parse(String(r['inputs_json'])) as RulingInputs,
    verdict: JSON.parse(String(r['verdict_json'])) as Verdict,
  };
}

export function annotationFromRow(r: Row): AnnotationRecord {
  return {
    id: num(r['id']),
    t: num(r['t']),
    text: String(r['text']),
    at: r['x'] === null ? null : { x: num(r['x']), y: num(r['y']) },
    author: strOrNull(r['author']),
  };
}

export function snapshotFromRow(r: Row): SnapshotInfo {
  return {
    id: num(r['id']),
    t: num(r['t']),
    width: num(r['width']),
    height: num(r['height']),
    pose: r['pose_json'] === null ? null : (JSON.parse(String(r['pose_json'])) as TablePose),
  };
}

/** A hub row with the table's own event id (`seq`) where a table's store has it (`id`). */
export function withTableIds(rows: readonly Row[]): Row[] {
  return rows.map((r) => ({ ...r, id: r['seq'] }));
}
