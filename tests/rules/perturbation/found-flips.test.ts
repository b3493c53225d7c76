import { describe, expect, it } from 'vitest';
import { rng } from '../../../bench/rules-scenario.ts';
import { getRuleset, parseQuestion } from '../../../src/rules/index.ts';
import { EXACT_POLICY, type ThresholdPolicy } from '../../../src/rules/engine/threshold.ts';
import type { Verdict } from '../../../src/rules/engine/verdict.ts';
import { perturbedPoses, reportedPoses, tableOf } from './perturb.ts';
import { randomApartTable, randomTable, RECIPES } from './random-tables.ts';
import { flatten } from './verdict-tree.ts';

/**
 * Firm verdicts the perturbation property found flipping when run on twenty to eighty times its
 * random tables (scratch runs of tables CI does not reach), kept as cases: on the table as reported
 * the check is now too close to call, and on the same perturbed tables the property drew, bases
 * moved within their reported sigma, it leans the other way at least once, so it had to be.
 * Each kind is also worked by hand in edge-flips.test.ts or tests/rules/d3/charge-run.test.ts.
 */
const CASES: ReadonlyArray<{
  ruleset: string;
  table: number;
  /** A table drawn as real bases stand (randomApartTable), not a plain one. */
  apart?: true;
  question: string;
  check: string;
  why: string;
}> = [
  {
    ruleset: 'black-powder',
    table: 924,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'the other base’s reading within the band of one move',
  },
  {
    ruleset: 'black-powder',
    table: 1826,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'the other base’s line crosses an obstacle',
  },
  {
    ruleset: 'black-powder',
    table: 2008,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'the leader at the edge of another unit’s base',
  },
  {
    ruleset: 'black-powder',
    table: 2313,
    question: "can 'A' shoot 'B'?",
    check: 'shoot',
    why: 'another part seen as near is reached clear of the gap',
  },
  {
    ruleset: 'black-powder',
    table: 3902,
    question: "can 'A' shoot 'B'?",
    check: 'longRange',
    why: 'the range to a part seen whose nearest point a shadow may sweep over',
  },
  {
    ruleset: 'black-powder',
    table: 3915,
    question: "can 'A' shoot 'B'?",
    check: 'gap',
    why: 'the far end of a near edge square to the line of fire is as near, and clear of the gap',
  },
  {
    ruleset: 'black-powder',
    table: 6170,
    question: "can 'A' shoot 'B'?",
    check: 'beyondHalfRange',
    why: 'the part seen past a wood, whose depth boundary jumps as the gun moves (a grazing chord)',
  },
  {
    ruleset: 'black-powder',
    table: 8789,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'the leader where two bases meet, and from the other base B close to standing in a building',
  },
  {
    ruleset: 'black-powder',
    table: 223,
    apart: true,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'the eye inside the wood that hides the target: where sight runs out moves with the eye',
  },
  {
    ruleset: 'black-powder',
    table: 4901,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'range',
    why: 'the nearest part seen where a shadow crosses the target at a slant: a step across and it is 2" further',
  },
  {
    ruleset: 'black-powder',
    table: 5629,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'coverHalf',
    why: 'half in cover, the eye in the wood: its band had read 22 in and the probes stepped past the crossing',
  },
  {
    ruleset: 'black-powder',
    table: 5945,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'visibleHalf',
    why: 'half seen through a gap: the share rises past the half and falls back within the band',
  },
  {
    ruleset: 'black-powder',
    table: 6905,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'gapFrontage',
    why: 'a gap flanked by a hill the line of fire all but touches: on the line, the gap is another',
  },
  {
    ruleset: 'black-powder',
    table: 7393,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'gap',
    why: 'a flank\'s corner a millimetre past the end of the line of fire: a step longer and it is shot through a 5.4" gap',
  },
  {
    ruleset: 'prestonpans',
    table: 11690,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'overUnits',
    why: "another base's corner 1.9 mm further is as near the gun, and the line of fire to it passes a unit by a hair",
  },
  {
    ruleset: 'black-powder',
    table: 11406,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'priority',
    why: 'which target is closer, from the other base the leader may stand on, is itself within the band',
  },
  {
    ruleset: 'black-powder',
    table: 14108,
    apart: true,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'another point of the target 0.15 in further is as near, and the line to it crosses an obstacle',
  },
  {
    ruleset: 'black-powder',
    table: 18929,
    apart: true,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'a gun in a wood sees out past its edge by a few millimetres short of the depth: a step deeper and it sees nothing',
  },
  {
    ruleset: 'black-powder',
    table: 18543,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'visibleHalf',
    why: '44% seen through the gap between a unit’s line and a base standing off it: either moving opens it to half',
  },
  {
    ruleset: 'black-powder',
    table: 10285,
    question: "can 'A' shoot 'B'?",
    check: 'visibleHalf',
    why: '48% seen of a target whose bases stand apart: one base moving alone shows half, the target moving whole does not',
  },
  {
    ruleset: 'black-powder',
    table: 12411,
    question: "can 'A' shoot 'B'?",
    check: 'longRange',
    why: '1% of the target seen past a unit near the gun: the unit moving 2 mm slides the part seen along the target, and the range across 24"',
  },
  {
    ruleset: 'black-powder',
    table: 15089,
    question: "can 'A' shoot 'B'?",
    check: 'gapFrontage',
    why: 'the line of fire cuts a friend’s corner by 0.97 mm, a block; 1.5 mm aside it flanks a 1.0" gap, not the 5.1" beyond',
  },
  {
    ruleset: 'black-powder',
    table: 45562,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'gap',
    why: 'a gap 6.05" wide against 6", beyond the search, read as no gap at all',
  },
  {
    ruleset: 'black-powder',
    table: 56909,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'gap',
    why: 'a gap just over 6" wide against 6", beyond the search, read as no gap at all',
  },
  {
    ruleset: 'black-powder',
    table: 17887,
    question: "can 'A' shoot 'B'?",
    check: 'closeRange',
    why: 'a corner seen 1.7" off slips behind the hider before the base 6.0" off, both within a quarter band’s step that hides the target whole',
  },
  {
    ruleset: 'black-powder',
    table: 1007,
    apart: true,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'hidden where a unit meets what a wood hides: the unit moving opens a gap',
  },
  {
    ruleset: 'black-powder',
    table: 2185,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'priority',
    why: 'a closer target whose sight is too close to call (nothing of it seen, so no range)',
  },
  {
    ruleset: 'black-powder',
    table: 2192,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'range',
    why: 'the nearest part seen only through a gap narrower than the band',
  },
  {
    ruleset: 'black-powder',
    table: 2480,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'visible',
    why: 'seen only by firing overhead, and whether the gun may is too close to call',
  },
  {
    ruleset: 'black-powder',
    table: 3797,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'priority',
    why: 'which target is closer turns round from the other base the leader may stand on',
  },
  {
    ruleset: 'black-powder',
    table: 7242,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'hidden whole by one unit, which meets another just beside the target',
  },
  {
    ruleset: 'd3',
    table: 220,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'a run that passes a unit by a hair',
  },
  {
    ruleset: 'd3',
    table: 243,
    apart: true,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'no line, the target a hair outside the path at the full turn',
  },
  {
    ruleset: 'd3',
    table: 22293,
    apart: true,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'no line: the turn stopped at 3.2° by a friend the sweep only grazes; 0.14 mm of it and the full turn is free',
  },
  {
    ruleset: 'd3',
    table: 23263,
    apart: true,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'the full turn free by a hair: a friend the sweep only just misses, a hair closer, stops it at 5°',
  },
  {
    ruleset: 'd3',
    table: 8224,
    question: "is 'A' within 12 in of 'B'?",
    check: 'distance',
    why: 'the nearest base (± 0.9 mm) shares a corner with one placed ± 2.9 mm, as near',
  },
  {
    ruleset: 'oer-the-sea',
    table: 28309,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'hidden by a unit whose two bases stand 5.0 mm apart against a seam of 5.46 mm: a crack opens',
  },
  {
    ruleset: 'oer-the-sea',
    table: 18714,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'hidden by a friend whose two bases stand 5.0 mm apart against a seam of 5.14 mm: a crack opens',
  },
  {
    ruleset: 'oer-the-sea',
    table: 7159,
    question: "does 'A' see 'X0'?",
    check: 'see',
    why: 'a crack 0.4 mm from opening in a friend just ahead, which misses the target unless the friend also shifts',
  },
  {
    ruleset: 'd3',
    table: 1350,
    apart: true,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'the eye a hair inside a building: a step out and the building hides the target',
  },
  {
    ruleset: 'd3',
    table: 735,
    apart: true,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'a line found, the target only just in the path between turns a wood stops',
  },
  {
    ruleset: 'd3',
    table: 4507,
    apart: true,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'at the full turn the path meets the target on a slant: a step across and the run is 0.5" shorter',
  },
  {
    ruleset: 'd3',
    table: 896,
    question: "can 'A' charge 'B'?",
    check: 'reach',
    why: 'the target only just inside the run at the full turn',
  },
  {
    ruleset: 'oer-the-sea',
    table: 72,
    apart: true,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'hidden where two units meet, the target standing in a wood and a building that span the seam',
  },
  {
    ruleset: 'oer-the-sea',
    table: 796,
    apart: true,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'the leader a hair inside a wood: a step out and the wood hides the target',
  },
  {
    ruleset: 'oer-the-sea',
    table: 381,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'hidden by a building and a unit that meet by a hair',
  },
  {
    ruleset: 'black-powder',
    table: 70451,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'visibleHalf',
    why: 'the leader a hair off a hill: 46 % seen from across its edge, and a unit there a lever from the target',
  },
  {
    ruleset: 'black-powder',
    table: 71729,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'closeRange',
    why: 'a sliver seen past a wood at 5.7": the target 1.6 mm further off shows another at 10"',
  },
  {
    ruleset: 'black-powder',
    table: 78582,
    apart: true,
    question: "does 'A' see 'B'?",
    check: 'see',
    why: 'hidden where a wood’s depth shadow meets a building’s: a step of the gun opens a gap',
  },
  {
    ruleset: 'black-powder',
    table: 83531,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'shoot',
    why: 'a 2.0" gap on the line of fire, and none on the line to the part seen as a hider moves',
  },
  {
    ruleset: 'black-powder',
    table: 64632,
    apart: true,
    question: "can 'A' shoot 'B'?",
    check: 'gap',
    why: 'the line to the part the leader’s other base ranges to passes the same gap, and 0.6 mm shorter none',
  },
];

const PERTURBATIONS = 6;

/**
 * Random table `table` of a ruleset's recipe as the property draws it: as reported, then the same
 * perturbed tables (the same seeds), and the policy it is asked under.
 */
function drawn(rulesetId: string, table: number, apart = false) {
  const ruleset = getRuleset(rulesetId);
  const t = (apart ? randomApartTable : randomTable)(RECIPES[rulesetId]!, table + 1);
  const reported = reportedPoses(t.scenario, t.sigmas);
  const r = rng(1000 + table);
  const policy: ThresholdPolicy = table % 2 === 0 ? { floor: 0, sigmas: 2 } : ruleset.defaultPolicy;
  return {
    ruleset,
    asReported: tableOf(t.scenario, reported),
    perturbed: Array.from({ length: PERTURBATIONS }, () => tableOf(t.scenario, perturbedPoses(reported, r))),
    policy,
  };
}

/** The first verdict of the tree (the answer or a check) asking `question`. */
const checkOf = (v: Verdict, question: string): Verdict | undefined =>
  [...flatten(v).entries()].find(([k]) => k.slice(k.lastIndexOf('/') + 1).startsWith(`${question}|`))?.[1];

describe('firm flips found at twenty to eighty times the perturbation tables, now too close to call', () => {
  for (const c of CASES)
    it(`${c.ruleset} ${c.apart ? 'apart ' : ''}table ${c.table}, ${c.question} (${c.check}): ${c.why}`, () => {
      const { ruleset, asReported, perturbed, policy } = drawn(c.ruleset, c.table, c.apart);
      const before = checkOf(ruleset.ask(asReported, parseQuestion(c.question), {}, policy), c.check);
      expect(before?.answer).toBe('borderline');
      const leans = perturbed.map(
        (p) => checkOf(ruleset.ask(p, parseQuestion(c.question), {}, EXACT_POLICY), c.check)?.lean,
      );
      expect(leans.some((l) => l !== undefined && l !== before?.lean)).toBe(true);
    });
});

describe('support by majority with exactly half of a skirmish screen either side of a ray', () => {
  // Tables 1226 and 2029: F's four skirmish bases stand two in A's left quarter and two in its
  // right. Half is not more than half; the perturbed tables had said "yes" when the clipped areas
  // rounded a hair above one half.
  for (const table of [1226, 2029])
    it(`table ${table}: not in a flank or rear quarter, on the table and every perturbed one`, () => {
      const { ruleset, asReported, perturbed } = drawn('black-powder', table);
      const tables = [asReported, ...perturbed];
      const quarters = tables.map(
        (st) =>
          checkOf(
            ruleset.ask(
              st,
              parseQuestion("does 'F' support 'A'?"),
              { supportPoint: 'majority' },
              EXACT_POLICY,
            ),
            'supportQuarter',
          )?.lean,
      );
      expect(quarters).toEqual(tables.map(() => 'no'));
    });
});

describe('D3 charge with a neighbour reported a hair into the charger (tables 1859, 1916)', () => {
  // On a perturbed table a unit touching the charger's flank overlapped it by a hair and stopped
  // its turns both ways, so no line was left. It stops only the turn into it: the reach leans the
  // same on the table and on every perturbed one.
  for (const table of [1859, 1916])
    it(`table ${table}: the reach leans the same on every perturbed table`, () => {
      const { ruleset, asReported, perturbed } = drawn('d3', table);
      const tables = [asReported, ...perturbed];
      const leans = tables.map(
        (st) =>
          checkOf(ruleset.ask(st, parseQuestion("can 'A' charge 'B'?"), {}, EXACT_POLICY), 'reach')?.lean,
      );
      expect(leans).toEqual(tables.map(() => leans[0]));
    });
});

describe('support of a square (tables 8123, 8335, 9282, 9538)', () => {
  // A friend touching a square from behind was "in its rear quarter" by the geometric quarters,
  // and "not in a flank or rear quarter" on perturbed tables where its leader crossed a ray. A
  // square's every face is a front: no flank or rear quarter to stand in, on any table.
  for (const table of [8123, 8335, 9282, 9538])
    it(`table ${table}: F in no flank or rear quarter of A, on the table and every perturbed one`, () => {
      const { ruleset, asReported, perturbed, policy } = drawn('black-powder', table);
      const verdicts = [
        ruleset.ask(asReported, parseQuestion("does 'F' support 'A'?"), {}, policy),
        ...perturbed.map((st) => ruleset.ask(st, parseQuestion("does 'F' support 'A'?"), {}, EXACT_POLICY)),
      ];
      expect(asReported.units.find((u) => u.id === 'A')?.formationInUse).toBe('square');
      for (const v of verdicts) {
        const quarter = checkOf(v, 'supportQuarter');
        expect(quarter?.answer).toBe('no');
        expect(quarter?.reasons[0]).toBe('A is in square: every face is a front');
      }
    });
});

describe("O'er the Sea sight with a sliver of floating-point dust seen (plain table 9048)", () => {
  // On two perturbed tables the booleans left 2.6·10⁻⁹ % of B outside the wood's shadow, and B
  // read "in sight" (any part seen). A share below DUST_SHARE is none: B is out of sight on the
  // table and on every perturbed one.
  it('B is out of sight of A on the table and every perturbed one', () => {
    const { ruleset, asReported, perturbed, policy } = drawn('oer-the-sea', 9048);
    const verdicts = [
      ruleset.ask(asReported, parseQuestion("does 'A' see 'B'?"), {}, policy),
      ...perturbed.map((st) => ruleset.ask(st, parseQuestion("does 'A' see 'B'?"), {}, EXACT_POLICY)),
    ];
    expect(verdicts.map((v) => v.lean)).toEqual(verdicts.map(() => 'no'));
    expect(verdicts.map((v) => v.value)).toEqual(verdicts.map(() => 0));
  });
});
