/**
 * The rules benchmark's full-verdict part: "can A shoot / charge / see B?" for every ordered pair
 * of the 60-unit bench table (with terrain), three ways:
 * - one at a time, as the command line asks (a sample of subjects against every object, scaled
 *   up to the whole table: the whole takes minutes);
 * - all pairs at once (`AllPairs.full` on a fresh session: nothing remembered);
 * - after one unit moved (`AllPairs.update` on the moved table, the session having answered the
 *   table before it): only pairs the moved unit could change are asked again; median over moves.
 * Answers of the all-pairs run are checked against the one-at-a-time sample, verdict by verdict.
 * Never fails on time.
 */
import { isDeepStrictEqual } from 'node:util';
import { performance } from 'node:perf_hooks';
import '../src/rules/index.ts';
import { AllPairs, askPair, type PairKind } from '../src/rules/engine/all-pairs.ts';
import { getRuleset } from '../src/rules/engine/registry.ts';
import { buildTableState } from '../src/table/table-state.ts';
import { benchScenario, movedUnit, rng } from './rules-scenario.ts';

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

export interface VerdictBenchOptions {
  /** Fresh all-pairs runs (median taken). */
  readonly runs: number;
  /** One-unit moves after a warm run (median taken). */
  readonly moves: number;
  /** Subjects asked one at a time (spread over the table), scaled to all. */
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

  // All pairs, nothing remembered.
  const fresh: number[] = [];
  let session = new AllPairs(bp, { kinds });
  let all = session.full(state);
  for (let r = 0; r < opts.runs; r++) {
    session = new AllPairs(bp, { kinds });
    const t0 = performance.now();
    all = session.full(state);
    fresh.push(performance.now() - t0);
  }
  const freshMs = median(fresh);
  console.log(
    `all pairs, fresh: median ${freshMs.toFixed(0)} ms (${fresh.map((t) => t.toFixed(0)).join(', ')}; ${((freshMs * 1000) / verdicts).toFixed(0)} µs a verdict)`,
  );

  // One unit moved: the session is warm from the table before.
  const r = rng(5);
  let updateDiffers = 0;
  const updates: number[] = [];
  const reasked: number[] = [];
  for (let m = 0; m < opts.moves; m++) {
    const u = units[Math.floor(r() * n)]?.id as string;
    const after = buildTableState(
      movedUnit(scenario, u, (r() - 0.5) * 150, (r() - 0.5) * 150, (r() - 0.5) * 40),
    );
    session.full(state);
    const t0 = performance.now();
    const updated = session.update(after);
    updates.push(performance.now() - t0);
    reasked.push(session.lastAsked);
    // Checked against a fresh run of the moved table.
    const fresh = new AllPairs(bp, { kinds }).full(after);
    for (const kind of kinds)
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++)
          if (i !== j && !isDeepStrictEqual(updated.at(kind, i, j), fresh.at(kind, i, j))) updateDiffers++;
  }
  const updateMs = median(updates);
  const stats = session.memoStats;
  console.log(
    `one unit moved, update: median ${updateMs.toFixed(0)} ms (${updates.map((t) => t.toFixed(0)).join(', ')}); verdicts asked again ${reasked.join(', ')} of ${verdicts}; memo ${stats.size} entries`,
  );
  console.log(`answers differing between the update and a fresh run: ${updateDiffers}`);

  // One at a time, on a sample of subjects; checked against the all-pairs answers.
  const step = Math.max(1, Math.floor(n / opts.sample));
  const subjects = units.filter((_, i) => i % step === 0).slice(0, opts.sample);
  let differing = 0;
  let asked = 0;
  const t0 = performance.now();
  for (const a of subjects)
    for (const b of units) {
      if (a === b) continue;
      for (const kind of kinds) {
        const plain = askPair(bp, state, kind, a, b);
        asked++;
        if (!isDeepStrictEqual(plain, all.get(kind, a.id, b.id))) differing++;
      }
    }
  const sampleMs = performance.now() - t0;
  const oneAtATimeMs = (sampleMs * n) / subjects.length;
  console.log(
    `one at a time: ${asked} verdicts (${subjects.length} of ${n} subjects) in ${sampleMs.toFixed(0)} ms, ${((sampleMs * 1000) / asked).toFixed(0)} µs a verdict; whole table ≈ ${(oneAtATimeMs / 1000).toFixed(1)} s`,
  );
  console.log(`answers differing between all-pairs and one at a time: ${differing} of ${asked}`);
  console.log(
    `all pairs fresh ${freshMs.toFixed(0)} ms (target ≤ 50 ms), ×${(oneAtATimeMs / freshMs).toFixed(1)} faster than one at a time; one unit moved ${updateMs.toFixed(0)} ms (target ≤ 5 ms), ×${(oneAtATimeMs / updateMs).toFixed(1)}`,
  );
  const ref = (ms: number) => (ms / opts.referenceMs).toFixed(0);
  console.log(
    `ratio to reference: all pairs fresh ${ref(freshMs)}; one unit moved ${ref(updateMs)}; one at a time (whole table) ${ref(oneAtATimeMs)}`,
  );
}
