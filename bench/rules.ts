/**
 * Rules benchmark: a 60-unit Black Powder table with terrain (bench/rules-scenario.ts); every
 * ordered pair asked for range (leader base edge to target edge, with uncertainty), the quarter
 * of the shooter holding the target's leader, and line of sight from the leader to the target's
 * nearest point.
 *
 * Two runs of the same questions: the straightforward one (`pairTablePlain`, one question at a
 * time: what the code did before the all-pairs table) and the all-pairs table (`pairTable`:
 * prepared outlines, seeded closest pairs, a grid over blockers). The bench checks they agree,
 * prints both times, their ratio, and each against a fixed arithmetic workload run in the same
 * process (so figures from different machines compare). It never fails on time.
 * Then full verdicts for every ordered pair (bench/rules-verdicts.ts): all pairs at once, after
 * one unit moved, and one at a time, with their ratio.
 * Run: npm run bench -- rules [--runs N] [--moves N] [--sample N] (npx tsx bench/rules.ts)
 */
import { performance } from 'node:perf_hooks';
import { closestPointOnSegment } from '../src/geometry/distance.ts';
import { bpContext } from '../src/rules/black-powder/context.ts';
import {
  pairTable,
  pairTablePlain,
  type PairFacts,
  type PairTable,
} from '../src/rules/black-powder/pair-table.ts';
import { shootVerdict } from '../src/rules/black-powder/shooting.ts';
import { unitSeparation } from '../src/rules/unit-distance.ts';
import { buildTableState } from '../src/table/table-state.ts';
import { benchScenario } from './rules-scenario.ts';
import { benchFullVerdicts } from './rules-verdicts.ts';

interface Timing {
  readonly median: number;
  readonly min: number;
}

function time(label: string, runs: number, fn: () => number): Timing {
  fn();
  const times: number[] = [];
  let check = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    check += fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  const min = times[0] as number;
  console.log(
    `${label.padEnd(52)} median ${median.toFixed(2)} ms  (min ${min.toFixed(2)}, ${runs} runs, checksum ${check.toFixed(0)})`,
  );
  return { median, min };
}

const state = buildTableState(benchScenario());
const ctx = bpContext(state);
const units = state.units;
const pairs = units.length * (units.length - 1);

/** The bench's checksum of a table: in contact or not, target leader in front, line clear. */
const checksum = (table: readonly PairFacts[]): number =>
  table.reduce(
    (n, f) => n + (f.range.mm > 0 ? 1 : 0) + (f.quarter.quarter === 'front' ? 1 : 0) + (f.sight ? 0 : 1),
    0,
  );

/** The same checksum read straight from the flat arrays. */
function tableChecksum(t: PairTable): number {
  let n = 0;
  for (let i = 0; i < t.n; i++)
    for (let j = 0; j < t.n; j++) {
      if (i === j) continue;
      const k = i * t.n + j;
      n +=
        ((t.rangeMm[k] as number) > 0 ? 1 : 0) +
        (t.quarter[k] === 1 ? 1 : 0) +
        ((t.sight[k] as number) < 0 ? 1 : 0);
    }
  return n;
}

/** Answers of the two runs compared field by field (exact equality, no tolerance). */
function differences(a: readonly PairFacts[], b: readonly PairFacts[]): number {
  let n = 0;
  a.forEach((x, i) => {
    const y = b[i] as PairFacts;
    const same =
      x.from === y.from &&
      x.to === y.to &&
      x.range.mm === y.range.mm &&
      x.range.sigmaMm === y.range.sigmaMm &&
      x.range.to.x === y.range.to.x &&
      x.range.to.y === y.range.to.y &&
      x.quarter.quarter === y.quarter.quarter &&
      x.quarter.rayDistance === y.quarter.rayDistance &&
      x.sight?.id === y.sight?.id &&
      x.sight?.fromMm === y.sight?.fromMm;
    if (!same) n++;
  });
  return n;
}

/** Reference: 200 000 point-to-segment projections, a fixed amount of plain arithmetic. */
const reference = time('reference (200k point-segment projections)', 15, () => {
  let s = 0;
  for (let i = 0; i < 200_000; i++) {
    const p = closestPointOnSegment({ x: i % 97, y: i % 89 }, { x: 0, y: 0 }, { x: 50, y: 13 });
    s += p.x;
  }
  return s;
});

const plain = time(`all pairs (${pairs}), one at a time: range+quarter+LOS`, 9, () =>
  checksum(pairTablePlain(ctx)),
);
const fast = time(`all pairs (${pairs}), pairTable: range+quarter+LOS`, 31, () =>
  tableChecksum(pairTable(ctx)),
);

const rangeOnly = time(`all pairs (${pairs}): range only (unitSeparation)`, 15, () => {
  let n = 0;
  for (const a of units)
    for (const b of units) if (a !== b) n += unitSeparation([a.leaderBase], b.body).distance > 0 ? 1 : 0;
  return n;
});

const shooter = units[0];
const shootAll = shooter
  ? time(`full "can shoot?" verdicts from one unit (${units.length - 1})`, 5, () => {
      let n = 0;
      for (const b of units) if (b !== shooter) n += shootVerdict(ctx, shooter, b).answer === 'yes' ? 1 : 0;
      return n;
    })
  : { median: 0, min: 0 };

const diff = differences(pairTablePlain(ctx), pairTable(ctx).all());
const r = (x: number) => (x / reference.median).toFixed(2);
console.log('');
console.log(
  `units ${units.length}, bases ${units.reduce((s, u) => s + u.bases.length, 0)}, terrain ${state.terrain.length}`,
);
console.log(`answers differing between the two runs: ${diff} of ${pairs}`);
console.log(
  `all pairs, pairTable: ${fast.median.toFixed(2)} ms median, ${fast.min.toFixed(2)} ms min (target ≤ 10 ms), ${((fast.median * 1000) / pairs).toFixed(2)} µs per pair`,
);
console.log(
  `all pairs, one at a time: ${plain.median.toFixed(2)} ms median; speed-up ×${(plain.median / fast.median).toFixed(1)}`,
);
console.log(
  `ratio to reference: pairTable ${r(fast.median)}; one at a time ${r(plain.median)}; range only ${r(rangeOnly.median)}; shoot verdicts ${r(shootAll.median)}`,
);

/** `--name N` from the command line, else the default. */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v >= 0 ? v : fallback;
}

benchFullVerdicts({
  runs: arg('runs', 3),
  moves: arg('moves', 3),
  sample: arg('sample', 60),
  referenceMs: reference.median,
});
