import type pg from 'pg';

/**
 * The tournament board: one line per table — its name and players, whether its live picture is
 * coming in (and through which hub process), the battle it plays now (the latest it sent), that
 * battle's scenario, turn and last ruling.
 */

export interface BoardTable {
  readonly id: string;
  readonly name: string;
  readonly players: readonly string[];
  /** Whether the table's live picture reaches the hub now. */
  readonly live: boolean;
  /** The camera's state as the table last said (`live`, `retrying`…), null when never heard. */
  readonly camera: string | null;
  /** The table's own line about its camera and scenario (its last `hello`). */
  readonly source: string | null;
  readonly liveScenario: string | null;
  readonly updatedAt: number | null;
  readonly battle: {
    readonly id: number;
    readonly name: string;
    readonly scenario: string;
    readonly ruleset: string;
    readonly startedAt: number;
    readonly endedAt: number | null;
    readonly lastEventAt: number;
    readonly turn: number | null;
    readonly moves: number;
    readonly rulings: number;
    readonly lastRuling: { readonly t: number; readonly asked: string; readonly answer: string } | null;
  } | null;
}

interface HelloSeen {
  readonly scenario?: unknown;
  readonly source?: unknown;
  readonly sourceStatus?: { readonly state?: unknown };
}

function helloOf(json: unknown): HelloSeen | null {
  if (typeof json !== 'string') return null;
  try {
    const v = JSON.parse(json) as unknown;
    return typeof v === 'object' && v !== null ? (v as HelloSeen) : null;
  } catch {
    return null;
  }
}

export async function boardTables(pool: pg.Pool): Promise<BoardTable[]> {
  const res = await pool.query(`
    SELECT t.id, t.name, t.players,
      (coalesce(l.connected, false) AND l.updated_at > now() - interval '10 seconds') AS connected, l.hello_json, l.updated_at,
      b.id AS battle_id, b.name AS battle_name, b.scenario, b.ruleset, b.started_at, b.ended_at, b.last_event_at,
      (SELECT max(turn) FROM marks k WHERE k.battle_id = b.id AND k.kind = 'turn') AS turn,
      (SELECT count(*) FROM moves m WHERE m.battle_id = b.id) AS n_moves,
      (SELECT count(*) FROM rulings r WHERE r.battle_id = b.id) AS n_rulings,
      r.t AS ruling_t, r.asked AS ruling_asked, r.answer AS ruling_answer
    FROM hub_tables t
    LEFT JOIN table_live l ON l.table_id = t.id
    LEFT JOIN LATERAL (
      SELECT * FROM battles WHERE table_id = t.id ORDER BY started_at DESC, id DESC LIMIT 1
    ) b ON true
    LEFT JOIN LATERAL (
      SELECT t, asked, answer FROM rulings WHERE battle_id = b.id ORDER BY t DESC, seq DESC LIMIT 1
    ) r ON true
    ORDER BY t.id`);
  return res.rows.map((row: Record<string, unknown>) => {
    const hello = helloOf(row['hello_json']);
    const state = hello?.sourceStatus?.state;
    return {
      id: String(row['id']),
      name: String(row['name']),
      players: (row['players'] as string[] | null) ?? [],
      live: row['connected'] === true,
      camera: typeof state === 'string' ? state : null,
      source: typeof hello?.source === 'string' ? hello.source : null,
      liveScenario: typeof hello?.scenario === 'string' ? hello.scenario : null,
      updatedAt: row['updated_at'] ? new Date(row['updated_at'] as string).getTime() : null,
      battle:
        row['battle_id'] === null
          ? null
          : {
              id: Number(row['battle_id']),
              name: String(row['battle_name']),
              scenario: String(row['scenario']),
              ruleset: String(row['ruleset']),
              startedAt: Number(row['started_at']),
              endedAt: row['ended_at'] === null ? null : Number(row['ended_at']),
              lastEventAt: Number(row['last_event_at']),
              turn: row['turn'] === null ? null : Number(row['turn']),
              moves: Number(row['n_moves']),
              rulings: Number(row['n_rulings']),
              lastRuling:
                row['ruling_t'] === null
                  ? null
                  : {
                      t: Number(row['ruling_t']),
                      asked: String(row['ruling_asked']),
                      answer: String(row['ruling_answer']),
                    },
            },
    };
  });
}
