/**
 * Scenes for the accuracy benchmark (bench/accuracy.ts): a 72 × 48 in table with the four 80 mm
 * corner reference markers and a jittered grid of square bases over the whole table, the far
 * corners included, each base just big enough to carry its marker with a one-cell quiet zone
 * (a 20 mm AprilTag 36h11, 8 cells across, sits on a 25 mm base).
 *
 * Scenes are built in code, seeded, so every configuration of the bench can be regenerated.
 */
import {
  parseScenario,
  type MarkerDictionaryName,
  type Scenario,
  type ScenarioFile,
} from '../src/table/scenario.ts';

export const TABLE_72x48_MM = { widthMm: 72 * 25.4, depthMm: 48 * 25.4 } as const;

/** Cells across the black square (data bits plus the one-cell black border) per dictionary. */
export const DICTIONARY_CELLS: Record<MarkerDictionaryName, number> = {
  apriltag_36h11: 8,
  aruco_4x4_250: 6,
  aruco_5x5_250: 7,
  aruco_mip_36h12: 8,
};

export interface BenchSceneOptions {
  readonly dictionary: MarkerDictionaryName;
  /** Side of the marker's black square, mm. */
  readonly markerMm: number;
  /** Height of the marker's surface above the table, mm (default 3: base plus sticker). */
  readonly markerHeightMm?: number;
  /** Grid columns × rows of bases (default 9 × 6 = 54). */
  readonly columns?: number;
  readonly rows?: number;
  /** Seed for the jitter and the headings. */
  readonly seed: number;
}

/** Small deterministic PRNG (mulberry32) in [0, 1). */
export function prng(seed: number): () => number {
  let a = (seed * 0x9e3779b9) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Base side for a marker: the black square plus one cell of white each side. */
export function baseSideMm(dictionary: MarkerDictionaryName, markerMm: number): number {
  const cells = DICTIONARY_CELLS[dictionary];
  return (markerMm * (cells + 2)) / cells;
}

/** Reference marker ids 0–3; bases from 10 up (every dictionary has ≥ 250 ids). */
export const FIRST_BASE_ID = 10;

/**
 * The bench scene: reference markers 80 mm, 60 mm in from each corner (as the demo scenario);
 * a `columns × rows` grid of bases from 150 mm inside the left/right edges and 120 mm inside the
 * near/far edges (so the outermost bases sit right beside the reference sheets, in the corners),
 * each jittered up to ±20 % of the grid pitch and turned to a random heading.
 */
export function benchScenario(options: BenchSceneOptions): Scenario {
  const { dictionary, markerMm, seed } = options;
  const columns = options.columns ?? 9;
  const rows = options.rows ?? 6;
  const height = options.markerHeightMm ?? 3;
  const side = baseSideMm(dictionary, markerMm);
  const { widthMm: W, depthMm: D } = TABLE_72x48_MM;
  const rand = prng(seed);
  const x0 = 150;
  const x1 = W - 150;
  const y0 = 120;
  const y1 = D - 120;
  const px = (x1 - x0) / (columns - 1);
  const py = (y1 - y0) / (rows - 1);
  const bases: NonNullable<ScenarioFile['units']>[number]['bases'] = [];
  let id = FIRST_BASE_ID;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      // Corner bases keep their place (they are the far corners the bench must cover).
      const corner = (r === 0 || r === rows - 1) && (c === 0 || c === columns - 1);
      const jx = corner ? 0 : (rand() - 0.5) * 0.4 * px;
      const jy = corner ? 0 : (rand() - 0.5) * 0.4 * py;
      const heading = rand() * 360 - 180;
      bases.push({
        width: side,
        depth: side,
        marker: { id: id++, size: markerMm, height },
        pose: { x: x0 + c * px + jx, y: y0 + r * py + jy, headingDeg: heading },
      });
    }
  }
  const ref = (i: number, x: number, y: number) => ({ id: i, x, y, size: 80 });
  const file: ScenarioFile = {
    name: `bench ${dictionary} ${markerMm} mm seed ${seed}`,
    lengthUnit: 'mm',
    markerDictionary: dictionary,
    table: { width: W, depth: D },
    referenceMarkers: [ref(0, 60, 60), ref(1, W - 60, 60), ref(2, W - 60, D - 60), ref(3, 60, D - 60)],
    sides: [{ id: 'bench', name: 'Bench', colour: '#6b7d4f' }],
    // One base per unit keeps the scenario honest (no formations implied).
    units: bases.map((b, i) => ({
      id: `u${i}`,
      name: `Base ${i}`,
      side: 'bench',
      type: 'infantry' as const,
      bases: [b],
    })),
  };
  return parseScenario(file, 'bench scenario');
}
