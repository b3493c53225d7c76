/**
 * A hash of every D3 charge verdict, to tell a speed change of the charge search that leaves every
 * answer as it was from one that does not: `node --import ./bin/ts.js bench/d3-charge-hash.ts` on
 * two trees, compare the last line. Every ordered pair (friends too) on the bench table engaged
 * (blue 15" nearer, every third foot unit Highlanders), the 40-unit seed 3 table engaged, the bench
 * table deployed, and six random 20-unit tables; each verdict as JSON (−0 reads as 0).
 */
import '../src/rules/index.ts';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { getRuleset } from '../src/rules/engine/registry.ts';
import { askPair } from '../src/rules/engine/all-pairs.ts';
import { buildTableState } from '../src/table/table-state.ts';
import { benchScenario, rulesetScenario } from './rules-scenario.ts';
import { randomScenario } from '../tests/rules/black-powder/random-table.ts';
import type { Scenario } from '../src/table/scenario.ts';
const rs = getRuleset('d3');
const engaged = (s: Scenario, gap: number): Scenario => rulesetScenario(s, 'd3', gap);
const tables: [string, Scenario][] = [
  ['engaged 60', engaged(benchScenario(), 15)],
  ['engaged 40 s3', engaged(benchScenario(40, 3), 14)],
  ['deployed 60', engaged(benchScenario(), 0)],
  ...[1, 2, 3, 4, 5, 6].map(
    (s) => [`random ${s}`, { ...randomScenario(s, 20), ruleset: 'd3' }] as [string, Scenario],
  ),
];
const all = createHash('sha256');
for (const [label, sc] of tables) {
  const state = buildTableState(sc);
  const h = createHash('sha256');
  const t0 = performance.now();
  let n = 0;
  for (const a of state.units)
    for (const b of state.units) {
      if (a === b) continue;
      const r = askPair(rs, state, 'charge', a, b);
      h.update(JSON.stringify(r));
      n++;
    }
  const d = h.digest('hex');
  all.update(d);
  console.log(
    label.padEnd(14),
    String(n).padStart(5),
    d.slice(0, 12),
    (performance.now() - t0).toFixed(0),
    'ms',
  );
}
console.log('all', all.digest('hex').slice(0, 16));
