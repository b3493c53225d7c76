import { describe, expect, it } from 'vitest';
import { convexHull, roundedOffset } from '../../../web/src/core/shape-geometry.ts';
import { verdictCard } from '../../../web/src/referee/verdict-card.ts';
import { verdict } from '../../../src/rules/engine/verdict.ts';
import { measureLine } from '../../../src/rules/engine/words.ts';

describe('table overlays (headless)', () => {
  it('sweeps a reach of r around a base: every point is r from the base', () => {
    const base = [
      { x: 0, y: 0 },
      { x: 40, y: 0 },
      { x: 40, y: 20 },
      { x: 0, y: 20 },
    ];
    const ring = roundedOffset(base, 100);
    for (const p of ring) {
      const dx = Math.max(0 - p.x, 0, p.x - 40);
      const dy = Math.max(0 - p.y, 0, p.y - 20);
      expect(Math.hypot(dx, dy)).toBeCloseTo(100, 6);
    }
    expect(convexHull([...base, { x: 20, y: 10 }])).toHaveLength(4);
  });

  it('makes borderline look different from yes and no, in words and icon', () => {
    const v = (answer: 'yes' | 'no' | 'borderline') =>
      verdictCard(
        verdict({
          ruleset: 'x',
          question: 'shoot',
          asked: 'can A shoot B?',
          answer,
          value: 18.1,
          limit: 18,
          margin: 0.1,
          unit: 'in',
        }),
      );
    const cards = [v('yes'), v('no'), v('borderline')];
    expect(new Set(cards.map((c) => c.icon)).size).toBe(3);
    expect(cards[2]!.headline).toMatch(/Too close to call/);
    expect(cards[0]!.numbers.map((n) => n.key)).toEqual(['value', 'limit', 'margin']);
    // Named for what they are, in players' words.
    expect(cards[0]!.numbers.map((n) => `${n.label} ${n.value}`)).toEqual([
      'distance, edge to edge, whole unit 18.10 in',
      'range 18.00 in',
      'to spare 0.10 in',
    ]);
    // The number line is the command line's, word for word.
    const yes = verdict({
      ruleset: 'x',
      question: 'shoot',
      asked: 'can A shoot B?',
      answer: 'yes',
      value: 18.1,
      limit: 18,
      margin: 0.1,
      unit: 'in',
    });
    expect(cards[0]!.measure).toBe(measureLine(yes));
    expect(cards[0]!.measure).toMatch(/0\.10 in to spare/);
    expect(cards[1]!.numbers.find((n) => n.key === 'margin')?.label).toBe('short');
  });
});
