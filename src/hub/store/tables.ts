import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';

/**
 * The tables of a club night or tournament. Each has its own token (shown once, when made or
 * renewed; the hub keeps only its sha256), which lets that table — and only it — publish its
 * live picture and its battles.
 */

export interface HubTable {
  readonly id: string;
  readonly name: string;
  readonly players: readonly string[];
  readonly createdAt: number;
}

export class TableError extends Error {
  override name = 'TableError';
}

export const TABLE_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A random URL-safe table token (192 bits). */
export function newTableToken(): string {
  return randomBytes(24).toString('base64url');
}

function tableFromRow(r: Record<string, unknown>): HubTable {
  return {
    id: String(r['id']),
    name: String(r['name']),
    players: (r['players'] as string[] | null) ?? [],
    createdAt: new Date(r['created_at'] as string | Date).getTime(),
  };
}

function checkId(id: string): void {
  if (!TABLE_ID.test(id))
    throw new TableError(
      `a table id is 1–40 lower-case letters, digits and "-", starting with a letter or digit (not "${id}")`,
    );
}

/** Adds a table and returns it with its token. */
export async function addTable(
  pool: pg.Pool,
  input: { id: string; name?: string; players?: readonly string[] },
): Promise<{ table: HubTable; token: string }> {
  checkId(input.id);
  const token = newTableToken();
  try {
    const res = await pool.query(
      'INSERT INTO hub_tables (id, name, token_hash, players) VALUES ($1, $2, $3, $4) RETURNING *',
      [input.id, input.name ?? input.id, tokenHash(token), input.players ?? []],
    );
    return { table: tableFromRow(res.rows[0] as Record<string, unknown>), token };
  } catch (err) {
    if ((err as { code?: string }).code === '23505')
      throw new TableError(`table "${input.id}" exists already (renew its token to get a new one)`);
    throw err;
  }
}

/** Gives a table a new token (the old one stops working at once). */
export async function renewTableToken(pool: pg.Pool, id: string): Promise<string> {
  const token = newTableToken();
  const res = await pool.query('UPDATE hub_tables SET token_hash = $2 WHERE id = $1', [id, tokenHash(token)]);
  if (res.rowCount === 0) throw new TableError(`no table "${id}"`);
  return token;
}

export async function setPlayers(pool: pg.Pool, id: string, players: readonly string[]): Promise<HubTable> {
  const res = await pool.query('UPDATE hub_tables SET players = $2 WHERE id = $1 RETURNING *', [id, players]);
  if (res.rowCount === 0) throw new TableError(`no table "${id}"`);
  return tableFromRow(res.rows[0] as Record<string, unknown>);
}

export async function listTables(pool: pg.Pool): Promise<HubTable[]> {
  const res = await pool.query('SELECT * FROM hub_tables ORDER BY id');
  return res.rows.map((r) => tableFromRow(r as Record<string, unknown>));
}

/** The table a token belongs to, or null. */
export async function tableForToken(pool: pg.Pool, token: string): Promise<string | null> {
  if (token.length === 0 || token.length > 200) return null;
  const res = await pool.query<{ id: string }>('SELECT id FROM hub_tables WHERE token_hash = $1', [
    tokenHash(token),
  ]);
  return res.rows[0]?.id ?? null;
}
