/**
 * Synthetic-table tools:
 *   npx tsx src/synth/cli.ts calibration [out.json]                write the default camera profile
 *   npx tsx src/synth/cli.ts render [scenario] [--resolution 1080p] [--seed 1] [--out f.png]
 *        [--clutter seed] [--hands n] [--glare seed] [--shadows n] [--jpeg quality]
 *        clutter: bare bases, dice, rulers, cards and a hand, kept off the bases; hands: reaching
 *        over the first n bases (with their shadows); glare: one spot; shadows: n soft shadows
 *   npx tsx src/synth/cli.ts live [scenario] [--resolution 1080p] [--frames 30] [--unit id]
 * Timings are printed; nothing passes or fails on them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseScenarioText } from '../table/scenario.ts';
import { writeSyntheticCalibration } from './calibration.ts';
import { frameTable, RESOLUTIONS, type ResolutionName } from './camera.ts';
import type { ClutterItem } from './clutter.ts';
import {
  handShadows,
  handsOverMarkers,
  randomClutter,
  randomGlare,
  randomShadows,
} from './clutter-layout.ts';
import { writeImage } from './encode.ts';
import { LiveSyntheticTable } from './live-table.ts';
import { renderScene, type RenderOptions } from './render.ts';
import { placedBases } from './scene.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    resolution: { type: 'string', default: '1080p' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
    frames: { type: 'string', default: '30' },
    unit: { type: 'string' },
    clutter: { type: 'string' },
    hands: { type: 'string' },
    glare: { type: 'string' },
    shadows: { type: 'string' },
    jpeg: { type: 'string' },
  },
});
const [command = 'render', arg] = positionals;
const resolution = values.resolution as ResolutionName;
if (!(resolution in RESOLUTIONS))
  throw new Error(`--resolution must be one of ${Object.keys(RESOLUTIONS).join(', ')}`);
const count = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number ≥ 0, got "${text}"`);
  return n;
};
/** The table's extras asked for on the command line. */
function extrasOf(scenario: ReturnType<typeof loadScenario>, seed: number): RenderOptions {
  const placed = placedBases(scenario);
  const clutterSeed = count('clutter', values.clutter);
  const handCount = count('hands', values.hands) ?? 0;
  const glareSeed = count('glare', values.glare);
  const shadowCount = count('shadows', values.shadows) ?? 0;
  const jpeg = count('jpeg', values.jpeg);
  const avoid = [
    ...placed.map((p) => ({
      x: p.pose.x,
      y: p.pose.y,
      radiusMm: Math.hypot(p.base.widthMm, p.base.depthMm) / 2 + 5,
    })),
    ...scenario.referenceMarkers.map((r) => ({ x: r.x, y: r.y, radiusMm: r.sizeMm })),
  ];
  const lying: ClutterItem[] =
    clutterSeed === undefined ? [] : randomClutter({ table: scenario.table, seed: clutterSeed, avoid });
  const hands = handsOverMarkers(
    placed
      .slice(0, handCount)
      .map((p) => ({ x: p.pose.x, y: p.pose.y, sizeMm: p.base.marker.sizeMm, zMm: p.base.marker.heightMm })),
    scenario.table,
    seed,
  );
  const clutter = [...lying, ...hands];
  return {
    clutter,
    shadows: [...handShadows(clutter), ...randomShadows(scenario.table, seed, shadowCount)],
    glare: glareSeed === undefined ? [] : [randomGlare(scenario.table, glareSeed)],
    ...(jpeg === undefined ? {} : { jpegQuality: jpeg }),
  };
}
const loadScenario = () => {
  const path = arg ?? 'scenarios/prestonpans-demo.json';
  return parseScenarioText(readFileSync(path, 'utf8'), path);
};

if (command === 'calibration') {
  const path = arg ?? 'calibration/synthetic-1080p.json';
  const p = await writeSyntheticCalibration(path);
  console.log(`wrote ${path}: fx ${p.fx.toFixed(2)}, cx ${p.cx.toFixed(2)}, cy ${p.cy.toFixed(2)}`);
} else if (command === 'render') {
  const scenario = loadScenario();
  const cam = frameTable(scenario.table, { resolution });
  await renderScene(scenario, cam, { seed: 0 }); // warm-up: OpenCV start-up and JIT
  const t0 = performance.now();
  const seed = Number(values.seed);
  const frame = await renderScene(scenario, cam, { seed, ...extrasOf(scenario, seed) });
  console.log(`${resolution} render: ${(performance.now() - t0).toFixed(0)} ms`);
  if (values.out) {
    await writeImage(values.out, frame.image);
    writeFileSync(values.out.replace(/\.\w+$/, '.truth.json'), JSON.stringify(frame.truth, null, 2));
    console.log(`wrote ${values.out} and its .truth.json`);
  }
} else if (command === 'live') {
  const scenario = loadScenario();
  const cam = frameTable(scenario.table, { resolution });
  const t0 = performance.now();
  const live = await LiveSyntheticTable.create(
    scenario,
    cam,
    values.unit ? { movingUnitId: values.unit } : {},
  );
  console.log(`${resolution} live table ready in ${(performance.now() - t0).toFixed(0)} ms`);
  const n = Number(values.frames);
  const t1 = performance.now();
  for (let i = 0; i < n; i++) live.frame(i * 100);
  const ms = (performance.now() - t1) / n;
  console.log(
    `${resolution} live: ${ms.toFixed(1)} ms per frame, ${(1000 / ms).toFixed(1)} fps over ${n} frames`,
  );
} else {
  throw new Error(`unknown command "${command}" (calibration | render | live)`);
}
