import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { classify, type LiveMessage } from './live-message.ts';

/**
 * Fan-out between hub processes through PostgreSQL. A table uploads its live stream to one hub
 * process (the one its connection reached); viewers may be on any. Each process says which
 * tables it has viewers for (`NOTIFY vedette_watch`, again every few seconds), and the process
 * holding a table's upload writes that table's messages to the unlogged `live_messages` table
 * only while another process watches it, then `NOTIFY vedette_live` with the rows' numbers. A
 * notification carries at most 8000 bytes, so it carries numbers, not pictures; the watching
 * processes fetch the new rows and hand them to their viewers unchanged. Each process writes
 * every table's waiting messages in one statement, one at a time, and fetches every watched
 * table's new rows of one writer in one query: under load, batches grow instead of queues.
 * Rows older than a few seconds are deleted.
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
  /** Another process has started watching these tables (send it what they look like now). */
  watchersJoined?(tableIds: readonly string[]): void;
}

export interface BusStats {
  readonly published: number;
  readonly fetched: number;
  readonly notifications: number;
}

/**
 * Drops what a slow reader or writer cannot catch up with: for each table, everything before its
 * latest frame except `hello` and unknown messages (which describe the table, not a moment).
 */
function skipBehind<T extends { tableId: string; message: LiveMessage }>(items: readonly T[]): T[] {
  const lastFrame = new Map<string, number>();
  items.forEach((x, i) => {
    if (x.message.kind === 'frame') lastFrame.set(x.tableId, i);
  });
  return items.filter(
    (x, i) =>
      i >= (lastFrame.get(x.tableId) ?? 0) || x.message.kind === 'hello' || x.message.kind === 'other',
  );
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
  /** Per writing process: the last row read here and the last row it said it wrote. */
  private readonly origins = new Map<string, { read: number; notified: number; fetching: boolean }>();
  private readonly outbox: Array<{ tableId: string; message: LiveMessage }> = [];
  private flushing = false;
  private flushTimer: NodeJS.Timeout | null = null;
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
      // Whatever was said while deaf is lost with its notifications; the next ones carry on.
    } catch {
      setTimeout(() => void this.reconnect(), 2000).unref();
    }
  }

  private onNotification(channel: string, payload: string): void {
    this.counts.notifications++;
    if (channel === LIVE) {
      const [origin, min, max] = payload.split('\t');
      if (!origin || origin === this.instance) return;
      const lo = Number(min);
      const hi = Number(max);
      if (Number.isSafeInteger(lo) && Number.isSafeInteger(hi)) this.noteRows(origin, lo, hi);
    } else if (channel === WATCH) {
      let said: { i?: unknown; t?: unknown; ask?: unknown };
      try {
        said = JSON.parse(payload) as typeof said;
      } catch {
        return;
      }
      if (typeof said.i !== 'string' || said.i === this.instance || !Array.isArray(said.t)) return;
      const before = this.watchers.get(said.i)?.tables ?? new Set<string>();
      if (said.t.length === 0 && said.ask === 'bye') this.watchers.delete(said.i);
      else {
        const tables = new Set(said.t.map(String));
        this.watchers.set(said.i, { tables, seen: Date.now() });
        const joined = [...tables].filter((t) => !before.has(t));
        if (joined.length > 0) this.handlers.watchersJoined?.(joined);
      }
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
  }

  unwatch(tableId: string): void {
    if (!this.watchedHere.delete(tableId)) return;
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
    this.outbox.push({ tableId, message });
    if (this.outbox.length > this.options.maxBehind * 50) {
      // The database is slower than the tables: per table, keep hellos and the latest frame onwards.
      this.outbox.splice(0, this.outbox.length, ...skipBehind(this.outbox));
    }
    // A short wait gathers a frame with the state that follows it, and other tables' messages.
    if (!this.flushTimer && !this.flushing)
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        void this.flush();
      }, 10);
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.outbox.length > 0 && !this.closed) {
        const batch = this.outbox.splice(0, 2000);
        try {
          // One parameter per picture: node-postgres sends a Buffer as binary, where an array of
          // them would travel as hex text (twice the bytes, and parsed on both sides).
          const values: unknown[] = [this.instance];
          const rows = batch.map((b) => {
            values.push(b.tableId, b.message.binary, b.message.data);
            const n = values.length;
            return `($1, $${n - 2}, $${n - 1}, $${n})`;
          });
          await this.pool.query(
            `WITH ins AS (
               INSERT INTO live_messages (origin, table_id, is_binary, payload) VALUES ${rows.join(', ')} RETURNING seq)
             SELECT pg_notify('${LIVE}', $1 || E'\\t' || min(seq) || E'\\t' || max(seq)) FROM ins`,
            values,
          );
          this.counts.published += batch.length;
        } catch (err) {
          if (!this.closed) console.error(`hub: live stream not passed on: ${(err as Error).message}`);
          break;
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** A writer said it wrote rows `min..max`: fetch them (one query at a time per writer). */
  private noteRows(origin: string, min: number, max: number): void {
    const known = this.origins.get(origin);
    if (!known) this.origins.set(origin, { read: min - 1, notified: max, fetching: false });
    else known.notified = Math.max(known.notified, max);
    void this.fetch(origin);
  }

  private async fetch(origin: string): Promise<void> {
    const o = this.origins.get(origin);
    if (!o || o.fetching) return;
    if (this.watchedHere.size === 0) {
      o.read = o.notified; // nothing watched here: nothing to fetch
      return;
    }
    o.fetching = true;
    try {
      while (o.notified > o.read && this.watchedHere.size > 0 && !this.closed) {
        const upTo = o.notified;
        const res = await this.pool.query<{ table_id: string; is_binary: boolean; payload: Buffer }>(
          `SELECT table_id, is_binary, payload FROM live_messages
           WHERE origin = $1 AND seq > $2 AND seq <= $3 AND table_id = ANY($4) ORDER BY seq`,
          [origin, o.read, upTo, [...this.watchedHere]],
        );
        o.read = upTo;
        const byTable = new Map<string, LiveMessage[]>();
        for (const r of res.rows) {
          let list = byTable.get(r.table_id);
          if (!list) byTable.set(r.table_id, (list = []));
          list.push(classify(r.payload, r.is_binary));
        }
        for (const [table, messages] of byTable) {
          const kept =
            messages.length > this.options.maxBehind
              ? skipBehind(messages.map((message) => ({ tableId: table, message }))).map((x) => x.message)
              : messages;
          this.counts.fetched += kept.length;
          if (this.watchedHere.has(table)) this.handlers.messages(table, kept);
        }
      }
    } catch (err) {
      if (!this.closed) console.error(`hub: live stream not fetched: ${(err as Error).message}`);
    } finally {
      o.fetching = false;
    }
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
    if (this.flushTimer) clearTimeout(this.flushTimer);
    await this.announce('bye');
    const l = this.listener;
    this.listener = null;
    await l?.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}
