import type pg from 'pg';
import type { CameraProfile } from '../../camera/profile.ts';
import {
  annotationFromRow,
  markFromRow,
  moveFromRow,
  num,
  numOrNull,
  rulingFromRow,
  snapshotFromRow,
  withTableIds,
  type Row,
} from '../../record/event-rows.ts';
import { decodePoses } from '../../record/store.ts';
import type {
  BattleDetail,
  BattleRoster,
  BattleSummary,
  KeyframeRecord,
  MoveRecord,
  ReplayData,
  RulingRecord,
} from '../../record/types.ts';

/**
 * The archive: every battle every table has replicated, searchable by player, ruleset, scenario,
 * table and date, read back in the shapes the table's own record uses (src/record/types.ts), so
 * the replay page opens a hub battle exactly as it opens a local one.
 */

export class HubBattleNotFoundError extends Error {
  override name = 'HubBattleNotFoundError';
}

/** A battle in the archive: the record's summary plus where it was played and by whom. */
export interface HubBattleSummary extends BattleSummary {
  readonly table: string;
  readonly players: readonly string[];
}

export interface ArchiveQuery {
  /** Part of a player's name (any of the battle's players). */
  readonly player?: string;
  readonly ruleset?: string;
  /** Part of the scenario's name. */
  readonly scenario?: string;
  readonly table?: string;
  /** Battles started at or after / before these epoch ms. */
  readonly from?: number;
  readonly to?: number;
  /** Part of the battle's name. */
  readonly text?: string;
  readonly limit?: number;
}

const SUMMARY = `
  SELECT b.*,
    (SELECT count(*) FROM moves m WHERE m.battle_id = b.id) AS n_moves,
    (SELECT count(*) FROM rulings r WHERE r.battle_id = b.id) AS n_rulings,
    (SELECT count(*) FROM marks k WHERE k.battle_id = b.id AND k.kind = 'turn') AS n_turns
  FROM battles b`;

function likeOf(s: string): string {
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function summaryFromRow(r: Row): HubBattleSummary {
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
    importedFrom: null,
    table: String(r['table_id']),
    players: (r['players'] as string[] | null) ?? [],
  };
}

export async function searchBattles(pool: pg.Pool, q: ArchiveQuery): Promise<HubBattleSummary[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (q.player)
    add((p) => `EXISTS (SELECT 1 FROM unnest(b.players) AS pl WHERE pl ILIKE ${p})`, likeOf(q.player));
  if (q.ruleset) add((p) => `b.ruleset = ${p}`, q.ruleset);
  if (q.scenario) add((p) => `b.scenario ILIKE ${p}`, likeOf(q.scenario));
  if (q.table) add((p) => `b.table_id = ${p}`, q.table);
  if (q.from !== undefined) add((p) => `b.started_at >= ${p}`, q.from);
  if (q.to !== undefined) add((p) => `b.started_at < ${p}`, q.to);
  if (q.text) add((p) => `b.name ILIKE ${p}`, likeOf(q.text));
  params.push(Math.min(Math.max(1, q.limit ?? 200), 1000));
  const res = await pool.query(
    `${SUMMARY} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY b.started_at DESC, b.id DESC LIMIT $${params.length}`,
    params,
  );
  return res.rows.map((r) => summaryFromRow(r as Row));
}

export async function battleDetail(pool: pg.Pool, id: number): Promise<HubBattleSummary & BattleDetail> {
  if (!Number.isSafeInteger(id) || id <= 0) throw new HubBattleNotFoundError(`no battle #${id}`);
  const res = await pool.query(`${SUMMARY} WHERE b.id = $1`, [id]);
  const r = res.rows[0] as Row | undefined;
  if (!r) throw new HubBattleNotFoundError(`no battle #${id}`);
  return {
    ...summaryFromRow(r),
    roster: JSON.parse(String(r['roster_json'])) as BattleRoster,
    camera: r['camera_json'] === null ? null : (JSON.parse(String(r['camera_json'])) as CameraProfile),
  };
}

async function rows(pool: pg.Pool, sql: string, id: number): Promise<Row[]> {
  return (await pool.query(sql, [id])).rows as Row[];
}

export async function battleMoves(pool: pg.Pool, id: number): Promise<MoveRecord[]> {
  return withTableIds(await rows(pool, 'SELECT * FROM moves WHERE battle_id = $1 ORDER BY t, seq', id)).map(
    moveFromRow,
  );
}

export async function battleRulings(pool: pg.Pool, id: number): Promise<RulingRecord[]> {
  return withTableIds(await rows(pool, 'SELECT * FROM rulings WHERE battle_id = $1 ORDER BY t, seq', id)).map(
    rulingFromRow,
  );
}

export async function battleKeyframes(pool: pg.Pool, id: number): Promise<KeyframeRecord[]> {
  return (
    await rows(pool, 'SELECT t, poses_json FROM keyframes WHERE battle_id = $1 ORDER BY t, seq', id)
  ).map((r) => ({ t: num(r['t']), poses: decodePoses(String(r['poses_json'])) }));
}

/** Everything the replay page needs but the pictures (the same answer as a table's /api/battles/:id/replay). */
export async function replayData(pool: pg.Pool, id: number): Promise<ReplayData> {
  const battle = await battleDetail(pool, id);
  const [first, moves, marks, rulings, annotations, snapshots] = await Promise.all([
    rows(pool, 'SELECT t, poses_json FROM keyframes WHERE battle_id = $1 ORDER BY t, seq LIMIT 1', id),
    battleMoves(pool, id),
    rows(pool, 'SELECT * FROM marks WHERE battle_id = $1 ORDER BY t, seq', id),
    battleRulings(pool, id),
    rows(pool, 'SELECT * FROM annotations WHERE battle_id = $1 ORDER BY t, seq', id),
    rows(
      pool,
      'SELECT seq, t, width, height, pose_json FROM snapshots WHERE battle_id = $1 ORDER BY t, seq',
      id,
    ),
  ]);
  const k = first[0];
  return {
    battle,
    initial: k
      ? { t: num(k['t']), poses: decodePoses(String(k['poses_json'])) }
      : { t: battle.startedAt, poses: [] },
    moves,
    marks: withTableIds(marks).map(markFromRow),
    rulings,
    annotations: withTableIds(annotations).map(annotationFromRow),
    snapshots: withTableIds(snapshots).map(snapshotFromRow),
  };
}

export async function snapshotJpeg(pool: pg.Pool, battleId: number, seq: number): Promise<Buffer | null> {
  if (!Number.isSafeInteger(battleId) || !Number.isSafeInteger(seq)) return null;
  const res = await pool.query<{ jpeg: Buffer }>(
    'SELECT jpeg FROM snapshots WHERE battle_id = $1 AND seq = $2',
    [battleId, seq],
  );
  return res.rows[0]?.jpeg ?? null;
}

/** Rulesets and scenarios present in the archive (for the search form). */
export async function archiveFacets(
  pool: pg.Pool,
): Promise<{ rulesets: string[]; scenarios: string[]; tables: string[] }> {
  const [r, s, t] = await Promise.all([
    pool.query<{ v: string }>('SELECT DISTINCT ruleset AS v FROM battles ORDER BY 1'),
    pool.query<{ v: string }>('SELECT DISTINCT scenario AS v FROM battles ORDER BY 1'),
    pool.query<{ v: string }>('SELECT id AS v FROM hub_tables ORDER BY 1'),
  ]);
  return {
    rulesets: r.rows.map((x) => x.v),
    scenarios: s.rows.map((x) => x.v),
    tables: t.rows.map((x) => x.v),
  };
}
