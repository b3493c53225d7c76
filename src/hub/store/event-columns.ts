import type { EventKind } from '../protocol/ingest.ts';

/**
 * The hub's event tables, column by column: ingestion writes them (ingest.ts), export reads them
 * back into a table's SQLite file (export.ts). One list, so the two cannot drift apart.
 */

/** Columns of each event table after (battle_id, seq), in the order ingestion writes them. */
export const EVENT_COLUMNS: Record<EventKind, readonly string[]> = {
  moves: [
    't',
    'marker_id',
    'unit_id',
    'x',
    'y',
    'heading_deg',
    'sigma_mm',
    'sigma_heading_deg',
    'from_x',
    'from_y',
    'from_heading_deg',
    'moving_since',
  ],
  keyframes: ['t', 'poses_json'],
  marks: ['t', 'kind', 'turn', 'phase', 'side', 'source', 'label'],
  rulings: ['t', 'ruleset', 'question', 'asked', 'answer', 'inputs_json', 'verdict_json'],
  annotations: ['t', 'text', 'x', 'y', 'author'],
  snapshots: ['t', 'width', 'height', 'pose_json', 'jpeg'],
};

/** PostgreSQL types of the columns, for unnest() of one array per column. */
export const EVENT_COLUMN_TYPES: Record<EventKind, readonly string[]> = {
  moves: [
    'int8',
    'int4',
    'text',
    'float8',
    'float8',
    'float8',
    'float8',
    'float8',
    'float8',
    'float8',
    'float8',
    'int8',
  ],
  keyframes: ['int8', 'text'],
  marks: ['int8', 'text', 'int4', 'text', 'text', 'text', 'text'],
  rulings: ['int8', 'text', 'text', 'text', 'text', 'text', 'text'],
  annotations: ['int8', 'text', 'float8', 'float8', 'text'],
  snapshots: ['int8', 'int4', 'int4', 'text', 'bytea'],
};

/** Integer columns: PostgreSQL's int8 comes back as a string, and SQLite must get integers. */
export function isIntegerColumn(kind: EventKind, index: number): boolean {
  const type = EVENT_COLUMN_TYPES[kind][index];
  return type === 'int8' || type === 'int4';
}
