import type { AccessTokens } from './security.ts';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits.ts';
import type { LiveLoopOptions } from './live-loop-options.ts';
import type { LiveLoop, SourceStatus } from './live-loop.ts';
import type { LiveStats } from './live-stats.ts';
import type { RecordOptions } from '../record/live-recording.ts';
import type { Scenario } from '../table/scenario.ts';
import type { SourceSpec } from '../vision/sources/create-source.ts';

/**
 * What a caller gives `startServer` and gets back, apart from the code that does the work, so
 * that the CLI and the tests can name these types without importing the server's wiring.
 */

export interface ServerOptions {
  readonly port: number;
  readonly host: string;
  readonly scenarioPath: string;
  readonly source: SourceSpec;
  /** Built web app to serve at `/` (default web/dist). */
  readonly webRoot?: string;
  /** Longest a frame may wait in a browser's socket buffer before frames to it are dropped. */
  readonly maxBufferedBytes?: number;
  /** Folder the scenario editor may read and write (default scenarios/). */
  readonly scenariosDir?: string;
  /** Folder calibration profiles are saved to (default calibration/). */
  readonly calibrationDir?: string;
  /**
   * Access tokens. On loopback without a player token everyone is a player; any other address
   * needs one (the server refuses to start without). A spectator token gives a read-only link.
   */
  readonly tokens?: Partial<AccessTokens>;
  /** Sizes and rates accepted from clients (see DEFAULT_LIMITS). */
  readonly limits?: Partial<ServerLimits>;
  /** Live loop tuning (frame pacing, retry back-off). */
  readonly loop?: Partial<LiveLoopOptions>;
  /**
   * Serve HTTPS with this certificate (PEM). Browsers only allow the camera (getUserMedia) on
   * https:// pages or on localhost, so a phone used as a camera over the LAN needs it.
   */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Battle recording (issue #7): a data folder, or false; default is the CLI's choice (off in tests). */
  readonly record?: RecordOptions | false;
}

/** What the server accepts from outside, per message and per second. */
export interface ServerLimits extends ConnectionLimits {
  /** Largest JSON body of a REST request. */
  readonly jsonBodyBytes: number;
  /** Largest text message on the WebSocket. */
  readonly wsTextBytes: number;
  /** Largest binary message (one JPEG camera frame from a browser). */
  readonly wsFrameBytes: number;
  /** Text messages per second per connection (token bucket, with a burst of twice as many). */
  readonly wsMessagesPerSecond: number;
  /** Camera frames per second from a browser (more are dropped). */
  readonly wsFramesPerSecond: number;
  /** Requests that change something (POST, PUT, DELETE…) per second per client address, burst 3×. */
  readonly writesPerSecond: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  jsonBodyBytes: 1024 * 1024,
  wsTextBytes: 4096,
  wsFrameBytes: 2 * 1024 * 1024,
  wsMessagesPerSecond: 20,
  wsFramesPerSecond: 15,
  writesPerSecond: 20,
  ...DEFAULT_CONNECTION_LIMITS,
};

export interface ServerStatus {
  readonly scenario: string;
  readonly source: SourceStatus;
  readonly camera: {
    readonly name: string;
    readonly kind: string;
    readonly width: number;
    readonly height: number;
  };
  readonly frames: LiveStats;
  readonly clients: { readonly players: number; readonly spectators: number };
  /** Longest the event loop was blocked in the last status interval, ms. */
  readonly eventLoopLagMs: number;
  readonly uptimeS: number;
}

export interface RunningServer {
  readonly url: string;
  /** The tokens in force (player null: none needed). */
  readonly tokens: AccessTokens;
  /** The loop watching the table now (replaced when the scenario or the camera changes). */
  readonly loop: LiveLoop;
  scenario(): Scenario;
  status(): ServerStatus;
  close(): Promise<void>;
}
