/**
 * A hash of every all-pairs answer, to tell a speed change that leaves every answer bit for bit
 * the same from one that does not: `npx tsx bench/rules-hash.ts` on two trees, compare the last
 * line. Every number by its 64 bits (−0, NaN and small integers against doubles alike), every
 * object's keys in order, undefined kept. Tables: the bench table (60 units, seed 7), 30 units
 * seeds 7 and 11, 40 units seeds 3 and 5, each a full run and two updates after a unit moved; and
 * sixteen random 20-unit Black Powder tables, a full run and one update each. The line before it
 * hashes the answers alone (kind, pair, yes / no / too close to call, lean): a change of what a
 * verdict says or checks, not of what it answers, leaves that one as it was.
 */
import { createHash, type Hash } from 'node:crypto';
import '../src/rules/index.ts';
import { AllPairs, type PairVerdicts } from '../src/rules/engine/all-pairs.ts';
import { getRuleset } from '../src/rules/engine/registry.ts';
import { buildTableState } from '../src/table/table-state.ts';
import type { Scenario } from '../src/table/scenario.ts';
import { randomScenario } from '../tests/rules/black-powder/random-table.ts';
import { benchScenario, movedUnit, rng } from './rules-scenario.ts';

const f64 = new Float64Array(1);
const bytes = new Uint8Array(f64.buffer);

/** Feeds one value into the hash, walking it (no printing of numbers: their bits). */
function feed(h: Hash, v: unknown): void {
  if (v === undefined) h.update('u');
  else if (v === null) h.update('n');
  else if (typeof v === 'number') {
    f64[0] = v;
    h.update('d');
    h.update(bytes);
  } else if (typeof v === 'string') h.update(`s${v.length}:${v}`);
  else if (typeof v === 'boolean') h.update(v ? 't' : 'f');
  else if (Array.isArray(v)) {
    h.update(`a${v.length}[`);
    for (let i = 0; i < v.length; i++) feed(h, v[i]);
    h.update(']');
  } else if (typeof v === 'object') {
    const keys = Object.keys(v);
    h.update(`o${keys.length}{`);
    for (const k of keys) {
      h.update(`k${k.length}:${k}`);
      feed(h, (v as Record<string, unknown>)[k]);
    }
    h.update('}');
  } else h.update(`?${typeof v}`);
}

const counts: Record<string, number> = {};
/** The answers alone (kind, pair, answer, lean): what a change of a verdict's words or checks must leave as it was. */
const answersOnly = createHash('sha256');
function feedAll(h: Hash, p: PairVerdicts): void {
  for (const kind of p.kinds)
    for (let i = 0; i < p.n; i++)
      for (let j = 0; j < p.n; j++) {
        if (i === j) continue;
        const a = p.at(kind, i, j);
        feed(h, a);
        const key = `${kind} ${a && 'verdict' in a ? a.verdict.answer : 'refused'}`;
        answersOnly.update(`${key} ${i} ${j} ${a && 'verdict' in a ? a.verdict.lean : ''};`);
        counts[key] = (counts[key] ?? 0) + 1;
      }
}

const bp = getRuleset('black-powder');
const total = createHash('sha256');

/** A full run and `moves` updates, each after one seeded unit moved. */
function run(label: string, scenario: Scenario, moves: number, seed: number): void {
  const h = createHash('sha256');
  const session = new AllPairs(bp);
  let state = buildTableState(scenario);
  feedAll(h, session.full(state));
  const r = rng(seed);
  const asked: number[] = [];
  for (let m = 0; m < moves; m++) {
    const u = state.units[Math.floor(r() * state.units.length)]?.id as string;
    scenario = movedUnit(scenario, u, (r() - 0.5) * 200, (r() - 0.5) * 200, (r() - 0.5) * 60);
    state = buildTableState(scenario);
    feedAll(h, session.update(state));
    asked.push(session.lastAsked);
  }
  const d = h.digest('hex');
  total.update(d);
  console.log(`${label}: ${d.slice(0, 16)} (asked again ${asked.join(', ')})`);
}

const t0 = performance.now();
run('bench 60 seed 7', benchScenario(60, 7), 2, 1);
run('bench 30 seed 7', benchScenario(30, 7), 2, 2);
run('bench 30 seed 11', benchScenario(30, 11), 2, 3);
run('bench 40 seed 3', benchScenario(40, 3), 2, 4);
run('bench 40 seed 5', benchScenario(40, 5), 2, 5);
for (let seed = 1; seed <= 16; seed++) run(`random 20 seed ${seed}`, randomScenario(seed, 20), 1, 100 + seed);
console.log(
  Object.entries(counts)
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join('; '),
);
console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
console.log(`answers alone (kind, pair, answer, lean): ${answersOnly.digest('hex')}`);
console.log(`all answers: ${total.digest('hex')}`);
