import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STORE_FILE } from '../../record/store.ts';
import {
  EVENT_KINDS,
  zeroCounts,
  type EventKind,
  type IngestBatch,
  type KindCounts,
} from '../protocol/ingest.ts';
import type { HubClient } from './hub-client.ts';
import { RecordReader, wireSize, type LocalBattle, type WireRow } from './record-reader.ts';

/**
 * The outbox: replicates this table's recorded battles to the hub, exactly once. The local
 * SQLite record stays the truth; nothing is queued anywhere else. The hub says what it holds
 * (each battle's highest `seq` per kind, and the digest of the battle's details as last sent);
 * the outbox sends what is newer, in id order, in bounded batches, and moves its cursor only when
 * the hub has answered. A batch whose answer was lost is sent again and the hub stores it once.
 * After a network cut, a hub restart or this process being killed, it asks the hub again and goes
 * on from there: nothing is lost, nothing doubled.
 *
 * Which battles: those recorded at this table (not imported) since the data folder was first
 * linked to this hub, including the battle being recorded then. The link time is kept in
 * `<data>/hub-link.json`.
 */

export interface OutboxOptions {
  readonly dataDir: string;
  readonly client: HubClient;
  /** How often the local record is looked at for new events, ms. */
  readonly pollMs?: number;
  /** Bounds of one request. */
  readonly maxRows?: number;
  readonly maxBytes?: number;
  /** Back-off after a failure: doubling from min to max, ms. */
  readonly retryMinMs?: number;
  readonly retryMaxMs?: number;
  readonly log?: (line: string) => void;
}

export interface OutboxStatus {
  readonly state: 'waiting for a record' | 'connecting' | 'up to date' | 'sending' | 'retrying';
  readonly lastError: string | null;
  /** Rows the hub stored from this outbox since it started, and rows it already had (resends). */
  readonly sent: KindCounts;
  readonly duplicates: KindCounts;
  readonly requests: number;
  readonly failures: number;
}

interface HubView {
  readonly digest: string;
  readonly highWater: KindCounts;
}

const LINK_FILE = 'hub-link.json';

export class Outbox {
  private reader: RecordReader | null = null;
  private hub: Map<string, HubView> | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private state: OutboxStatus['state'] = 'waiting for a record';
  private lastError: string | null = null;
  private readonly sent = zeroCounts();
  private readonly duplicates = zeroCounts();
  private requests = 0;
  private failures = 0;
  private since: number | null = null;

  constructor(private readonly options: OutboxOptions) {}

  status(): OutboxStatus {
    return {
      state: this.state,
      lastError: this.lastError,
      sent: { ...this.sent },
      duplicates: { ...this.duplicates },
      requests: this.requests,
      failures: this.failures,
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /**
   * Stops. With `drainMs`, first sends what is left (the end of the battle, when the table
   * server closed it just before) for at most that long; what does not make it goes next time.
   */
  async stop(drainMs = 0): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    if (drainMs > 0) {
      const deadline = Date.now() + drainMs;
      this.running = true;
      try {
        while (Date.now() < deadline) {
          const left = deadline - Date.now();
          const more = await Promise.race([
            this.round(),
            new Promise<'late'>((r) => setTimeout(() => r('late'), left).unref()),
          ]);
          if (more !== true) break;
        }
      } catch (err) {
        this.options.log?.(
          `hub outbox: not all sent before stopping (${(err as Error).message}); the rest goes next time`,
        );
      } finally {
        this.running = false;
      }
    }
    this.reader?.close();
    this.reader = null;
  }

  /** Looks at the record now instead of at the next poll. */
  poke(): void {
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async run(): Promise<void> {
    let attempt = 0;
    while (this.running) {
      try {
        const more = await this.round();
        attempt = 0;
        if (!more) await this.sleep(this.options.pollMs ?? 500);
      } catch (err) {
        this.failures++;
        this.hub = null; // ask the hub again what it holds
        this.state = 'retrying';
        const why = err instanceof Error ? err.message : String(err);
        if (why !== this.lastError) this.options.log?.(`hub outbox: ${why} (will retry)`);
        this.lastError = why;
        attempt++;
        const min = this.options.retryMinMs ?? 500;
        const max = this.options.retryMaxMs ?? 10_000;
        const delay = Math.min(max, min * 2 ** Math.min(attempt - 1, 10));
        await this.sleep(Math.round(delay * (0.75 + Math.random() * 0.5)));
      }
    }
  }

  private linkSince(reader: RecordReader): number {
    if (this.since !== null) return this.since;
    const file = join(this.options.dataDir, LINK_FILE);
    let links: Record<string, { since: number }> = {};
    try {
      if (existsSync(file)) links = JSON.parse(readFileSync(file, 'utf8')) as typeof links;
    } catch {
      links = {};
    }
    const key = this.options.client.base;
    const known = links[key]?.since;
    if (typeof known === 'number' && Number.isFinite(known)) return (this.since = known);
    const since = Math.min(Date.now(), reader.openBattleStart() ?? Date.now());
    links[key] = { since };
    writeFileSync(file, `${JSON.stringify(links, null, 2)}\n`);
    return (this.since = since);
  }

  /** One pass over the record; returns whether more is waiting to be sent now. */
  private async round(): Promise<boolean> {
    if (!this.reader) {
      const file = join(this.options.dataDir, STORE_FILE);
      if (!existsSync(file)) {
        this.state = 'waiting for a record';
        return false;
      }
      this.reader = new RecordReader(file);
    }
    const since = this.linkSince(this.reader);
    if (!this.hub) {
      this.state = 'connecting';
      const state = await this.options.client.state();
      this.hub = new Map(
        state.battles.map((b) => [b.uid, { digest: b.digest, highWater: { ...b.highWater } }]),
      );
      if (this.lastError) this.options.log?.('hub outbox: connected again');
      this.lastError = null;
    }
    let more = false;
    for (const battle of this.reader.battles(since)) {
      if (!this.running) return false;
      more = (await this.sendBattle(battle)) || more;
    }
    this.state = more ? 'sending' : 'up to date';
    return more;
  }

  /** Sends one batch of a battle if it has anything new; returns whether more is waiting. */
  private async sendBattle(battle: LocalBattle): Promise<boolean> {
    const hub = this.hub!;
    const known = hub.get(battle.meta.uid) ?? { digest: '', highWater: zeroCounts() };
    const maxRows = this.options.maxRows ?? 1000;
    const maxBytes = this.options.maxBytes ?? 4 * 1024 * 1024;
    const batch: Record<EventKind, WireRow[]> = {
      moves: [],
      keyframes: [],
      marks: [],
      rulings: [],
      annotations: [],
      snapshots: [],
    };
    let bytes = 0;
    let rows = 0;
    let full = false;
    for (const kind of EVENT_KINDS) {
      if (full) break;
      const limit = maxRows - rows;
      const found = this.reader!.rows(kind, battle.id, known.highWater[kind], limit + 1);
      for (const row of found) {
        const size = wireSize(kind, row);
        if (rows >= maxRows || (rows > 0 && bytes + size > maxBytes)) {
          full = true;
          break;
        }
        batch[kind].push(row);
        bytes += size;
        rows++;
      }
    }
    if (rows === 0 && known.digest === battle.meta.digest) return false;
    this.state = 'sending';
    this.requests++;
    const result = await this.options.client.ingest({ battle: battle.meta, ...batch } as IngestBatch);
    const next: HubView = { digest: battle.meta.digest, highWater: { ...known.highWater } };
    for (const kind of EVENT_KINDS) {
      const last = batch[kind][batch[kind].length - 1];
      if (last) next.highWater[kind] = last.seq;
      this.sent[kind] += result.inserted[kind];
      this.duplicates[kind] += result.duplicates[kind];
    }
    hub.set(battle.meta.uid, next);
    return full;
  }
}
