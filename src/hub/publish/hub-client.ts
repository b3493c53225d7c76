import type { IngestBatch, IngestResult, IngestState } from '../protocol/ingest.ts';

/**
 * The table's side of the hub's REST API: its token on every request, a time limit on each, and
 * errors that say what went wrong (the hub's own message when it gave one).
 */

export class HubRequestError extends Error {
  override name = 'HubRequestError';
  constructor(
    message: string,
    /** HTTP status, or null when the hub was not reached. */
    readonly status: number | null,
  ) {
    super(message);
  }
}

export class HubClient {
  readonly base: string;

  constructor(
    hubUrl: string,
    private readonly token: string,
    private readonly timeoutMs = 30_000,
  ) {
    const url = new URL(hubUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`--hub must be an http:// or https:// address, not "${hubUrl}"`);
    this.base = url.origin;
  }

  /** The hub's WebSocket for this table's live upload. */
  get uploadUrl(): string {
    return `${this.base.replace(/^http/, 'ws')}/hub/upload`;
  }

  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          Authorization: this.authorization,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new HubRequestError(
        `hub not reached: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
        null,
      );
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!res.ok) {
      const why = (parsed as { error?: unknown } | null)?.error;
      throw new HubRequestError(
        `hub answered ${res.status}: ${typeof why === 'string' ? why : text.slice(0, 200)}`,
        res.status,
      );
    }
    return parsed as T;
  }

  state(): Promise<IngestState> {
    return this.request('GET', '/hub/api/ingest/state');
  }

  ingest(batch: IngestBatch): Promise<IngestResult> {
    return this.request('POST', '/hub/api/ingest', batch);
  }
}
