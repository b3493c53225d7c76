/**
 * Native OpenCV 4.6 (Debian's python3-opencv) as a long-lived subprocess fed the benchmark's own
 * frames, so its detection time is measured per frame on the same pixels in the same run
 * (bench/native-aruco.py). The dictionary is OpenCV.js's own table, passed as bytes, because 4.6
 * does not ship Vedette's default ArUco MIP 36h12.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { MarkerDictionaryName } from '../src/table/scenario.ts';
import { dictionaryConstant } from '../src/vision/dictionary.ts';
import { loadOpenCV } from '../src/vision/opencv.ts';
import type { SeenMarker } from './recall-score.ts';

export const NATIVE_PYTHON = '/usr/bin/python3';

export interface NativeResult {
  readonly ms: number;
  readonly markers: readonly SeenMarker[];
}

interface Reply {
  readonly ready?: boolean;
  readonly version?: string;
  readonly threads?: number;
  readonly ms?: number;
  readonly markers?: Array<{ id: number; corners: Array<[number, number]> }>;
}

export class NativeAruco {
  private readonly waiting: Array<(r: Reply) => void> = [];
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: Interface,
    private readonly dir: string,
    readonly version: string,
    readonly threads: number,
  ) {
    lines.on('line', (line) => this.waiting.shift()?.(JSON.parse(line) as Reply));
  }

  /** Starts the native detector, or returns null (with the reason) when python3-opencv is missing. */
  static async start(dictionary: MarkerDictionaryName): Promise<NativeAruco | string> {
    if (!existsSync(NATIVE_PYTHON)) return `${NATIVE_PYTHON} not found (apt-get install python3-opencv)`;
    const cv = await loadOpenCV();
    const dict = cv.getPredefinedDictionary(dictionaryConstant(cv, dictionary));
    const dir = mkdtempSync(join(tmpdir(), 'vedette-native-'));
    const bytesPath = join(dir, 'bytes.raw');
    writeFileSync(bytesPath, dict.bytesList.data as Uint8Array);
    const args = [String(dict.bytesList.rows), String(dict.markerSize), String(dict.maxCorrectionBits)];
    dict.delete?.();
    const script = join(dirname(fileURLToPath(import.meta.url)), 'native-aruco.py');
    const child = spawn(NATIVE_PYTHON, [script, bytesPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const lines = createInterface({ input: child.stdout });
    const first = await new Promise<Reply | null>((resolve) => {
      lines.once('line', (l) => resolve(JSON.parse(l) as Reply));
      child.once('exit', () => resolve(null));
    });
    if (!first?.ready) {
      rmSync(dir, { recursive: true, force: true });
      return `native OpenCV did not start: ${stderr.trim().split('\n').pop() ?? 'no output'}`;
    }
    return new NativeAruco(child, lines, dir, first.version ?? '?', first.threads ?? 0);
  }

  /** Detects markers in a grey picture; resolves with OpenCV's own time and what it found. */
  detect(grey: Uint8Array, width: number, height: number): Promise<NativeResult> {
    const header = Buffer.alloc(8);
    header.writeUInt32LE(width, 0);
    header.writeUInt32LE(height, 4);
    const reply = new Promise<Reply>((resolve) => this.waiting.push(resolve));
    this.child.stdin.write(header);
    this.child.stdin.write(grey);
    return reply.then((r) => ({
      ms: r.ms ?? Number.NaN,
      markers: (r.markers ?? []).map((m) => ({
        id: m.id,
        corners: m.corners.map(([u, v]) => ({ u, v })),
      })),
    }));
  }

  close(): void {
    this.child.stdin.end();
    this.lines.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
