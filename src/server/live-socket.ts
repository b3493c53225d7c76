import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { loadCameraProfile } from '../camera/profile.ts';
import type { FrameSource } from '../vision/frame-source.ts';
import { BrowserCameraSource } from '../vision/sources/browser-camera.ts';
import type { SourceSpec } from '../vision/sources/create-source.ts';
import { ConnectionAdmission } from './connection-limits.ts';
import { guardUpgrade, type AccessPolicy } from './guards.ts';
import type { LiveFrame, SourceStatus } from './live-loop.ts';
import { measurementView, stateMessage } from './live-state.ts';
import { PictureScaler, pictureWidthFor, type ScaledPictures } from './picture-sizes.ts';
import {
  clientMessageSchema,
  type ClientMessage,
  type HelloMessage,
  type ServerMessage,
} from './protocol.ts';
import { clientAddress, PathError, resolveInside, TokenBucket, type Role } from './security.ts';
import type { ServerLimits } from './server-options.ts';
import type { WatchedTable } from './watched-table.ts';

/**
 * The `/live` WebSocket: who may connect, what each browser is sent (the camera picture and the
 * state of the table, with its own measurement), and what it may send (a selection, or its own
 * camera). Kept apart from the REST routes because its state is per connection.
 */

const STATUS_TEXT: Record<401 | 403 | 429 | 503, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

export interface LiveSocketOptions {
  readonly policy: AccessPolicy;
  readonly limits: ServerLimits;
  /** Where a browser camera's named profile must lie. */
  readonly calibrationDir: string;
  /** Longest a frame may wait in a browser's socket buffer before frames to it are dropped. */
  readonly maxBufferedBytes: number;
}

/** One browser on the live socket. */
interface Client {
  readonly id: string;
  readonly role: Role;
  readonly address: string;
  selection: { a: string; b: string } | null;
  readonly messages: TokenBucket;
  readonly frames: TokenBucket;
  /** Messages dropped by the rate limit since the last one let through. */
  flood: number;
  lastLimitNotice: number;
  lastCameraRequest: number;
  /** This connection sends a browser camera: it is not sent the picture back. */
  sendsCamera: boolean;
  /** How wide the page draws the picture, device px (its `view` message); null: the camera's width; 0: none. */
  pictureWidth: number | null;
  /** Order of the last frame sent (a scaled picture comes later than a full one: never send an older frame). */
  lastFrame: number;
}

/** The camera's state in a few words for the page's title line (the reason is in `sourceStatus`). */
function shortState(s: SourceStatus): string {
  if (s.state === 'retrying') return `camera lost, retrying (attempt ${s.attempt})`;
  if (s.state === 'failed') return `camera failed: ${s.error ?? ''}`;
  if (s.state === 'stalled') return `camera stalled: ${s.error ?? 'no frames'}`;
  return s.state === 'connecting' ? 'waiting for the camera' : s.state;
}

export class LiveSocket {
  private readonly wss: WebSocketServer;
  private readonly clients = new Map<WebSocket, Client>();
  private readonly admission: ConnectionAdmission;
  private nextClientId = 1;
  private readonly scaler = new PictureScaler(
    () => this.table.loop.jpegQuality,
    (frame, order, pictures) => this.sendScaled(frame, order, pictures),
  );
  /** Frames the loop has given out so far (their order, across changes of camera or scenario). */
  private framesOut = 0;

  constructor(
    http: Server,
    private readonly table: WatchedTable,
    private readonly options: LiveSocketOptions,
  ) {
    const { limits } = options;
    this.admission = new ConnectionAdmission(limits);
    // Upgrades are checked (host, origin, token) before the handshake: see onUpgrade.
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: Math.max(limits.wsFrameBytes, limits.wsTextBytes),
    });
    http.on('upgrade', (req: IncomingMessage, socket, head) => this.onUpgrade(req, socket, head));

    table.hooks.sourceReplaced = (source) => this.tellRefusals(source);
    table.hooks.changed = () => this.broadcast(this.hello());
    this.tellRefusals(table.source);

    const loop = table.loop;
    loop.on('sourceStatus', () => this.broadcast(this.hello()));
    loop.on('frame', (frame) => {
      const order = ++this.framesOut;
      const scaled = new Set<number>();
      const fullSize: Array<[WebSocket, Client]> = [];
      for (const [ws, client] of this.clients) {
        const width = pictureWidthFor(client.pictureWidth, this.table.camera.imageWidth);
        if (width === null) fullSize.push([ws, client]);
        else if (width === 0) this.sendFrame(ws, client, frame, order, null);
        else scaled.add(width);
      }
      // The full-size JPEG is the camera's own, or made once for all such pages (a picture that
      // cannot be made leaves them the frame's state alone).
      if (fullSize.length > 0) {
        const send = (jpeg: Buffer | null) => {
          for (const [ws, client] of fullSize) this.sendFrame(ws, client, frame, order, jpeg);
        };
        frame.picture.jpeg().then(send, () => send(null));
      }
      this.scaler.push(frame, order, scaled);
    });
    loop.on('sourceError', (err) => {
      console.error(`camera source: ${err.message}`);
      // Pages hear the first failure of a streak; later attempts update `hello` (sourceStatus) only.
      if (loop.sourceStatus().state === 'live' || loop.sourceStatus().attempt === 0) {
        this.broadcast({ type: 'error', message: `camera source: ${err.message}` });
      }
    });
  }

  /** Roles of the browsers connected now (for /api/status). */
  roles(): Role[] {
    return [...this.clients.values()].map((c) => c.role);
  }

  /** Drops every connection and stops accepting new ones. */
  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((r) => this.wss.close(() => r()));
  }

  private send(ws: WebSocket, message: ServerMessage): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  }

  private broadcast(message: ServerMessage): void {
    for (const ws of this.clients.keys()) this.send(ws, message);
  }

  private hello(role?: Role): HelloMessage {
    const s = this.table.loop.sourceStatus();
    const sourceName = this.table.source.name;
    return {
      type: 'hello',
      scenario: this.table.scenario.name,
      source: s.state === 'live' ? sourceName : `${sourceName} — ${shortState(s)}`,
      sourceStatus: s,
      ...(role ? { role } : {}),
    };
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const refuse = (code: number, reason: string) => {
      socket.end(`HTTP/1.1 ${code} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (path !== '/live') return refuse(404, 'Not Found');
    const access = guardUpgrade(this.options.policy, req);
    if ('status' in access) return refuse(access.status, STATUS_TEXT[access.status]);
    const address = clientAddress(req);
    const full = this.admission.admit(access.role, address);
    if (full) return refuse(full.status, STATUS_TEXT[full.status]);
    // The place is taken now; a handshake that never completes gives it back.
    let connected = false;
    socket.once('close', () => {
      if (!connected) this.admission.release(access.role, address);
    });
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      connected = true;
      this.onConnection(ws, access.role, address);
    });
  }

  private onConnection(ws: WebSocket, role: Role, address: string): void {
    const { limits } = this.options;
    const client: Client = {
      id: `c${this.nextClientId++}`,
      role,
      address,
      selection: null,
      messages: new TokenBucket(limits.wsMessagesPerSecond, limits.wsMessagesPerSecond * 2),
      frames: new TokenBucket(limits.wsFramesPerSecond, limits.wsFramesPerSecond),
      flood: 0,
      lastLimitNotice: 0,
      lastCameraRequest: 0,
      sendsCamera: false,
      pictureWidth: null,
      lastFrame: -1,
    };
    this.clients.set(ws, client);
    this.send(ws, this.hello(role));
    ws.on('message', (data, isBinary) => {
      try {
        this.onMessage(ws, client, data, isBinary);
      } catch (err) {
        this.send(ws, {
          type: 'error',
          message: `message refused: ${err instanceof Error ? err.message : String(err)}`,
        });
      }
    });
    const gone = () => {
      if (this.clients.delete(ws)) this.admission.release(client.role, client.address);
      const source = this.table.source;
      if (source instanceof BrowserCameraSource) source.detach(client.id);
    };
    ws.on('close', gone);
    ws.on('error', gone);
  }

  /** Says "slow down" at most once a second; a connection that keeps flooding is closed. */
  private limited(ws: WebSocket, client: Client, what: string): void {
    client.flood++;
    if (client.flood > 500) return void ws.close(1008, 'rate limit');
    const now = Date.now();
    if (now - client.lastLimitNotice > 1000) {
      client.lastLimitNotice = now;
      this.send(ws, { type: 'error', message: `too many ${what}: some were dropped` });
    }
  }

  private onMessage(ws: WebSocket, client: Client, data: RawData, isBinary: boolean): void {
    const { limits } = this.options;
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (isBinary) {
      if (!client.frames.take()) return this.limited(ws, client, 'camera frames');
      client.flood = 0;
      if (client.role !== 'player')
        return this.send(ws, { type: 'error', message: 'a spectator cannot send a camera' });
      const source = this.table.source;
      const camera = source instanceof BrowserCameraSource ? source : null;
      if (!camera || camera.connection !== client.id) {
        return this.send(ws, {
          type: 'error',
          message: 'binary messages are camera frames: send a "camera" message first',
        });
      }
      const refused = camera.push(client.id, bytes);
      if (refused) this.send(ws, { type: 'error', message: refused });
      return;
    }
    if (!client.messages.take()) return this.limited(ws, client, 'messages');
    client.flood = 0;
    if (bytes.length > limits.wsTextBytes) {
      return this.send(ws, {
        type: 'error',
        message: `message too large (${bytes.length} bytes, at most ${limits.wsTextBytes})`,
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      return this.send(ws, { type: 'error', message: 'message is not valid JSON' });
    }
    const result = clientMessageSchema.safeParse(parsed);
    if (!result.success)
      return this.send(ws, { type: 'error', message: `bad message: ${result.error.issues[0]?.message}` });
    const msg: ClientMessage = result.data;
    switch (msg.type) {
      case 'clearMeasure':
        client.selection = null;
        return;
      case 'measure': {
        const known = this.table.scenario.units.map((u) => u.id);
        const missing = [msg.a, msg.b].filter((id) => !known.includes(id));
        if (missing.length > 0)
          return this.send(ws, { type: 'error', message: `unknown unit: ${missing.join(', ')}` });
        // A selection only changes what this page is sent: nothing is recorded (reading never writes).
        client.selection = { a: msg.a, b: msg.b };
        const latest = this.table.loop.latest;
        if (latest) this.sendFrameState(ws, latest);
        return;
      }
      case 'camera':
        return this.startBrowserCamera(ws, client, msg);
      case 'view':
        client.pictureWidth = msg.width;
        return;
    }
  }

  /** A frame's picture and then its state to one page, unless it cannot take them now. */
  private sendFrame(
    ws: WebSocket,
    client: Client,
    frame: LiveFrame,
    order: number,
    jpeg: Buffer | null,
  ): void {
    if (ws.readyState !== ws.OPEN || client.sendsCamera) return;
    // A slow browser misses frames rather than queueing them without bound.
    if (ws.bufferedAmount > this.options.maxBufferedBytes) return;
    if (order <= client.lastFrame) return;
    client.lastFrame = order;
    if (jpeg) ws.send(jpeg, { binary: true });
    this.sendFrameState(ws, frame);
  }

  /** Scaled pictures of a frame to the pages that asked for those widths (as they ask now). */
  private sendScaled(frame: LiveFrame, order: number, pictures: ScaledPictures): void {
    for (const [ws, client] of this.clients) {
      const width = pictureWidthFor(client.pictureWidth, this.table.camera.imageWidth);
      const jpeg = width === null ? undefined : pictures.get(width);
      if (jpeg) this.sendFrame(ws, client, frame, order, jpeg);
    }
  }

  /** A player's browser offers its camera: the table is watched through it from now on. */
  private startBrowserCamera(
    ws: WebSocket,
    client: Client,
    msg: Extract<ClientMessage, { type: 'camera' }>,
  ): void {
    if (client.role !== 'player')
      return this.send(ws, { type: 'error', message: 'a spectator cannot change the camera' });
    let cameraPath: string | undefined;
    if (msg.profile !== undefined) {
      try {
        cameraPath = resolveInside(this.options.calibrationDir, msg.profile, '.json');
        const profile = loadCameraProfile(cameraPath);
        if (profile.imageWidth !== msg.width || profile.imageHeight !== msg.height) {
          return this.send(ws, {
            type: 'error',
            message: `camera profile ${msg.profile} is for ${profile.imageWidth}×${profile.imageHeight}, the camera sends ${msg.width}×${msg.height}`,
          });
        }
      } catch (err) {
        const why = err instanceof PathError ? err.message : `cannot use camera profile ${msg.profile}`;
        return this.send(ws, { type: 'error', message: why });
      }
    }
    // Each change starts a new vision worker: one request per connection every 2 s is plenty.
    const now = Date.now();
    if (now - client.lastCameraRequest < 2000)
      return this.send(ws, { type: 'error', message: 'camera changes are limited to one every 2 s' });
    client.lastCameraRequest = now;
    const source = this.table.source;
    const current = source instanceof BrowserCameraSource ? source : null;
    const sourceSpec = this.table.sourceSpec;
    const sameCamera =
      current &&
      sourceSpec.kind === 'browser' &&
      current.width === msg.width &&
      current.height === msg.height &&
      sourceSpec.cameraPath === cameraPath &&
      (sourceSpec.hfovDeg ?? 60) === (msg.hfovDeg ?? 60);
    client.sendsCamera = true;
    if (sameCamera) {
      current.attach(client.id);
      return this.send(ws, { ...this.hello(client.role), cameraAccepted: true }); // the sender's go-ahead
    }
    const spec: SourceSpec = {
      kind: 'browser',
      size: { width: msg.width, height: msg.height },
      ...(cameraPath ? { cameraPath } : {}),
      ...(msg.hfovDeg ? { hfovDeg: msg.hfovDeg } : {}),
    };
    this.table
      .switchSource(spec, (next) => {
        if (next instanceof BrowserCameraSource && this.clients.has(ws)) {
          next.attach(client.id);
          this.send(ws, { ...this.hello(client.role), cameraAccepted: true }); // the sender's go-ahead
        }
      })
      .catch((err: unknown) =>
        this.send(ws, {
          type: 'error',
          message: `cannot use this camera: ${err instanceof Error ? err.message : String(err)}`,
        }),
      );
  }

  private sendFrameState(ws: WebSocket, frame: LiveFrame): void {
    const client = this.clients.get(ws);
    const sel = client?.selection ?? null;
    let measurement = null;
    if (sel && client) {
      try {
        measurement = measurementView(frame.snapshot, sel.a, sel.b);
      } catch {
        client.selection = null;
      }
    }
    this.send(ws, stateMessage(this.table.scenario, this.table.camera, frame.snapshot, measurement));
  }

  /** A browser camera's sender hears why its frames are refused (wrong size, undecodable), once a second at most. */
  private tellRefusals(source: FrameSource): void {
    if (!(source instanceof BrowserCameraSource)) return;
    source.onRefused = (connection, reason) => {
      for (const [sock, c] of this.clients) {
        if (c.id !== connection) continue;
        const t = Date.now();
        if (t - c.lastLimitNotice > 1000) {
          c.lastLimitNotice = t;
          this.send(sock, { type: 'error', message: reason });
        }
      }
    };
  }
}
