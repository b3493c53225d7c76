/**
 * The live benchmark's browser stand-in: a WebSocket client on the server's /live socket, as the
 * live page connects, keeping every overlay (`state`) message with the time it arrived, and now
 * and then the JPEG picture that came with it (for native OpenCV to be timed on the same frame).
 */
import WebSocket from 'ws';
import type { StateMessage } from '../src/server/protocol.ts';

export interface ReceivedState {
  readonly receivedAt: number;
  readonly message: StateMessage;
}

export interface PictureSample {
  readonly jpeg: Buffer;
  readonly detectionMs: number;
}

export class LiveClient {
  readonly states: ReceivedState[] = [];
  readonly pictures: PictureSample[] = [];
  private lastPicture: Buffer | null = null;
  private sampleEveryMs = 0;
  private lastSampleAt = 0;
  private maxSamples = 0;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const receivedAt = Date.now();
      if (isBinary) {
        this.lastPicture = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        return;
      }
      const message = JSON.parse(data.toString()) as { type: string };
      if (message.type !== 'state') return;
      const state = message as StateMessage;
      this.states.push({ receivedAt, message: state });
      const picture = this.lastPicture;
      this.lastPicture = null;
      if (
        picture &&
        this.pictures.length < this.maxSamples &&
        receivedAt - this.lastSampleAt >= this.sampleEveryMs
      ) {
        this.lastSampleAt = receivedAt;
        this.pictures.push({ jpeg: picture, detectionMs: state.detectionMs });
      }
    });
  }

  static connect(serverUrl: string): Promise<LiveClient> {
    const ws = new WebSocket(serverUrl.replace(/^http/, 'ws') + '/live');
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new LiveClient(ws)));
      ws.once('error', reject);
    });
  }

  /** From now on keep one picture every `everyMs`, `count` at most. */
  samplePictures(everyMs: number, count: number): void {
    this.sampleEveryMs = everyMs;
    this.maxSamples = this.pictures.length + count;
    this.lastSampleAt = 0;
  }

  close(): void {
    this.ws.close();
  }
}
