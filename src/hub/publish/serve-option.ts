import type { Command } from 'commander';
import { recordingDefaults } from '../../record/live-recording.ts';
import { startPublisher, type Publisher } from './publisher.ts';

/**
 * The one seam between `vedette serve` and the hub: the `--hub` options, and starting the
 * publisher once the table server runs.
 */

export interface HubServeOptions {
  hub?: string;
  hubToken?: string;
  hubFps?: string;
  hubPictureWidth?: string;
}

export function addHubOptions(command: Command): Command {
  return command
    .option('--hub <url>', 'publish this table to a club or tournament hub (`vedette hub`; see docs/hub.md)')
    .option('--hub-token <token>', "this table's token, from the hub's organiser (or $VEDETTE_HUB_TOKEN)")
    .option('--hub-fps <n>', 'live frames a second sent to the hub', '4')
    .option('--hub-picture-width <px>', 'widest live picture sent to the hub (0: full size)', '960');
}

function positive(text: string | undefined, name: string, allowZero: boolean): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0))
    throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, not "${text}"`);
  return n;
}

/** Checks the options before the server starts (a mistake is said before anything runs). */
export function checkHubOptions(opts: HubServeOptions): void {
  if (opts.hub === undefined) return;
  if (!(opts.hubToken ?? process.env['VEDETTE_HUB_TOKEN']))
    throw new Error(
      '--hub needs --hub-token (or $VEDETTE_HUB_TOKEN): the token the organiser made for this table',
    );
  positive(opts.hubFps, '--hub-fps', false);
  positive(opts.hubPictureWidth, '--hub-picture-width', true);
  new URL(opts.hub);
}

/** Starts publishing when `--hub` was given; null otherwise. */
export function publishIfAsked(
  opts: HubServeOptions,
  server: {
    readonly url: string;
    readonly tokens: { readonly player: string | null; readonly spectator: string | null };
  },
): Publisher | null {
  if (opts.hub === undefined) return null;
  const record = recordingDefaults();
  const fps = positive(opts.hubFps, '--hub-fps', false);
  const width = positive(opts.hubPictureWidth, '--hub-picture-width', true);
  const publisher = startPublisher({
    hubUrl: opts.hub,
    token: opts.hubToken ?? process.env['VEDETTE_HUB_TOKEN'] ?? '',
    dataDir: record ? record.dataDir : null,
    tableUrl: server.url,
    tableToken: server.tokens.spectator ?? server.tokens.player,
    ...(fps !== undefined ? { fps } : {}),
    ...(width !== undefined ? { pictureWidth: width } : {}),
  });
  console.log(
    `Publishing to the hub ${publisher.hub}${record ? '' : ' (live view only: --no-record keeps no battles to send)'}`,
  );
  return publisher;
}
