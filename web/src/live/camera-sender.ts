import type { ClientMessage } from '../../../src/server/protocol.ts';

/**
 * "Use this device's camera": sends this browser's camera (a phone held over the table, a laptop
 * webcam) to the server as JPEG frames over its own WebSocket to /live. The server then watches the
 * table through it. Players only (the server refuses spectators); the access token travels in the
 * page's cookie. Browsers allow getUserMedia only on https:// pages or on localhost.
 *
 * Frames are sent at most `fps` a second and only when the previous one has left the socket, so a
 * slow network drops frames here rather than queueing them.
 */

export interface CameraSenderOptions {
  readonly fps: number;
  readonly jpegQuality: number;
  /** Camera profile name in the server's calibration folder; empty: the server estimates one (flagged). */
  readonly profile: string;
}

export type SenderState =
  | { readonly phase: 'off' }
  | { readonly phase: 'starting' }
  | { readonly phase: 'sending'; readonly frames: number; readonly width: number; readonly height: number }
  | { readonly phase: 'error'; readonly message: string };

export function cameraSocketUrl(loc: Location = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/live`;
}

/** The `camera` message announcing a stream of width × height frames. */
export function cameraMessage(width: number, height: number, profile: string): ClientMessage {
  return { type: 'camera', width, height, ...(profile.trim() ? { profile: profile.trim() } : {}) };
}

export class CameraSender {
  private stream: MediaStream | null = null;
  private socket: WebSocket | null = null;
  private timer: number | null = null;
  private frames = 0;
  private encoding = false;

  constructor(
    private readonly onState: (state: SenderState) => void,
    private readonly options: CameraSenderOptions,
  ) {}

  get active(): boolean {
    return this.stream !== null;
  }

  async start(): Promise<void> {
    if (this.stream) return;
    if (!navigator.mediaDevices?.getUserMedia) {
      return this.fail('this page cannot use the camera: open it over https:// (or on localhost)');
    }
    this.onState({ phase: 'starting' });
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } },
        audio: false,
      });
    } catch (err) {
      return this.fail(`no camera: ${(err as Error).message}`);
    }
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.srcObject = this.stream;
    await video.play();
    const width = video.videoWidth;
    const height = video.videoHeight;
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return this.fail('this browser cannot draw the camera picture');

    const socket = new WebSocket(cameraSocketUrl());
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.addEventListener('open', () => {
      socket.send(JSON.stringify(cameraMessage(width, height, this.options.profile)));
    });
    socket.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (typeof event.data !== 'string') return;
      let msg: { type?: string; message?: string; cameraAccepted?: boolean };
      try {
        msg = JSON.parse(event.data) as typeof msg;
      } catch {
        return; // not ours to judge: the main connection reports bad messages
      }
      // The server says hello with cameraAccepted once it watches through this camera: send from then on.
      if (msg.type === 'hello' && msg.cameraAccepted === true && this.timer === null) {
        this.onState({ phase: 'sending', frames: 0, width, height });
        this.timer = window.setInterval(
          () => this.sendFrame(video, canvas, ctx, width, height),
          1000 / this.options.fps,
        );
      }
      if (msg.type === 'error' && msg.message && !/^too many/.test(msg.message)) this.fail(msg.message);
    });
    socket.addEventListener('close', () => {
      if (this.socket === socket && this.stream) this.fail('the server closed the camera connection');
    });
  }

  private sendFrame(
    video: HTMLVideoElement,
    canvas: HTMLCanvasElement,
    ctx: CanvasRenderingContext2D,
    width: number,
    height: number,
  ): void {
    const socket = this.socket;
    // The last frame is still on its way (or being encoded): skip this one.
    if (!socket || socket.readyState !== WebSocket.OPEN || socket.bufferedAmount > 0 || this.encoding) return;
    this.encoding = true;
    ctx.drawImage(video, 0, 0, width, height);
    canvas.toBlob(
      (blob) => {
        this.encoding = false;
        if (!blob || socket.readyState !== WebSocket.OPEN) return;
        socket.send(blob);
        this.frames++;
        this.onState({ phase: 'sending', frames: this.frames, width, height });
      },
      'image/jpeg',
      this.options.jpegQuality,
    );
  }

  stop(): void {
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = null;
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.frames = 0;
    this.onState({ phase: 'off' });
  }

  private fail(message: string): void {
    this.stop();
    this.onState({ phase: 'error', message });
  }
}

const PROFILE_KEY = 'vedette.cameraProfile';

/** Adds the "Use this device's camera" button to `container` (the page's top bar). */
export function mountCameraButton(container: Element | null, fps = 5): CameraSender | null {
  if (!container) return null;
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'camera-send';
  button.className = 'camera-send';
  button.title = 'Send this phone or laptop camera to Vedette as the table camera';
  button.textContent = "Use this device's camera";
  container.append(button);
  let sender: CameraSender | null = null;
  const show = (state: SenderState) => {
    button.dataset['phase'] = state.phase;
    if (state.phase === 'off') button.textContent = "Use this device's camera";
    else if (state.phase === 'starting') button.textContent = 'Starting camera…';
    else if (state.phase === 'sending')
      button.textContent = `Camera ${state.width}×${state.height} · ${state.frames} sent · stop`;
    else button.textContent = `Camera: ${state.message}`;
    button.title = state.phase === 'error' ? state.message : '';
  };
  button.addEventListener('click', () => {
    if (sender?.active) return sender.stop();
    const remembered = window.localStorage.getItem(PROFILE_KEY) ?? '';
    const profile = window.prompt(
      'Camera profile (a name in the calibration folder, made with "vedette calibrate").\nLeave empty to use an estimate (measurements are flagged as estimated).',
      remembered,
    );
    if (profile === null) return;
    window.localStorage.setItem(PROFILE_KEY, profile);
    sender = new CameraSender(show, { fps, jpegQuality: 0.85, profile });
    void sender.start();
  });
  return sender;
}
