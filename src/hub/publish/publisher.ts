import { HubClient } from './hub-client.ts';
import { LiveUplink, type LiveUplinkStatus } from './live-uplink.ts';
import { Outbox, type OutboxStatus } from './outbox.ts';

/**
 * A table publishing to a hub (`vedette serve --hub <url> --hub-token <token>`): its live view
 * goes up through one upload, its recorded battles through the outbox. The table works the same
 * with the hub gone; both catch up when it is back.
 */

export interface PublisherOptions {
  readonly hubUrl: string;
  readonly token: string;
  /** The table's data folder (its battle record), or null when it does not record. */
  readonly dataDir: string | null;
  /** The table server's own address (http://127.0.0.1:8080) and a token it accepts, if any. */
  readonly tableUrl: string;
  readonly tableToken?: string | null;
  readonly fps?: number;
  readonly pictureWidth?: number;
  readonly pollMs?: number;
  readonly log?: (line: string) => void;
}

export interface Publisher {
  readonly hub: string;
  status(): { readonly live: LiveUplinkStatus; readonly outbox: OutboxStatus | null };
  /** Stops; with `drainMs`, the outbox first sends what is left, for at most that long. */
  stop(options?: { readonly drainMs?: number }): Promise<void>;
}

export function startPublisher(options: PublisherOptions): Publisher {
  if (!options.token) throw new Error('--hub needs --hub-token (the token the organiser gave this table)');
  const client = new HubClient(options.hubUrl, options.token);
  const log = options.log ?? ((line: string) => console.error(line));
  const uplink = new LiveUplink({
    localUrl: `${options.tableUrl.replace(/^http/, 'ws')}/live`,
    localToken: options.tableToken ?? null,
    hubUrl: client.uploadUrl,
    hubAuthorization: client.authorization,
    ...(options.fps !== undefined ? { fps: options.fps } : {}),
    ...(options.pictureWidth !== undefined ? { pictureWidth: options.pictureWidth } : {}),
    log,
  });
  const outbox = options.dataDir
    ? new Outbox({
        dataDir: options.dataDir,
        client,
        log,
        ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
      })
    : null;
  uplink.start();
  outbox?.start();
  return {
    hub: client.base,
    status: () => ({ live: uplink.status(), outbox: outbox?.status() ?? null }),
    async stop(stopOptions) {
      await Promise.all([uplink.stop(), outbox?.stop(stopOptions?.drainMs ?? 0)]);
    },
  };
}
