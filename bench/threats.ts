/**
 * The threat view's cost on the 60-unit bench table (with terrain) under each tabletop ruleset: one
 * picked unit's row and column (shoot, charge, see each enemy; each enemy shooting it) for a few
 * units spread over the table, and the whole table for each kind the ruleset answers (every unit:
 * can it shoot / charge / see some enemy?), on the table as deployed and with the armies engaged.
 * Both run as the server runs them, one pair at a time with a pause between pairs; the longest
 * stretch between two pauses is how long the live loop can be kept waiting. Wall time (the
 * machine may be shared). Never fails on time.
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
import { benchScenario } from './rules-scenario.ts';
import { IN } from '../tests/rules/fixtures.ts';

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
/**
 * The bench table as each tabletop ruleset reads it (D3's Highlanders, who charge: every third
 * foot), as deployed (the armies 20" or more apart) or engaged (blue 15" nearer, front lines 5" apart: shots and charges
 * in reach, charges a few inches short searched in full).
 */
const tableFor = (ruleset: string, engaged: boolean) =>
  buildTableState({
    ...scenario,
    ruleset,
    units: scenario.units.map((u, i) => {
      const unit =
        ruleset === 'd3' && u.type === 'infantry' && i % 3 === 0 ? { ...u, troop: 'Highland foot' } : u;
      if (!engaged || u.side !== 'blue') return unit;
      return {
        ...unit,
        bases: unit.bases.map((b) => (b.pose ? { ...b, pose: { ...b.pose, y: b.pose.y - 15 * IN } } : b)),
      };
    }),
  });

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
console.log("\n| ruleset | table | one unit's view (median) | whole table | longest event-loop hold |");
console.log('|---|---|---|---|---|');
for (const row of summary) console.log(row);
