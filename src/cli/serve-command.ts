import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import type { Command } from 'commander';
import QRCode from 'qrcode';
import { startServer } from '../server/app.ts';
import { isLoopback, newToken } from '../server/security.ts';
import type { CameraChoice, SourceSpec } from '../vision/sources/create-source.ts';
import type { FfmpegInput } from '../vision/sources/ffmpeg-source.ts';
import { DEFAULT_SCENARIO } from './default-scenario.ts';
import { assertPortFree, CliError, parsePort, requireFile } from './failure.ts';
import { defaultCameraProfile } from './measure-command.ts';
import {
  addHubOptions,
  checkHubOptions,
  publishIfAsked,
  type HubServeOptions,
} from '../hub/publish/serve-option.ts';

export { DEFAULT_SCENARIO };

interface ServeOptions extends HubServeOptions {
  port: string;
  host?: string;
  lan?: boolean;
  token?: string;
  spectatorToken?: string;
  tlsCert?: string;
  tlsKey?: string;
  scenario: string;
  images?: string[];
  folder?: string;
  webcam?: string | boolean;
  url?: string;
  video?: string;
  realtime?: boolean;
  loop?: boolean;
  browserCamera?: boolean;
  size?: string;
  fps?: string;
  inputFormat?: string;
  transport?: 'raw' | 'mjpeg';
  camera?: string;
  hfov?: string;
  still?: boolean;
}

function parseSize(text: string): { width: number; height: number } {
  const m = /^(\d{2,5})x(\d{2,5})$/.exec(text);
  if (!m) throw new CliError(`--size must look like 1920x1080, not "${text}"`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** The camera the options ask for (one of them; the synthetic table when none). */
export function sourceFromOptions(opts: ServeOptions): SourceSpec {
  const chosen = [opts.images, opts.folder, opts.webcam, opts.url, opts.video, opts.browserCamera].filter(
    (o) => o !== undefined && o !== false,
  );
  if (chosen.length > 1)
    throw new CliError('choose one camera: --images, --folder, --webcam, --url, --video or --browser-camera');
  // Files named on the command line must be there now: a camera made of missing files would
  // only retry them for ever.
  for (const path of opts.images ?? []) requireFile(path, '--images: image');
  if (opts.video) requireFile(opts.video, '--video: video');
  if (opts.folder) requireFile(opts.folder, '--folder:');
  if (opts.camera) requireFile(opts.camera, '--camera: camera profile');
  const size = opts.size ? parseSize(opts.size) : undefined;
  const choice: CameraChoice = {
    ...(opts.camera ? { cameraPath: opts.camera } : {}),
    ...(size ? { size } : {}),
    ...(opts.hfov ? { hfovDeg: Number(opts.hfov) } : {}),
  };
  if (opts.images)
    return { kind: 'images', paths: opts.images, cameraPath: opts.camera ?? defaultCameraProfile() };
  if (opts.folder)
    return { kind: 'folder', dir: opts.folder, cameraPath: opts.camera ?? defaultCameraProfile() };
  let input: FfmpegInput | undefined;
  if (opts.webcam !== undefined && opts.webcam !== false) {
    input = {
      kind: 'v4l2',
      device: typeof opts.webcam === 'string' ? opts.webcam : '/dev/video0',
      ...(size ? { size } : {}),
      ...(opts.fps ? { fps: Number(opts.fps) } : {}),
      ...(opts.inputFormat ? { inputFormat: opts.inputFormat } : {}),
    };
  } else if (opts.url) input = { kind: 'url', url: opts.url };
  else if (opts.video)
    input = { kind: 'file', path: opts.video, realtime: opts.realtime ?? false, loop: opts.loop ?? false };
  if (input) {
    const transport = opts.transport ?? (input.kind === 'file' ? 'raw' : 'mjpeg');
    return { kind: 'ffmpeg', input, transport, ...choice };
  }
  if (opts.browserCamera) return { kind: 'browser', ...choice };
  return { kind: 'synthetic', moving: !opts.still };
}

/** This machine's first LAN (non-internal IPv4) address, for the link printed in --lan mode. */
function lanAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

export function registerServeCommand(program: Command): void {
  const serve = program
    .command('serve')
    .description('watch the table and serve the live page (default: the built-in synthetic table)')
    .option('--port <n>', 'HTTP port', '8080')
    .option('--host <address>', 'address to listen on (default 127.0.0.1: this machine only)')
    .option(
      '--lan',
      'listen on every address (0.0.0.0) for phones and tablets; an access token is made and printed as a link and a QR code',
    )
    .option('--token <token>', 'access token for players (default with --lan: a random one)')
    .option(
      '--spectator-token <token>',
      'token of the read-only spectator link (default with --lan: a random one)',
    )
    .option(
      '--tls-cert <file>',
      'serve HTTPS with this PEM certificate (a phone may only use its camera on https pages)',
    )
    .option('--tls-key <file>', 'private key (PEM) of --tls-cert')
    .option('--scenario <file>', 'scenario file', DEFAULT_SCENARIO)
    .option('--images <files...>', 'camera: still images, looped')
    .option('--folder <dir>', 'camera: every image in a folder, in name order, looped')
    .option('--webcam [device]', 'camera: a V4L2 webcam through ffmpeg (default /dev/video0)')
    .option(
      '--url <url>',
      'camera: an HTTP MJPEG stream (read directly) or an RTSP or other stream (through ffmpeg)',
    )
    .option('--video <file>', 'camera: a video file through ffmpeg')
    .option(
      '--realtime',
      "--video: play at the video's own speed (ffmpeg -re) instead of as fast as processed",
    )
    .option('--loop', '--video: start again at the end')
    .option(
      '--browser-camera',
      'camera: a browser\'s own camera, sent over the WebSocket ("use this device\'s camera" on the page)',
    )
    .option(
      '--size <WxH>',
      'picture size: asked of the webcam; with no --camera profile, the size of the estimated camera',
    )
    .option('--fps <n>', '--webcam: frame rate to ask for')
    .option(
      '--input-format <format>',
      '--webcam: what the camera sends, e.g. mjpeg or yuyv422 (see `vedette sources`)',
    )
    .option(
      '--transport <raw|mjpeg>',
      'how ffmpeg hands frames over: raw rgb24 (exact) or MJPEG (fewer bytes); default mjpeg for cameras, raw for files',
    )
    .option(
      '--camera <profile>',
      'camera profile (from `vedette calibrate`); without one a real camera is estimated and flagged as such',
    )
    .option('--hfov <degrees>', 'horizontal field of view of the estimated camera (no --camera)', '60')
    .option('--still', 'synthetic table: keep every unit still');
  addHubOptions(serve) // issue #17: publish to a club or tournament hub
    .action(async (opts: ServeOptions) => {
      checkHubOptions(opts);
      if (opts.transport && opts.transport !== 'raw' && opts.transport !== 'mjpeg')
        throw new CliError(`--transport is raw or mjpeg, not "${opts.transport}"`);
      const port = parsePort(opts.port);
      requireFile(opts.scenario, '--scenario: scenario file');
      const source = sourceFromOptions(opts);
      const host = opts.host ?? (opts.lan ? '0.0.0.0' : '127.0.0.1');
      // Before the camera and the vision worker start: a taken port is said at once.
      await assertPortFree(port, host);
      const open = !isLoopback(host);
      if (open && !opts.lan && opts.token === undefined)
        throw new Error(
          `--host ${host} lets other machines on the network in: add --lan (Vedette then makes access tokens ` +
            'and prints the player and spectator links), or give your own --token',
        );
      const player = opts.token ?? (open ? newToken() : undefined);
      const spectator = opts.spectatorToken ?? (open ? newToken() : undefined);
      if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined))
        throw new CliError('--tls-cert and --tls-key go together: give both');
      const tls =
        opts.tlsCert && opts.tlsKey
          ? { cert: readFileSync(opts.tlsCert), key: readFileSync(opts.tlsKey) }
          : undefined;
      if ((source.kind === 'ffmpeg' || source.kind === 'browser') && !opts.camera) {
        console.warn(
          'No --camera profile: the camera model is estimated (flagged "estimate"); calibrate for numbers you can defend.',
        );
      }
      const server = await startServer({
        port,
        host,
        scenarioPath: opts.scenario,
        source,
        tokens: { ...(player ? { player } : {}), ...(spectator && player ? { spectator } : {}) },
        ...(tls ? { tls } : {}),
      });
      console.log(`Vedette is watching "${server.scenario().name}" — open ${server.url}`);
      if (open && player) {
        const base = server.url.replace('127.0.0.1', host === '0.0.0.0' ? lanAddress() : host);
        const playerUrl = `${base}/?token=${encodeURIComponent(player)}`;
        console.log(
          `\nOn a phone or tablet on this network, open (players: may change the table):\n  ${playerUrl}`,
        );
        console.log(await QRCode.toString(playerUrl, { type: 'terminal', small: true }));
        if (server.tokens.spectator) {
          console.log(
            `Spectator link (watch and measure only):\n  ${base}/?token=${encodeURIComponent(server.tokens.spectator)}\n`,
          );
        }
        console.log('Anyone with the player link can change the table: share the spectator link instead.');
      }
      const publisher = publishIfAsked(opts, server);
      const shutdown = () => {
        // The battle ends with the server; the hub gets that end before the process goes.
        void server
          .close()
          .then(() => publisher?.stop({ drainMs: 5000 }))
          .then(() => process.exit(0));
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    });
}
