import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { classify, type LiveMessage } from './live-message.ts';

/**
 * Fan-out between hub processes through PostgreSQL. A table uploads its live stream to one hub
 * process (the one its connection reached); viewers may be on any. Each process says which
 * tables it has viewers for (`NOTIFY vedette_watch`, again every few seconds), and the process
 * holding a table's upload writes that table's messages to the unlogged `live_messages` table
 * only while another process watches it, then `NOTIFY vedette_live` with the last row's number.
 * A notification carries at most 8000 bytes, so it carries the row's number, not the picture;
 * the watching processes fetch the new rows and hand them to their viewers unchanged. Rows older
 * than a few seconds are deleted.
 */

const LIVE = 'vedette_live';
const WATCH = 'vedette_watch';
const BOARD = 'vedette_board';

export interface BusOptions {
  /** How often a process repeats which tables it watches, ms. */
  readonly announceEveryMs: number;
  /** A process not heard from for this long is taken to be gone, ms. */
  readonly forgetAfterMs: number;
  /** How long live rows are kept, ms. */
  readonly keepMs: number;
  /** A watcher this far behind (rows) skips to the latest frame. */
  readonly maxBehind: number;
  /** Database connections of the bus (writing the stream, fetching it). */
  readonly connections: number;
}

export const DEFAULT_BUS_OPTIONS: BusOptions = {
  announceEveryMs: 3000,
  forgetAfterMs: 10_000,
  keepMs: 10_000,
  maxBehind: 24,
  connections: 6,
};

export interface BusHandlers {
  /** Messages of a table this process watches, uploaded to another process. */
  messages(tableId: string, messages: readonly LiveMessage[]): void;
  /** A table's record or state changed (new battle events, connected, gone). */
  boardChanged?(tableId: string): void;
}

export interface BusStats {
  readonly published: number;
  readonly fetched: number;
  readonly notifications: number;
}

/**
 * The bus's own small pool: its writes are the live stream, worth nothing after a crash, so its
 * commits do not wait for the disk (`synchronous_commit = off`; the table is unlogged anyway).
 */
function busPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: 'vedette-hub-live',
    options: '-c synchronous_commit=off',
  });
  pool.on('error', (err) => console.error(`hub live database: ${err.message}`));
  return pool;
}

export class PgBus {
  /** This process, as other processes know it. */
  readonly instance = `${process.pid}-${randomBytes(3).toString('hex')}`;
  private listener: pg.Client | null = null;
  private closed = false;
  private readonly watchedHere = new Set<string>();
  private readonly watchers = new Map<string, { tables: Set<string>; seen: number }>();
  private readonly lastSeq = new Map<string, number>();
  private readonly fetching = new Map<string, { again: boolean }>();
  private readonly outbox = new Map<string, LiveMessage[]>();
  private readonly flushing = new Set<string>();
  private readonly frameTimers = new Map<string, NodeJS.Timeout>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly options: BusOptions;
  private counts = { published: 0, fetched: 0, notifications: 0 };
  private readonly pool: pg.Pool;

  constructor(
    private readonly url: string,
    private readonly handlers: BusHandlers,
    options: Partial<BusOptions> = {},
  ) {
    this.options = { ...DEFAULT_BUS_OPTIONS, ...options };
    this.pool = busPool(url, this.options.connections);
  }

  get stats(): BusStats {
    return { ...this.counts };
  }

  async start(): Promise<void> {
    await this.listen();
    this.timers.push(setInterval(() => void this.announce(false), this.options.announceEveryMs));
    this.timers.push(setInterval(() => void this.cleanup(), Math.max(1000, this.options.keepMs / 2)));
    for (const t of this.timers) t.unref();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'vedette-hub-listen' });
    client.on('notification', (n) => this.onNotification(n.channel, n.payload ?? ''));
    const lost = (err?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      if (this.closed) return;
      if (err) console.error(`hub: lost the database's notifications (${err.message}); reconnecting`);
      setTimeout(() => void this.reconnect(), 1000).unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    await client.query(`LISTEN ${LIVE}; LISTEN ${WATCH}; LISTEN ${BOARD}`);
    this.listener = client;
    await this.announce(true);
  }

  private async reconnect(): Promise<void> {
    if (this.closed || this.listener) return;
    try {
      await this.listen();
      // Whatever was said while deaf: catch up on every table watched here.
      for (const table of this.watchedHere) this.scheduleFetch(table);
    } catch {
      setTimeout(() => void this.reconnect(), 2000).unref();
    }
  }

  private onNotification(channel: string, payload: string): void {
    this.counts.notifications++;
    if (channel === LIVE) {
      const [table, , instance] = payload.split('\t');
      if (!table || instance === this.instance || !this.watchedHere.has(table)) return;
      this.scheduleFetch(table);
    } else if (channel === WATCH) {
      let said: { i?: unknown; t?: unknown; ask?: unknown };
      try {
        said = JSON.parse(payload) as typeof said;
      } catch {
        return;
      }
      if (typeof said.i !== 'string' || said.i === this.instance || !Array.isArray(said.t)) return;
      if (said.t.length === 0 && said.ask === 'bye') this.watchers.delete(said.i);
      else this.watchers.set(said.i, { tables: new Set(said.t.map(String)), seen: Date.now() });
      if (said.ask === true) void this.announce(false);
    } else if (channel === BOARD) {
      this.handlers.boardChanged?.(payload);
    }
  }

  /** Says which tables this process watches (and, with `ask`, asks the others to say theirs). */
  private async announce(ask: boolean | 'bye'): Promise<void> {
    const payload = JSON.stringify({ i: this.instance, t: ask === 'bye' ? [] : [...this.watchedHere], ask });
    try {
      await this.pool.query('SELECT pg_notify($1, $2)', [WATCH, payload]);
    } catch {
      /* said again at the next interval */
    }
  }

  /** This process has viewers of a table whose upload may be elsewhere. */
  watch(tableId: string): void {
    if (this.watchedHere.has(tableId)) return;
    this.watchedHere.add(tableId);
    void this.announce(false);
    this.scheduleFetch(tableId);
  }

  unwatch(tableId: string): void {
    if (!this.watchedHere.delete(tableId)) return;
    this.lastSeq.delete(tableId);
    void this.announce(false);
  }

  /** Whether another live process watches this table (then its messages go through the database). */
  watchedElsewhere(tableId: string): boolean {
    const now = Date.now();
    for (const [instance, w] of this.watchers) {
      if (now - w.seen > this.options.forgetAfterMs) {
        this.watchers.delete(instance);
        continue;
      }
      if (w.tables.has(tableId)) return true;
    }
    return false;
  }

  /** A message uploaded here: passed on to the processes watching its table. */
  publish(tableId: string, message: LiveMessage): void {
    if (!this.watchedElsewhere(tableId)) return;
    let queue = this.outbox.get(tableId);
    if (!queue) this.outbox.set(tableId, (queue = []));
    queue.push(message);
    if (queue.length > this.options.maxBehind) {
      // The database is slower than the table: keep hellos and the latest frame onwards.
      const lastFrame = queue.map((m) => m.kind).lastIndexOf('frame');
      const kept = queue.filter((m, i) => i >= lastFrame || m.kind === 'hello' || m.kind === 'other');
      queue.splice(0, queue.length, ...kept);
    }
    // A frame waits (briefly) for the state that follows it: one write and one notification for both.
    if (message.kind === 'frame') {
      if (!this.frameTimers.has(tableId))
        this.frameTimers.set(
          tableId,
          setTimeout(() => {
            this.frameTimers.delete(tableId);
            void this.flush(tableId);
          }, 30),
        );
      return;
    }
    const timer = this.frameTimers.get(tableId);
    if (timer) {
      clearTimeout(timer);
      this.frameTimers.delete(tableId);
    }
    void this.flush(tableId);
  }

  private async flush(tableId: string): Promise<void> {
    if (this.flushing.has(tableId)) return;
    this.flushing.add(tableId);
    try {
      for (;;) {
        const queue = this.outbox.get(tableId);
        if (!queue || queue.length === 0) break;
        const batch = queue.splice(0);
        try {
          await this.pool.query(
            `WITH ins AS (
               INSERT INTO live_messages (table_id, is_binary, payload)
               SELECT $1, * FROM unnest($2::bool[], $3::bytea[]) RETURNING seq)
             SELECT pg_notify('${LIVE}', $1 || E'\\t' || max(seq) || E'\\t' || $4) FROM ins`,
            [tableId, batch.map((m) => m.binary), batch.map((m) => m.data), this.instance],
          );
          this.counts.published += batch.length;
        } catch (err) {
          console.error(`hub: live stream of ${tableId} not passed on: ${(err as Error).message}`);
          break;
        }
      }
    } finally {
      this.flushing.delete(tableId);
    }
  }

  private scheduleFetch(tableId: string): void {
    const running = this.fetching.get(tableId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.fetching.set(tableId, state);
    void (async () => {
      try {
        do {
          state.again = false;
          await this.fetch(tableId);
        } while (state.again && this.watchedHere.has(tableId));
      } catch (err) {
        if (!this.closed)
          console.error(`hub: live stream of ${tableId} not fetched: ${(err as Error).message}`);
      } finally {
        this.fetching.delete(tableId);
      }
    })();
  }

  private async fetch(tableId: string): Promise<void> {
    const after = this.lastSeq.get(tableId);
    const res =
      after === undefined
        ? await this.pool.query<{ seq: string; is_binary: boolean; payload: Buffer }>(
            `SELECT seq, is_binary, payload FROM live_messages WHERE table_id = $1 AND seq >=
               coalesce((SELECT max(seq) FROM live_messages WHERE table_id = $1 AND is_binary), 0)
             ORDER BY seq`,
            [tableId],
          )
        : await this.pool.query<{ seq: string; is_binary: boolean; payload: Buffer }>(
            'SELECT seq, is_binary, payload FROM live_messages WHERE table_id = $1 AND seq > $2 ORDER BY seq LIMIT 500',
            [tableId, after],
          );
    if (res.rows.length === 0) return;
    this.lastSeq.set(tableId, Number(res.rows[res.rows.length - 1]!.seq));
    let messages = res.rows.map((r) => classify(r.payload, r.is_binary));
    if (messages.length > this.options.maxBehind) {
      const lastFrame = messages.map((m) => m.kind).lastIndexOf('frame');
      messages = messages.filter((m, i) => i >= lastFrame || m.kind === 'hello' || m.kind === 'other');
    }
    this.counts.fetched += messages.length;
    if (this.watchedHere.has(tableId)) this.handlers.messages(tableId, messages);
  }

  /** Tells every process that a table's board line changed. */
  async boardChanged(tableId: string): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [BOARD, tableId]).catch(() => undefined);
  }

  private async cleanup(): Promise<void> {
    try {
      await this.pool.query(`DELETE FROM live_messages WHERE at < now() - $1 * interval '1 millisecond'`, [
        this.options.keepMs,
      ]);
    } catch {
      /* next time */
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    for (const t of this.frameTimers.values()) clearTimeout(t);
    await this.announce('bye');
    const l = this.listener;
    this.listener = null;
    await l?.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}
