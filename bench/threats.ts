/**
 * The threat view's cost on the 60-unit bench table (Black Powder, with terrain): one picked
 * unit's row and column (shoot, charge, see each enemy; each enemy shooting it) for a few units
 * spread over the table, and the whole table for shoot (every unit: can it shoot some enemy?).
 * Both run as the server runs them, one pair at a time with a pause between pairs; the longest
 * stretch between two pauses is how long the live loop can be kept waiting. Wall time (the
 * machine may be shared). Never fails on time.
 *
 *   npm run bench -- threats [--units 5]
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import '../src/rules/index.ts';
import { getRuleset } from '../src/rules/engine/registry.ts';
import { tableReachSliced, threatsOfUnitSliced } from '../src/rules/engine/unit-threats.ts';
import { buildTableState } from '../src/table/table-state.ts';
import { benchScenario } from './rules-scenario.ts';

const { values } = parseArgs({ options: { units: { type: 'string', default: '5' } } });
const picks = Math.max(1, Number(values.units));

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

const state = buildTableState(benchScenario());
const bp = getRuleset('black-powder');
const n = state.units.length;
console.log(
  `threat view, Black Powder, ${n} units, ${state.units.reduce((s, u) => s + u.bases.length, 0)} bases, terrain ${state.terrain.length}`,
);

const p = pacer();
const times: number[] = [];
const holds: number[] = [];
let asked = 0;
for (let k = 0; k < picks; k++) {
  const unit = state.units[Math.floor((k * n) / picks)]!;
  p.start();
  const t0 = performance.now();
  const view = await threatsOfUnitSliced(bp, state, unit.id, {}, p.pause);
  const ms = performance.now() - t0;
  times.push(ms);
  holds.push(p.longest());
  asked = view!.asked;
  const yes = view!.pairs.filter(
    (x) =>
      'verdict' in (x.from.shoot ?? {}) &&
      (x.from.shoot as { verdict: { answer: string } }).verdict.answer === 'yes',
  ).length;
  console.log(
    `  ${unit.id}: ${view!.asked} verdicts in ${ms.toFixed(0)} ms (${(ms / view!.asked).toFixed(2)} ms each), can shoot ${yes} of ${view!.pairs.length}, longest hold ${p.longest().toFixed(1)} ms`,
  );
}
console.log(
  `one unit's view: median ${median(times).toFixed(0)} ms for ~${asked} verdicts; longest event-loop hold ${Math.max(...holds).toFixed(1)} ms`,
);

p.start();
const t0 = performance.now();
const reach = await tableReachSliced(bp, state, 'shoot', {}, p.pause);
const enemyPairs = state.units.reduce((s, u) => s + state.units.filter((e) => e.side !== u.side).length, 0);
const ms = performance.now() - t0;
const yes = reach!.units.filter((u) => u.answer === 'yes').length;
console.log(
  `whole table (shoot): ${reach!.asked} of ${enemyPairs} enemy pairs asked, stopping at each unit's first yes (${n} units, ${yes} can shoot something) in ${ms.toFixed(0)} ms, longest hold ${p.longest().toFixed(1)} ms`,
);
