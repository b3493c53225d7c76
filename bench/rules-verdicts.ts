/**
 * The rules benchmark's full-verdict part: "can A shoot / charge / see B?" for every ordered pair
 * of the 60-unit bench table (with terrain), three ways:
 * - one at a time, as the command line asks (every subject against every object, or with
 *   `--sample k` k subjects scaled up to the table), alternating with the next;
 * - all pairs at once (`AllPairs.full` on a fresh session: nothing remembered);
 * - after one unit moved (`AllPairs.update` on the moved table, the session having answered the
 *   table before it): only pairs the moved unit could change are asked again; median over moves.
 * Answers of the all-pairs run are checked against one at a time, verdict by verdict, and the
 * update against a fresh run of the moved table. Wall and CPU time (the machine may be shared).
 * Never fails on time.
 */
import { isDeepStrictEqual } from 'node:util';
import { performance } from 'node:perf_hooks';
import '../src/rules/index.ts';
import { AllPairs, askPair, type PairKind, type PairVerdicts } from '../src/rules/engine/all-pairs.ts';
import { getRuleset } from '../src/rules/engine/registry.ts';
import { buildTableState } from '../src/table/table-state.ts';
import { benchScenario, movedUnit, rng } from './rules-scenario.ts';

/** User + system CPU time of this process since `c0`, ms. */
const cpuMs = (c0: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(c0);
  return (d.user + d.system) / 1000;
};

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

export interface VerdictBenchOptions {
  /** Fresh all-pairs runs (median taken). */
  readonly runs: number;
  /** One-unit moves after a warm run (median taken). */
  readonly moves: number;
  /** Subjects asked one at a time (spread over the table), scaled to all; all by default. */
  readonly sample: number;
  /** The reference workload's median in this process, ms (figures are also given against it). */
  readonly referenceMs: number;
}

export function benchFullVerdicts(opts: VerdictBenchOptions): void {
  const scenario = benchScenario();
  const state = buildTableState(scenario);
  const bp = getRuleset('black-powder');
  const units = state.units;
  const n = units.length;
  const kinds: readonly PairKind[] = ['shoot', 'charge', 'see'];
  const verdicts = n * (n - 1) * kinds.length;
  console.log('');
  console.log(
    `full verdicts (shoot, charge, see) for every ordered pair: ${n} units, ${units.reduce((s, u) => s + u.bases.length, 0)} bases, terrain ${state.terrain.length}, ${verdicts} verdicts`,
  );

  // All pairs (nothing remembered) and one at a time, alternately, so both see the same load;
  // wall time and this process's CPU time (the machine may be shared).
  const step = Math.max(1, Math.floor(n / opts.sample));
  const subjects = units.filter((_, i) => i % step === 0).slice(0, opts.sample);
  const fresh: number[] = [];
  const freshCpu: number[] = [];
  const plainMs: number[] = [];
  const plainCpu: number[] = [];
  let session = new AllPairs(bp, { kinds });
  session.full(state); // warm-up (compilation)
  let all: PairVerdicts | undefined;
  let differing = 0;
  let asked = 0;
  for (let run = 0; run < opts.runs; run++) {
    session = new AllPairs(bp, { kinds });
    // A table built anew for each run and each way: what is kept per table object (outlines,
    // shadows per eye) must not carry over from the run before.
    const freshState = buildTableState(scenario);
    let c0 = process.cpuUsage();
    let t0 = performance.now();
    all = session.full(freshState);
    fresh.push(performance.now() - t0);
    freshCpu.push(cpuMs(c0));
    const plainState = buildTableState(scenario);
    c0 = process.cpuUsage();
    t0 = performance.now();
    const plain: unknown[] = [];
    for (const a of subjects)
      for (const b of units)
        if (a !== b) for (const kind of kinds) plain.push(askPair(bp, plainState, kind, a, b));
    plainMs.push(((performance.now() - t0) * n) / subjects.length);
    plainCpu.push((cpuMs(c0) * n) / subjects.length);
    if (run === 0) {
      let k = 0;
      for (const a of subjects)
        for (const b of units)
          if (a !== b)
            for (const kind of kinds) {
              asked++;
              if (!isDeepStrictEqual(plain[k++], all?.get(kind, a.id, b.id))) differing++;
            }
    }
  }
  const freshMs = median(fresh);
  const oneAtATimeMs = median(plainMs);
  console.log(
    `all pairs, fresh: median ${freshMs.toFixed(0)} ms (${fresh.map((t) => t.toFixed(0)).join(', ')}; ${((freshMs * 1000) / verdicts).toFixed(0)} µs a verdict), CPU ${median(freshCpu).toFixed(0)} ms`,
  );
  console.log(
    `one at a time${subjects.length < n ? ` (${subjects.length} of ${n} subjects, scaled)` : ''}: median ${oneAtATimeMs.toFixed(0)} ms (${plainMs.map((t) => t.toFixed(0)).join(', ')}; ${((oneAtATimeMs * 1000) / verdicts).toFixed(0)} µs a verdict), CPU ${median(plainCpu).toFixed(0)} ms`,
  );
  console.log(`answers differing between all-pairs and one at a time: ${differing} of ${asked}`);

  // One unit moved: the session is warm from the table before.
  const r = rng(5);
  let updateDiffers = 0;
  const updates: number[] = [];
  const reasked: number[] = [];
  const updatesCpu: number[] = [];
  for (let m = 0; m < opts.moves; m++) {
    const u = units[Math.floor(r() * n)]?.id as string;
    const after = buildTableState(
      movedUnit(scenario, u, (r() - 0.5) * 150, (r() - 0.5) * 150, (r() - 0.5) * 40),
    );
    session.full(state);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const updated = session.update(after);
    updates.push(performance.now() - t0);
    updatesCpu.push(cpuMs(c0));
    reasked.push(session.lastAsked);
    // Checked against a fresh run of the moved table.
    const fresh = new AllPairs(bp, { kinds }).full(after);
    for (const kind of kinds)
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++)
          if (i !== j && !isDeepStrictEqual(updated.at(kind, i, j), fresh.at(kind, i, j))) updateDiffers++;
  }
  const updateMs = median(updates);
  console.log(
    `one unit moved, update: median ${updateMs.toFixed(0)} ms (${updates.map((t) => t.toFixed(0)).join(', ')}); CPU ${median(updatesCpu).toFixed(0)} ms; verdicts asked again ${reasked.join(', ')} of ${verdicts}`,
  );
  console.log(`answers differing between the update and a fresh run: ${updateDiffers}`);

  console.log(
    `all pairs fresh ${freshMs.toFixed(0)} ms (target ≤ 50 ms), ×${(oneAtATimeMs / freshMs).toFixed(1)} faster than one at a time; one unit moved ${updateMs.toFixed(0)} ms (target ≤ 5 ms), ×${(oneAtATimeMs / updateMs).toFixed(1)}`,
  );
  const ref = (ms: number) => (ms / opts.referenceMs).toFixed(0);
  console.log(
    `ratio to reference: all pairs fresh ${ref(freshMs)}; one unit moved ${ref(updateMs)}; one at a time (whole table) ${ref(oneAtATimeMs)}`,
  );
}
