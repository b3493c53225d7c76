import type Database from 'better-sqlite3';
import { BattleFileError } from './schema.ts';

/**
 * The range of every number a battle file holds, checked at import: SQLite stores Infinity in a
 * REAL column without complaint, and a file can be edited and its hash recomputed, so the hash
 * alone does not make a file's numbers sensible. Each numeric column has a rule; JSON columns are
 * walked for numbers that are not finite (JSON's `1e999` parses as Infinity).
 */

/** Latest time accepted (epoch ms): the year 3000. */
const LATEST_MS = 32_503_680_000_000;
/** Farthest a position may be from the table origin: one kilometre. */
const FARTHEST_MM = 1_000_000;
const MAX_DEGREES = 3600;

interface Kind {
  readonly sql: (column: string) => string;
  readonly says: string;
}

const kinds = {
  time: {
    sql: (c: string) => `typeof(${c}) = 'integer' AND ${c} BETWEEN 0 AND ${LATEST_MS}`,
    says: `a time in epoch milliseconds (a whole number from 0 to ${LATEST_MS})`,
  },
  mm: {
    sql: (c: string) =>
      `typeof(${c}) IN ('integer', 'real') AND ${c} BETWEEN -${FARTHEST_MM} AND ${FARTHEST_MM}`,
    says: `a finite length within ±${FARTHEST_MM} mm`,
  },
  sigmaMm: {
    sql: (c: string) => `typeof(${c}) IN ('integer', 'real') AND ${c} BETWEEN 0 AND ${FARTHEST_MM}`,
    says: `a finite uncertainty from 0 to ${FARTHEST_MM} mm`,
  },
  degrees: {
    sql: (c: string) =>
      `typeof(${c}) IN ('integer', 'real') AND ${c} BETWEEN -${MAX_DEGREES} AND ${MAX_DEGREES}`,
    says: `a finite angle within ±${MAX_DEGREES}°`,
  },
  sigmaDegrees: {
    sql: (c: string) => `typeof(${c}) IN ('integer', 'real') AND ${c} BETWEEN 0 AND ${MAX_DEGREES}`,
    says: `a finite angular uncertainty from 0 to ${MAX_DEGREES}°`,
  },
  markerId: {
    sql: (c: string) => `typeof(${c}) = 'integer' AND ${c} BETWEEN 0 AND 100000`,
    says: 'a marker id (a whole number from 0 to 100000)',
  },
  count: {
    sql: (c: string) => `typeof(${c}) = 'integer' AND ${c} BETWEEN 0 AND 100000`,
    says: 'a whole number from 0 to 100000',
  },
  pixels: {
    sql: (c: string) => `typeof(${c}) = 'integer' AND ${c} BETWEEN 1 AND 16384`,
    says: 'a picture size in pixels (1 to 16384)',
  },
} satisfies Record<string, Kind>;

type Rule = readonly [table: string, column: string, kind: keyof typeof kinds, nullable?: 'nullable'];

const RULES: readonly Rule[] = [
  ['battles', 'started_at', 'time'],
  ['battles', 'ended_at', 'time', 'nullable'],
  ['marks', 't', 'time'],
  ['marks', 'turn', 'count', 'nullable'],
  ['moves', 't', 'time'],
  ['moves', 'marker_id', 'markerId'],
  ['moves', 'x', 'mm'],
  ['moves', 'y', 'mm'],
  ['moves', 'heading_deg', 'degrees'],
  ['moves', 'sigma_mm', 'sigmaMm'],
  ['moves', 'sigma_heading_deg', 'sigmaDegrees'],
  ['moves', 'from_x', 'mm', 'nullable'],
  ['moves', 'from_y', 'mm', 'nullable'],
  ['moves', 'from_heading_deg', 'degrees', 'nullable'],
  ['moves', 'moving_since', 'time'],
  ['keyframes', 't', 'time'],
  ['rulings', 't', 'time'],
  ['annotations', 't', 'time'],
  ['annotations', 'x', 'mm', 'nullable'],
  ['annotations', 'y', 'mm', 'nullable'],
  ['snapshots', 't', 'time'],
  ['snapshots', 'width', 'pixels'],
  ['snapshots', 'height', 'pixels'],
];

const SINGULAR: Record<string, string> = {
  battles: 'the battle',
  marks: 'mark',
  moves: 'move',
  keyframes: 'keyframe',
  rulings: 'ruling',
  annotations: 'note',
  snapshots: 'picture',
};

function shown(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}

/** Throws BattleFileError naming the first value out of its range, and how many such rows there are. */
export function checkValueRanges(db: Database.Database): void {
  for (const [table, column, kind, nullable] of RULES) {
    const ok = kinds[kind].sql(column);
    const where = `NOT (${nullable ? `${column} IS NULL OR (${ok})` : `${column} IS NOT NULL AND (${ok})`})`;
    const bad = db
      .prepare(
        `SELECT id, ${column} AS value, (SELECT count(*) FROM ${table} WHERE ${where}) AS n FROM ${table} WHERE ${where} ORDER BY id LIMIT 1`,
      )
      .get() as { id: number; value: unknown; n: number } | undefined;
    if (!bad) continue;
    const which = table === 'battles' ? SINGULAR[table] : `${SINGULAR[table]} ${bad.id}`;
    const more = bad.n > 1 ? ` (and ${bad.n - 1} more ${table} like it)` : '';
    throw new BattleFileError(
      `damaged: ${which}: ${column} is ${shown(bad.value)}, not ${kinds[kind].says}${more}`,
    );
  }
}

/** The path of the first number in a parsed JSON value that is not finite, or null. */
export function nonFiniteNumberAt(value: unknown, path = ''): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path || '(root)';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = nonFiniteNumberAt(value[i], `${path}${path ? '.' : ''}${i}`);
      if (at) return at;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const at = nonFiniteNumberAt(v, `${path}${path ? '.' : ''}${k}`);
      if (at) return at;
    }
  }
  return null;
}
