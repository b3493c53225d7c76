/**
 * The threat view's cost on the 60-unit bench table (with terrain) under each tabletop ruleset: one
 * picked unit's row and column (shoot, charge, see each enemy; each enemy shooting it) for a few
 * units spread over the table, and the whole table for each kind the ruleset answers (every unit:
 * can it shoot / charge / see some enemy?), on the table as deployed and with the armies engaged.
 * Both run one pair at a time with a pause between pairs; the longest stretch between two pauses
 * is how long the thread answering them is kept busy at a stretch. Last, the engaged table's views
 * as the server answers them (src/server/rules-worker-client.ts): posted to the rules worker,
 * with the longest the asking thread's event loop was kept waiting meanwhile (a 2 ms ticker).
 * Wall time (the machine may be shared). Never fails on time.
 *
 *   npm run bench -- threats [--units 5] [--rulesets black-powder,prestonpans,d3,oer-the-sea]
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import '../src/rules/index.ts';
import { getRuleset } from '../src/rules/engine/registry.ts';
import { tableReachSliced, threatsOfUnitSliced } from '../src/rules/engine/unit-threats.ts';
import { pairKindsOf } from '../src/rules/engine/all-pairs.ts';
import { buildTableState } from '../src/table/table-state.ts';
import { fileObservations } from '../src/table/measured-units.ts';
import type { Scenario } from '../src/table/scenario.ts';
import type { ThreatJob } from '../src/server/threat-answers.ts';
import { RulesWorker } from '../src/server/rules-worker-client.ts';
import { benchScenario, rulesetScenario } from './rules-scenario.ts';

const { values } = parseArgs({
  options: {
    units: { type: 'string', default: '5' },
    rulesets: { type: 'string', default: 'black-powder,prestonpans,d3,oer-the-sea' },
  },
});
const picks = Math.max(1, Number(values.units));
const rulesetIds = values.rulesets.split(',').filter(Boolean);

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** A pause that notes the longest time since the previous one. */
function pacer(): { pause: () => Promise<void>; longest: () => number; start: () => void } {
  let last = 0;
  let worst = 0;
  return {
    start: () => {
      last = performance.now();
      worst = 0;
    },
    pause: () => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          last = performance.now();
          resolve();
        }),
      );
    },
    longest: () => worst,
  };
}

const scenario = benchScenario();
/** The bench table as each tabletop ruleset reads it, as deployed or engaged (rulesetScenario). */
const scenarioFor = (ruleset: string, engaged: boolean): Scenario =>
  rulesetScenario(scenario, ruleset, engaged ? 15 : 0);
const tableFor = (ruleset: string, engaged: boolean) => buildTableState(scenarioFor(ruleset, engaged));

const summary: string[] = [];
for (const [id, engaged] of rulesetIds.flatMap(
  (r) =>
    [
      [r, false],
      [r, true],
    ] as const,
)) {
  const ruleset = getRuleset(id);
  const state = tableFor(id, engaged);
  const n = state.units.length;
  const laid = engaged ? 'engaged' : 'deployed';
  console.log(
    `threat view, ${ruleset.name}, ${laid}, ${n} units, ${state.units.reduce((s, u) => s + u.bases.length, 0)} bases, terrain ${state.terrain.length}`,
  );
  const p = pacer();
  const times: number[] = [];
  const holds: number[] = [];
  let asked = 0;
  for (let k = 0; k < picks; k++) {
    const unit = state.units[Math.floor((k * n) / picks)]!;
    p.start();
    const t0 = performance.now();
    const view = await threatsOfUnitSliced(ruleset, state, unit.id, {}, p.pause);
    const ms = performance.now() - t0;
    times.push(ms);
    holds.push(p.longest());
    asked = view!.asked;
    console.log(
      `  ${unit.id}: ${view!.asked} verdicts in ${ms.toFixed(0)} ms (${(ms / view!.asked).toFixed(2)} ms each), longest hold ${p.longest().toFixed(1)} ms`,
    );
  }
  console.log(
    `  one unit's view: median ${median(times).toFixed(0)} ms for ~${asked} verdicts; longest event-loop hold ${Math.max(...holds).toFixed(1)} ms`,
  );
  const whole: string[] = [];
  let longest = Math.max(...holds);
  for (const kind of pairKindsOf(ruleset)) {
    p.start();
    const t0 = performance.now();
    const reach = await tableReachSliced(ruleset, state, kind, {}, p.pause);
    const ms = performance.now() - t0;
    const yes = reach!.units.filter((u) => u.answer === 'yes').length;
    console.log(
      `  whole table (${kind}): ${reach!.asked} pairs asked, stopping at each unit's first yes (${yes} of ${n} units can ${kind} something) in ${ms.toFixed(0)} ms, longest hold ${p.longest().toFixed(1)} ms`,
    );
    whole.push(`${kind} ${ms.toFixed(0)} ms`);
    longest = Math.max(longest, p.longest());
  }
  summary.push(
    `| ${ruleset.name} | ${laid} | ${median(times).toFixed(0)} ms | ${whole.join(', ') || '–'} | ${longest.toFixed(0)} ms |`,
  );
}
console.log(
  "\n| ruleset | table | one unit's view (median) | whole table | longest hold of the answering thread |",
);
console.log('|---|---|---|---|---|');
for (const row of summary) console.log(row);

/** The longest gap between ticks of a 2 ms timer on this thread, less the 2 ms: how long its loop waited. */
function ticker(): { stop: () => number } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 2);
    last = now;
  }, 2);
  return { stop: () => (clearInterval(timer), worst) };
}

console.log('\nAs the server answers them: posted to the rules worker (engaged table)');
const worker = new RulesWorker('bench-rules');
const rows: string[] = [];
for (const id of rulesetIds) {
  const ruleset = getRuleset(id);
  const scene = scenarioFor(id, true);
  const poses = new Map(
    fileObservations(scene).map((o) => [
      o.markerId,
      { x: o.x, y: o.y, headingDeg: o.headingDeg, sigmaMm: o.sigmaMm, sigmaHeadingDeg: o.sigmaHeadingDeg },
    ]),
  );
  const job = (ask: ThreatJob['ask']): ThreatJob => ({
    scenario: scene,
    poses,
    frame: 0,
    ruleset: id,
    options: {},
    policy: ruleset.defaultPolicy,
    ask,
  });
  await worker.threats(job({ kind: 'see' }), 'table'); // compiled and warm, as a running server's worker is
  const views: number[] = [];
  const whole: string[] = [];
  let waited = 0;
  const units = scene.units.filter((u) => u.type !== 'commander');
  const asks: ThreatJob['ask'][] = [
    ...[0, 1, 2].map((k) => ({ unit: units[Math.floor((k * units.length) / 3)]!.id })),
    ...pairKindsOf(ruleset).map((kind) => ({ kind })),
  ];
  for (const ask of asks) {
    const label = 'unit' in ask ? `view of ${ask.unit}` : `whole table (${ask.kind})`;
    const tick = ticker();
    const t0 = performance.now();
    const outcome = await worker.threats(job(ask), 'unit' in ask ? 'unit' : 'table');
    const ms = performance.now() - t0;
    const hold = tick.stop();
    if (!('view' in outcome)) throw new Error(`${id} ${label}: ${JSON.stringify(outcome)}`);
    waited = Math.max(waited, hold);
    if ('unit' in ask) views.push(ms);
    else whole.push(`${ask.kind} ${ms.toFixed(0)} ms`);
    console.log(
      `  ${ruleset.name}, ${label}: ${ms.toFixed(0)} ms; this thread's loop waited at most ${hold.toFixed(1)} ms`,
    );
  }
  rows.push(
    `| ${ruleset.name} | ${median(views).toFixed(0)} ms | ${whole.join(', ')} | ${waited.toFixed(1)} ms |`,
  );
}
await worker.close();
console.log(
  "\n| ruleset (engaged), by the rules worker | one unit's view (median of 3) | whole table | longest wait of the asking thread's event loop |",
);
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
