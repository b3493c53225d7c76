/**
 * Load for `npm run bench -- hub`: simulated tables (each a real local record written at a given
 * rate, the real outbox replicating it, and a live upload of real-sized frames and state messages
 * at 4 frames a second) and spectators (live-view sockets that time every state message from the
 * table's send to their receipt).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { HubClient } from '../src/hub/publish/hub-client.ts';
import { Outbox } from '../src/hub/publish/outbox.ts';
import { rosterOf } from '../src/record/roster.ts';
import { BattleStore } from '../src/record/store.ts';
import { verdict } from '../src/rules/engine/verdict.ts';
import { parseScenarioText } from '../src/table/scenario.ts';

const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));
const roster = rosterOf(scenario);
const camera = JSON.parse(readFileSync('calibration/synthetic-1080p.json', 'utf8')) as unknown;

/** A state message the size and shape a table sends (every unit, every base, the camera). */
function stateText(frame: number, timestamp: number): string {
  return JSON.stringify({
    type: 'state',
    frame,
    timestamp,
    table: roster.table,
    camera,
    pose: { rotation: [0.1, 0.2, 0.3], translation: [10, 20, 1200] },
    poseStatus: 'stable',
    units: roster.units.map((u) => ({
      id: u.id,
      name: u.name,
      side: u.side,
      colour: '#3366cc',
      bases: u.bases.map((b) => ({
        markerId: b.markerId,
        x: 100 + ((frame * 7 + b.markerId * 13) % 1500),
        y: 100 + ((b.markerId * 31) % 1000),
        headingDeg: (b.markerId * 11) % 360,
        widthMm: b.widthMm,
        depthMm: b.depthMm,
        topMm: b.topMm,
        seen: true,
        sigmaMm: 0.4,
      })),
    })),
    detectionMs: 80,
    measurement: null,
  });
}

export interface SimTableOptions {
  readonly id: string;
  readonly token: string;
  readonly hubUrl: string;
  readonly movesPerSecond: number;
  readonly fps: number;
  readonly frame: Buffer;
  readonly snapshot: Buffer;
}

export class SimTable {
  readonly dir = mkdtempSync(join(tmpdir(), 'vedette-bench-table-'));
  readonly store = BattleStore.inDataDir(this.dir);
  readonly battleId: number;
  readonly startedAt = Date.now();
  lastEventAt = this.startedAt;
  private readonly timers: NodeJS.Timeout[] = [];
  private upload: WebSocket | null = null;
  private frameNo = 0;
  readonly outbox: Outbox;
  written = 0;
  framesSent = 0;

  constructor(private readonly o: SimTableOptions) {
    this.battleId = this.store.startBattle({
      name: `bench ${o.id}`,
      roster,
      camera: null,
      startedAt: this.startedAt,
    });
    this.outbox = new Outbox({ dataDir: this.dir, client: new HubClient(o.hubUrl, o.token), pollMs: 500 });
  }

  start(): void {
    const units = roster.units.flatMap((u) => u.bases.map((b) => ({ unitId: u.id, markerId: b.markerId })));
    let n = 0;
    // Moves, rulings, keyframes and pictures into the table's own record, as the recorder writes them.
    this.timers.push(
      setInterval(() => {
        const t = Date.now();
        this.lastEventAt = t;
        const u = units[n++ % units.length]!;
        this.store.addMove(this.battleId, {
          t,
          unitId: u.unitId,
          markerId: u.markerId,
          x: 200 + (n % 1400),
          y: 150 + ((n * 37) % 900),
          headingDeg: (n * 13) % 360,
          sigmaMm: 0.4,
          sigmaHeadingDeg: 0.3,
          from: { x: 190 + (n % 1400), y: 150, headingDeg: 0 },
          movingSince: t - 800,
        });
        this.written++;
        if (n % (this.o.movesPerSecond * 5) === 0) {
          this.store.addRuling(this.battleId, {
            t,
            inputs: { question: 'shoot lees camerons', poses: [] },
            verdict: verdict({
              ruleset: 'black-powder',
              question: 'shoot',
              asked: "can Lee's shoot Camerons?",
              answer: 'yes',
              value: 12.3,
              limit: 18,
              unit: 'in',
            }),
          });
          this.written++;
        }
        if (n % (this.o.movesPerSecond * 10) === 0) {
          this.store.addKeyframe(this.battleId, {
            t,
            poses: units.map((x, i) => ({
              markerId: x.markerId,
              x: i * 40,
              y: 300,
              headingDeg: 0,
              sigmaMm: 0.4,
              sigmaHeadingDeg: 0.3,
            })),
          });
          this.store.addSnapshot(this.battleId, { t, width: 640, height: 360, pose: null }, this.o.snapshot);
          this.written += 2;
        }
      }, 1000 / this.o.movesPerSecond),
    );
    this.outbox.start();
    this.connect();
    this.timers.push(
      setInterval(() => {
        const ws = this.upload;
        if (!ws || ws.readyState !== ws.OPEN || ws.bufferedAmount > 1024 * 1024) return;
        ws.send(this.o.frame, { binary: true });
        ws.send(stateText(++this.frameNo, Date.now()));
        this.framesSent++;
      }, 1000 / this.o.fps),
    );
  }

  private connect(): void {
    const ws = new WebSocket(`${this.o.hubUrl.replace('http', 'ws')}/hub/upload`, {
      headers: { Authorization: `Bearer ${this.o.token}` },
    });
    ws.on('open', () =>
      ws.send(
        JSON.stringify({
          type: 'hello',
          scenario: scenario.name,
          source: 'bench',
          sourceStatus: { state: 'live' },
        }),
      ),
    );
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (this.upload === ws && this.timers.length > 0) setTimeout(() => this.connect(), 500);
    });
    this.upload = ws;
  }

  /** Stops writing and the live upload; the outbox goes on until `close`. */
  stopWriting(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers.length = 0;
    this.upload?.close();
    this.store.endBattle(this.battleId, Date.now());
  }

  localCount(): number {
    const kinds = ['moves', 'rulings', 'keyframes', 'snapshots', 'marks', 'annotations'];
    return kinds.reduce(
      (s, k) =>
        s +
        (
          this.store.db.prepare(`SELECT count(*) AS n FROM ${k} WHERE battle_id = ?`).get(this.battleId) as {
            n: number;
          }
        ).n,
      0,
    );
  }

  async close(): Promise<void> {
    await this.outbox.stop();
    this.store.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Live-view sockets timing each state message from the table's send to its receipt here. */
export class Spectators {
  private readonly sockets: WebSocket[] = [];
  latencies: number[] = [];
  frames = 0;
  states = 0;
  measuring = false;

  constructor(urls: readonly string[]) {
    for (const url of urls) {
      const ws = new WebSocket(url);
      ws.on('message', (data, binary) => {
        if (binary) {
          if (this.measuring) this.frames++;
          return;
        }
        const head = (data as Buffer).subarray(0, 80).toString('latin1');
        const m = /"type":"state","frame":\d+,"timestamp":(\d+)/.exec(head);
        if (m && this.measuring) {
          this.states++;
          this.latencies.push(Date.now() - Number(m[1]));
        }
      });
      ws.on('error', () => undefined);
      this.sockets.push(ws);
    }
  }

  get open(): number {
    return this.sockets.filter((s) => s.readyState === s.OPEN).length;
  }

  close(): void {
    for (const s of this.sockets) s.terminate();
  }
}
