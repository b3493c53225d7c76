import sharp from 'sharp';
import type pg from 'pg';
import type { WebSocket } from 'ws';
import { classify } from './live-message.ts';
import type { PgBus } from './pg-bus.ts';
import { TableChannel } from './table-channel.ts';

/**
 * The live side of one hub process: tables upload their stream here (one connection per table;
 * a newer one replaces an older), viewers watch any table, wherever its upload landed. A table
 * uploaded here is fanned out to this process's viewers directly and, through the PostgreSQL bus,
 * to the other processes watching it; a table uploaded elsewhere reaches this process's viewers
 * through the bus. Every few seconds the process holding an upload refreshes the table's line in
 * `table_live` (alive, last `hello`, a small picture for the board).
 */

export interface LiveServiceOptions {
  /** A viewer whose socket holds more than this misses frames. */
  readonly maxBufferedBytes: number;
  /** Board picture: width (px) and how often it is refreshed (ms). */
  readonly thumbnailWidth: number;
  readonly thumbnailEveryMs: number;
  /** How long a table keeps being fetched from the bus after its last viewer left here, ms. */
  readonly unwatchGraceMs: number;
}

export const DEFAULT_LIVE_OPTIONS: LiveServiceOptions = {
  maxBufferedBytes: 2 * 1024 * 1024,
  thumbnailWidth: 320,
  thumbnailEveryMs: 2000,
  unwatchGraceMs: 5000,
};

export interface LiveServiceStats {
  readonly uploads: number;
  readonly viewers: number;
  readonly messagesIn: number;
  readonly delivered: number;
}

export class LiveService {
  private readonly channels = new Map<string, TableChannel>();
  private readonly uploads = new Map<string, WebSocket>();
  private readonly lastThumb = new Map<string, number>();
  private readonly unwatchTimers = new Map<string, NodeJS.Timeout>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly options: LiveServiceOptions;
  private messagesIn = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly bus: PgBus,
    options: Partial<LiveServiceOptions> = {},
  ) {
    this.options = { ...DEFAULT_LIVE_OPTIONS, ...options };
    this.heartbeat = setInterval(() => void this.beat(), 2000);
    this.heartbeat.unref();
  }

  stats(): LiveServiceStats {
    let viewers = 0;
    let delivered = 0;
    for (const c of this.channels.values()) {
      viewers += c.viewerCount;
      delivered += c.delivered;
    }
    return { uploads: this.uploads.size, viewers, messagesIn: this.messagesIn, delivered };
  }

  private channel(tableId: string): TableChannel {
    let c = this.channels.get(tableId);
    if (!c) this.channels.set(tableId, (c = new TableChannel(tableId, this.options.maxBufferedBytes)));
    return c;
  }

  /** Messages of a table uploaded to another process (from the bus). */
  fromBus(tableId: string, messages: ReadonlyArray<ReturnType<typeof classify>>): void {
    if (this.uploads.has(tableId)) return;
    const c = this.channels.get(tableId);
    if (!c) return;
    for (const m of messages) c.deliver(m);
  }

  /** Another process started watching tables: those uploaded here are sent as they look now. */
  watchersJoined(tableIds: readonly string[]): void {
    for (const table of tableIds) {
      const c = this.channels.get(table);
      if (!c || !this.uploads.has(table)) continue;
      for (const m of c.current()) this.bus.publish(table, m);
    }
  }

  /** A table's upload connection (already authenticated as that table). */
  attachUpload(tableId: string, ws: WebSocket): void {
    const previous = this.uploads.get(tableId);
    if (previous && previous !== ws) previous.close(4000, 'replaced by a newer connection of this table');
    this.uploads.set(tableId, ws);
    this.bus.unwatch(tableId);
    const channel = this.channel(tableId);
    void this.pool
      .query(
        `INSERT INTO table_live (table_id, instance, connected, updated_at) VALUES ($1, $2, true, now())
         ON CONFLICT (table_id) DO UPDATE SET instance = $2, connected = true, updated_at = now()`,
        [tableId, this.bus.instance],
      )
      .then(() => this.bus.boardChanged(tableId))
      .catch((err: Error) => console.error(`hub: table ${tableId}: ${err.message}`));
    ws.on('message', (data, isBinary) => {
      if (this.uploads.get(tableId) !== ws) return;
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      const message = classify(bytes, isBinary);
      this.messagesIn++;
      channel.deliver(message);
      this.bus.publish(tableId, message);
      if (message.kind === 'hello') void this.saveHello(tableId, bytes);
      else if (message.kind === 'frame') this.maybeThumbnail(tableId, bytes);
    });
    const gone = () => {
      if (this.uploads.get(tableId) !== ws) return;
      this.uploads.delete(tableId);
      void this.pool
        .query(
          'UPDATE table_live SET connected = false, updated_at = now() WHERE table_id = $1 AND instance = $2',
          [tableId, this.bus.instance],
        )
        .then(() => this.bus.boardChanged(tableId))
        .catch(() => undefined);
      // Viewers here stay: the table may come back through another process.
      if (channel.viewerCount > 0) this.bus.watch(tableId);
    };
    ws.on('close', gone);
    ws.on('error', gone);
  }

  /** A viewer of a table's live view (already allowed to watch). */
  async attachViewer(tableId: string, ws: WebSocket): Promise<void> {
    const channel = this.channel(tableId);
    const timer = this.unwatchTimers.get(tableId);
    if (timer) {
      clearTimeout(timer);
      this.unwatchTimers.delete(tableId);
    }
    if (!this.uploads.has(tableId)) {
      if (!channel.lastHello) {
        const res = await this.pool.query<{ hello_json: string | null }>(
          'SELECT hello_json FROM table_live WHERE table_id = $1',
          [tableId],
        );
        const hello = res.rows[0]?.hello_json;
        if (hello) channel.primeHello(Buffer.from(hello, 'utf8'));
      }
      this.bus.watch(tableId);
    }
    if (ws.readyState !== ws.OPEN) return;
    channel.add(ws);
    const gone = () => {
      channel.remove(ws);
      if (channel.viewerCount > 0 || this.unwatchTimers.has(tableId)) return;
      this.unwatchTimers.set(
        tableId,
        setTimeout(() => {
          this.unwatchTimers.delete(tableId);
          if (channel.viewerCount === 0) this.bus.unwatch(tableId);
        }, this.options.unwatchGraceMs).unref(),
      );
    };
    ws.on('close', gone);
    ws.on('error', gone);
  }

  private async saveHello(tableId: string, bytes: Buffer): Promise<void> {
    try {
      await this.pool.query('UPDATE table_live SET hello_json = $2, updated_at = now() WHERE table_id = $1', [
        tableId,
        bytes.toString('utf8'),
      ]);
      await this.bus.boardChanged(tableId);
    } catch (err) {
      console.error(`hub: table ${tableId}: ${(err as Error).message}`);
    }
  }

  private maybeThumbnail(tableId: string, jpeg: Buffer): void {
    const now = Date.now();
    if (now - (this.lastThumb.get(tableId) ?? 0) < this.options.thumbnailEveryMs) return;
    this.lastThumb.set(tableId, now);
    void sharp(jpeg)
      .resize({ width: this.options.thumbnailWidth, withoutEnlargement: true })
      .jpeg({ quality: 60 })
      .toBuffer()
      .then((thumb) =>
        this.pool.query(
          'UPDATE table_live SET thumbnail = $2, updated_at = now() WHERE table_id = $1 AND instance = $3',
          [tableId, thumb, this.bus.instance],
        ),
      )
      .catch(() => undefined);
  }

  private async beat(): Promise<void> {
    if (this.uploads.size === 0) return;
    await this.pool
      .query('UPDATE table_live SET updated_at = now() WHERE table_id = ANY($1) AND instance = $2', [
        [...this.uploads.keys()],
        this.bus.instance,
      ])
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const t of this.unwatchTimers.values()) clearTimeout(t);
    const tables = [...this.uploads.keys()];
    for (const ws of this.uploads.values()) ws.terminate();
    this.uploads.clear();
    for (const c of this.channels.values()) c.closeAll(1001, 'hub shutting down');
    if (tables.length > 0)
      await this.pool
        .query('UPDATE table_live SET connected = false WHERE table_id = ANY($1) AND instance = $2', [
          tables,
          this.bus.instance,
        ])
        .catch(() => undefined);
  }
}
