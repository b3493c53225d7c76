import { describe, expect, it } from 'vitest';
import type { UnitView } from '../../../src/server/protocol.ts';
import { measuredFromPhrase } from '../../../web/src/core/answer.ts';
import {
  gapBetween,
  MAX_LABEL_GAP_HEIGHTS,
  overlaps,
  placeLabel,
  type LabelRect,
} from '../../../web/src/core/label-layout.ts';
import { formatDistance, formatLength } from '../../../web/src/core/lengths.ts';
import { offers } from '../../../web/src/core/questions.ts';
import {
  choiceLabel,
  humanise,
  inWords,
  optionLabel,
  settingsUsed,
  zoneOf,
} from '../../../web/src/core/rulesets.ts';
import { movedSince, posesOf } from '../../../web/src/core/stale.ts';

/** The live page's headless pieces: lengths, questions offered, stale answers, words, label layout. */

const unit = (id: string, x: number, headingDeg = 0, sigmaMm = 0.3): UnitView => ({
  id,
  name: id.toUpperCase(),
  side: 's',
  colour: '#888888',
  bases: [0, 1].map((i) => ({
    markerId: id.charCodeAt(0) * 10 + i,
    x: x + 40 * i,
    y: 100,
    headingDeg,
    widthMm: 40,
    depthMm: 20,
    topMm: 3,
    seen: true,
    sigmaMm,
  })),
});

describe('lengths in the ruleset unit', () => {
  it('converts inches to centimetres and rounds the uncertainty up', () => {
    expect(formatDistance(10, 0.004)).toBe('10.00 in ± 0.01');
    expect(formatDistance(10, 0.004, 'cm')).toBe('25.40 cm ± 0.02');
    expect(formatLength(30, 'cm')).toBe('30 cm');
    expect(formatLength(17.54, 'in')).toBe('17.5 in');
  });
});

describe('questions offered', () => {
  const commander = { name: 'Cope', side: 'gov', type: 'commander' };
  const lees = { name: "Lee's", side: 'gov', type: 'infantry' };
  const camerons = { name: 'Camerons', side: 'jac', type: 'infantry' };
  const all = ['shoot', 'charge', 'see', 'command'];
  const offered = (a?: typeof lees, b?: typeof lees, answers = all) =>
    offers(answers, 'BP', a, b)
      .filter((o) => o.offered)
      .map((o) => o.id);
  it('orders only from a commander to his own side; shooting and charging only at the enemy', () => {
    expect(offered(commander, lees)).toEqual(['see', 'command']);
    expect(offered(lees, camerons)).toEqual(['shoot', 'charge', 'see']);
    expect(offered(lees, lees)).toEqual(['see']);
    expect(offered(commander, camerons)).toEqual(['see']);
    expect(offered(lees, camerons, ['distance'])).toEqual([]);
    expect(offers(all, 'BP', lees, camerons).find((o) => o.id === 'command')?.why).toBe(
      "Lee's is not a commander",
    );
  });
});

describe('stale answers', () => {
  it('a base that moves more than its uncertainty or turns more than a degree makes the answer stale', () => {
    const then = posesOf([unit('a', 0), unit('b', 500)], ['a', 'b']);
    expect(movedSince(then, [unit('a', 2), unit('b', 500)], ['a', 'b'])).toEqual([]);
    expect(movedSince(then, [unit('a', 5), unit('b', 500)], ['a', 'b'])).toEqual([970, 971]);
    expect(movedSince(then, [unit('a', 0), unit('b', 500, 2)], ['a', 'b'])).toEqual([980, 981]);
    // A wobbly base (large sigma) needs a bigger move.
    const wobbly = posesOf([unit('a', 0, 0, 3)], ['a']);
    expect(movedSince(wobbly, [unit('a', 5, 0, 3)], ['a'])).toEqual([]);
    expect(movedSince(then, [unit('b', 500)], ['a', 'b'])).toEqual([970, 971]);
  });
});

describe("the rules' words", () => {
  const o = {
    name: 'rangeFrom',
    default: 'leaderBase',
    choices: ['leaderBase', 'footprint', 'buildingsUnitsWoods'],
    summary: 'Where shooting and charge distances start.',
    meanings: {
      leaderBase: "from the edge of the leader's base",
      footprint: 'when enfiladeCorridor = minimumDepth',
    },
  };
  it('labels options by their sentence and choices by their meaning, never by an identifier', () => {
    expect(optionLabel(o)).toBe('Where shooting and charge distances start.');
    expect(choiceLabel(o, 'leaderBase')).toBe("from the edge of the leader's base");
    expect(choiceLabel(o, 'footprint')).toBe('when enfilade corridor is minimum depth');
    expect(choiceLabel(o, 'buildingsUnitsWoods')).toBe('buildings, units, woods');
    expect(humanise('enfiladeMinDepthIn')).toBe('enfilade min depth (in)');
    expect(inWords('to enfiladeMinDepthIn')).toBe('to enfilade min depth (in)');
    const info = { id: 'bp', name: 'BP', unit: 'in', answers: [], options: [o] };
    expect(settingsUsed(info, { rangeFrom: 'footprint', sightBlockers: 'x' })).toEqual([
      {
        name: 'rangeFrom',
        label: 'Where shooting and charge distances start.',
        value: 'when enfilade corridor is minimum depth',
        changed: true,
      },
      { name: 'sightBlockers', label: 'sight blockers', value: 'x', changed: false },
    ]);
  });
  it("says where a distance was measured from, never 'as the rules measure it'", () => {
    const leader = { x: 10, y: 10 };
    expect(measuredFromPhrase({ options: { rangeFrom: 'leaderBase' }, question: 'shoot' })).toBe(
      "from the leader's base",
    );
    expect(
      measuredFromPhrase({ options: {}, question: 'shoot', between: [leader, { x: 0, y: 0 }] }, { leader }),
    ).toBe('from the front centre');
    expect(
      measuredFromPhrase(
        {
          options: {},
          question: 'shoot',
          between: [
            { x: 50, y: 0 },
            { x: 0, y: 0 },
          ],
        },
        { leader },
      ),
    ).toBe('edge to edge, whole unit');
  });
  it('gives each ruleset its own zone in its own unit', () => {
    expect(zoneOf('oer-the-sea')).toEqual({ value: 30, unit: 'cm', purpose: 'initiative' });
    expect(zoneOf('black-powder')?.unit).toBe('in');
    expect(zoneOf('montrose')).toBeNull();
  });
});

describe('label layout', () => {
  it('places labels next to what they name, never overlapping, or not at all', () => {
    // A crowded column of units, 60 px apart, each 80 × 12 px: labels 19 px high.
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let trial = 0; trial < 50; trial++) {
      const placed: LabelRect[] = [];
      const results: Array<{ rect: LabelRect | null; around: LabelRect }> = [];
      for (let i = 0; i < 12; i++) {
        const around = { x: rnd() * 300, y: rnd() * 200, w: 30 + rnd() * 60, h: 8 + rnd() * 10 };
        const rect = placeLabel({ x: around.x + around.w / 2, y: around.y }, 60 + rnd() * 60, 19, placed, {
          width: 390,
          height: 240,
          around,
        });
        results.push({ rect, around });
      }
      const drawn = results.filter((r) => r.rect);
      for (const [i, a] of drawn.entries()) {
        expect(gapBetween(a.rect!, a.around)).toBeLessThanOrEqual(MAX_LABEL_GAP_HEIGHTS * 19 + 1e-9);
        for (const b of drawn.slice(i + 1)) expect(overlaps(a.rect!, b.rect!)).toBe(false);
      }
      expect(drawn.length).toBeGreaterThan(6);
    }
  });
});
