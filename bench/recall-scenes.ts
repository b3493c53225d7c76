/**
 * Scenes for the recall benchmark (bench/recall.ts): the accuracy bench's 72 × 48 in table
 * (bench/accuracy-scenes.ts: four 80 mm reference sheets, 54 bases over the whole table, the far
 * corners included) in Vedette's default dictionary, seen under one condition at a time, and the
 * clutter table (reference sheets and clutter, no marked base). Everything is seeded; the
 * benchmark's seeds start at 5000 (tests use 1–99, tuning 1000–1999).
 */
import {
  handShadows,
  handsOverMarkers,
  randomClutter,
  randomGlare,
  randomShadows,
} from '../src/synth/clutter-layout.ts';
import type { ClutterItem } from '../src/synth/clutter.ts';
import type { LiveTableOptions } from '../src/synth/live-table.ts';
import {
  parseScenario,
  type MarkerDictionaryName,
  type Scenario,
  type ScenarioFile,
} from '../src/table/scenario.ts';
import { benchScenario, prng, TABLE_72x48_MM } from './accuracy-scenes.ts';

export const RECALL_DICTIONARY: MarkerDictionaryName = 'aruco_mip_36h12';
/** Lowest seed the benchmark uses. */
export const FIRST_BENCH_SEED = 5000;

export const CONDITIONS = ['noise', 'blur', 'jpeg', 'uneven light', 'glare', 'hands'] as const;
export type Condition = (typeof CONDITIONS)[number];

/** A webcam's sensor as the other conditions see it: a little noise, a little blur. */
export const WEBCAM_SENSOR = { noiseSigma: 3, blurSigma: 0.7 } as const;

export interface ConditionSetup {
  /** Options for the live table (seeded), the sensor included. */
  readonly table: Omit<LiveTableOptions, 'seed'>;
  /** JPEG quality each frame goes through (webcam MJPEG), if any. */
  readonly jpegQuality?: number;
  /** One line saying what the condition is, for the report. */
  readonly description: string;
}

/** Share of the bases a hand reaches over in the `hands` condition (every seventh base). */
const HAND_EVERY = 7;
/** Bases this close to a reference sheet get no hand (its arm would lie over the sheet). */
const HAND_SHEET_CLEARANCE_MM = 450;

/**
 * The renderer options of one condition on a scenario's table, seeded. Each changes one thing
 * from the webcam sensor: stronger noise, more blur, JPEG, strong uneven light with cast shadows,
 * glare spots (two on bases), hands reaching over bases (with their shadows).
 */
export function conditionSetup(condition: Condition, scenario: Scenario, seed: number): ConditionSetup {
  const table = scenario.table;
  const sensor = { ...WEBCAM_SENSOR, supersampling: 3 };
  const bases = scenario.units.flatMap((u) =>
    u.bases.flatMap((b) => (b.pose ? [{ ...b, pose: b.pose }] : [])),
  );
  switch (condition) {
    case 'noise':
      return {
        table: { ...sensor, noiseSigma: 6 },
        description: 'sensor noise σ 6 grey levels, blur σ 0.7 px',
      };
    case 'blur':
      return { table: { ...sensor, blurSigma: 1.4 }, description: 'lens blur σ 1.4 px, noise σ 3' };
    case 'jpeg':
      return {
        table: sensor,
        jpegQuality: 70,
        description: 'MJPEG quality 70 (4:2:0), noise σ 3, blur σ 0.7',
      };
    case 'uneven light':
      return {
        table: { ...sensor, lighting: 0.9, shadows: randomShadows(table, seed, 4) },
        description: 'strong hot spot, gradient and vignette (lighting 0.9) and 4 soft cast shadows',
      };
    case 'glare': {
      const rand = prng(seed);
      const on = [0, 1].map(() => bases[Math.floor(rand() * bases.length)]!);
      return {
        table: {
          ...sensor,
          glare: [
            ...on.map((b, i) => randomGlare(table, seed + 10 + i, { x: b.pose.x, y: b.pose.y })),
            randomGlare(table, seed + 20),
            randomGlare(table, seed + 21),
          ],
        },
        description: '4 specular glare spots (25–80 mm, peak 180–400 grey levels), two centred on bases',
      };
    }
    case 'hands': {
      // Hands over bases, not over the reference sheets (without three of those nothing is measured).
      const clearOfSheets = (b: { pose: { x: number; y: number } }) =>
        scenario.referenceMarkers.every(
          (r) => Math.hypot(r.x - b.pose.x, r.y - b.pose.y) > HAND_SHEET_CLEARANCE_MM,
        );
      const targets = bases
        .filter((b, i) => i % HAND_EVERY === 3 && clearOfSheets(b))
        .map((b) => ({ x: b.pose.x, y: b.pose.y, sizeMm: b.marker.sizeMm, zMm: b.marker.heightMm }));
      const hands = handsOverMarkers(targets, table, seed);
      return {
        table: { ...sensor, clutter: hands, shadows: handShadows(hands) },
        description: `a hand reaching over every ${HAND_EVERY}th base (fingertips over the tag, part hidden), with its shadow`,
      };
    }
  }
}

/** The recall scene: 54 bases with `markerMm` tags in the default dictionary. */
export function recallScenario(markerMm: number, seed: number): Scenario {
  return benchScenario({ dictionary: RECALL_DICTIONARY, markerMm, seed });
}

/** The same table with its reference sheets only: what the clutter set is rendered from. */
export function referencesOnly(scenario: Scenario): Scenario {
  const W = scenario.table.widthMm;
  const D = scenario.table.depthMm;
  const file: ScenarioFile = {
    name: `${scenario.name} (reference sheets only)`,
    lengthUnit: 'mm',
    markerDictionary: scenario.markerDictionary,
    table: { width: W, depth: D },
    referenceMarkers: scenario.referenceMarkers.map((r) => ({
      id: r.id,
      x: r.x,
      y: r.y,
      size: r.sizeMm,
      height: r.heightMm,
    })),
    sides: [{ id: 'bench', name: 'Bench', colour: '#6b7d4f' }],
    units: [],
  };
  return parseScenario(file, 'clutter scenario');
}

/**
 * One clutter layout: many bare bases (dark outlines and painted blocks of every size, 40 × 60 mm
 * among them), dice, rulers, printed cards and two hands, scattered over the table clear of the
 * reference sheets.
 */
export function clutterLayout(scenario: Scenario, seed: number): ClutterItem[] {
  return randomClutter({
    table: TABLE_72x48_MM,
    seed,
    counts: { base: 14, die: 10, ruler: 3, card: 6, hand: 2 },
    avoid: scenario.referenceMarkers.map((r) => ({ x: r.x, y: r.y, radiusMm: r.sizeMm })),
  });
}
