import { describe, expect, it } from 'vitest';
import type { Polygon } from '../../../src/geometry/polygon.ts';
import type { Vec2 } from '../../../src/geometry/vec.ts';
import { sightScreen } from '../../../src/geometry/visible-region.ts';
import { seenShare, seenShareQuantity } from '../../../src/rules/engine/sight-share.ts';

/**
 * "Some of it is seen" through a gap between hiders is as sure as the gap is wide. The truth here
 * is worked out by hand: the seen part is the target cut by the two sight lines that graze the
 * hiders' inner corners, and its width across the sight line is read off those lines.
 */

const rectangle = (x0: number, y0: number, x1: number, y1: number): Polygon => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];

/** Where the line from `eye` through `through` crosses the horizontal line y. */
const atY = (eye: Vec2, through: Vec2, y: number): Vec2 => {
  const t = (y - eye.y) / (through.y - eye.y);
  return { x: eye.x + t * (through.x - eye.x), y };
};

describe('seenShareQuantity: seen through a gap', () => {
  // A 60 × 10 mm target of two bases in contact, seen from far off to one side, two hiders in
  // front leaving a gap.
  const eye = { x: -150, y: -900 };
  const target = [rectangle(0, 0, 37, 10), rectangle(37, 0, 60, 10)];
  const left = rectangle(-40, -60, 20, -50);
  const right = rectangle(30, -60, 90, -50);
  const band = 6.35;
  const view = seenShare(
    {
      eye,
      eyeSigmaMm: 0.5,
      target,
      targetSigmaMm: 0.5,
      screens: [sightScreen('L', 'Left', left, 'solid'), sightScreen('R', 'Right', right, 'solid')],
      screenSigmaMm: () => 0.5,
    },
    () => band,
  );

  it('caps the move at the whole gap, not at the widest slab the sweep cut it into', () => {
    // The sight lines grazing the gap: past the left hider's far right corner (20, −60) and the
    // right hider's near left corner (30, −50) (the corners with the least and the most turn
    // toward the gap as seen from the eye).
    const a = [atY(eye, { x: 20, y: -60 }, 0), atY(eye, { x: 20, y: -60 }, 10)];
    const b = [atY(eye, { x: 30, y: -50 }, 0), atY(eye, { x: 30, y: -50 }, 10)];
    const corners = [...a, ...b];
    const across = view.across;
    const proj = corners.map((p) => p.x * across.x + p.y * across.y);
    const gapWidth = Math.max(...proj) - Math.min(...proj);
    expect(gapWidth).toBeGreaterThan(band);
    // The seen part is that quadrilateral.
    const seenArea = ((b[0]!.x - a[0]!.x + (b[1]!.x - a[1]!.x)) / 2) * 10;
    expect(view.region.share).toBeCloseTo(seenArea / 600, 9);
    // The sweep cuts it at every corner's x (the bases' seam among them): no single piece is as
    // wide as the band.
    const pieceWidths = view.region.polygons.map((p) => {
      const t = p.map((v) => v.x * across.x + v.y * across.y);
      return Math.max(...t) - Math.min(...t);
    });
    expect(Math.max(...pieceWidths)).toBeLessThan(band);
    const q = seenShareQuantity(view, 'moreThan', 0, band);
    // The target moved a band either way still shows part of the gap, so only the gap caps it.
    expect(q.moveMm).toBeCloseTo(gapWidth, 9);
    expect(q.moveMm).toBeGreaterThan(band);
  });
});

describe('seenShareQuantity: hidden where two units meet, the target standing in a building', () => {
  // A 40 × 20 mm target inside a building (a screen: what stands in it is seen), hidden from an eye
  // 1 m off by two units whose bearings overlap by a hair in front of it: the left one ends at
  // x = 0.3 (700 mm out), the right one begins at x = 0 (690 mm out). The building spans every
  // bearing, but it hides the target by depth, not by bearing: the units' seam still opens.
  const eye = { x: 0, y: -1000 };
  const target = [rectangle(-20, 0, 20, 20)];
  const building = sightScreen('house', 'the house', rectangle(-100, -5, 100, 40), 'screen');
  const unitsAt = (leftShift: number) => [
    sightScreen('L', 'Left', rectangle(-60 + leftShift, -300, 0.3 + leftShift, -290), 'solid'),
    sightScreen('R', 'Right', rectangle(0, -320, 60, -310), 'solid'),
  ];
  const band = 6.35;
  const viewWith = (screens: ReturnType<typeof unitsAt>) =>
    seenShare(
      {
        eye,
        eyeSigmaMm: 0.1,
        target,
        targetSigmaMm: 0.1,
        screens,
        screenSigmaMm: (s) => (s.id === 'house' ? 0 : 0.1),
      },
      () => band,
    );

  it('is too close to call: the left unit moving a millimetre shows a sliver of the target', () => {
    const view = viewWith([...unitsAt(0), building]);
    expect(view.region.share).toBe(0);
    // Brute force, outside the seam model: the exact view with the left unit moved 1 mm further
    // left shows part of the target (the house does not hide what stands in it).
    const moved = viewWith([...unitsAt(-1), building]);
    expect(moved.region.share).toBeGreaterThan(0);
    const q = seenShareQuantity(view, 'moreThan', 0, band);
    expect(q.moveMm).toBeLessThan(band);
    // The overlap of bearings, 0.3/700 rad, seen at the target ~1 m out: under half a millimetre.
    expect(q.moveMm).toBeLessThan(1);
  });
});

describe('seenShareQuantity: an eye a step inside a building', () => {
  // A building (a screen: it hides nothing from an eye inside it, what lies behind it from one
  // outside) with the eye 1 mm inside its near wall, and a target straight through it.
  const building = sightScreen('house', 'the house', rectangle(-100, 0, 100, 80), 'screen');
  const target = [rectangle(-20, 300, 20, 320)];
  const band = 6.35;
  const viewFrom = (eye: Vec2) =>
    seenShare(
      { eye, eyeSigmaMm: 0.5, target, targetSigmaMm: 0.5, screens: [building], screenSigmaMm: () => 0 },
      () => band,
    );

  it('is too close to call: a millimetre back and the building hides the target', () => {
    const view = viewFrom({ x: 0, y: 1 });
    expect(view.region.share).toBe(1);
    // Brute force: from 1 mm outside the wall the building hides the target whole.
    expect(viewFrom({ x: 0, y: -1 }).region.share).toBe(0);
    const q = seenShareQuantity(view, 'moreThan', 0, band);
    expect(q.moveMm).toBeCloseTo(1, 9);
  });

  it('stays firm with the eye well inside', () => {
    const view = viewFrom({ x: 0, y: 40 });
    expect(view.region.share).toBe(1);
    expect(seenShareQuantity(view, 'moreThan', 0, band).moveMm).toBeGreaterThan(band);
  });
});

describe('seenShare: the pose band of an eye standing in cover or in a wood', () => {
  const target = [rectangle(-20, 300, 20, 320)];

  it('cover covers its own inside wherever the eye stands: the eye adds nothing to the band', () => {
    // The target half inside a cover area the eye also stands in.
    const cover = sightScreen('c', 'the field', rectangle(-300, -50, 0, 400), 'area');
    const viewFrom = (eye: Vec2) =>
      seenShare(
        { eye, eyeSigmaMm: 2, target, targetSigmaMm: 0.5, screens: [cover], screenSigmaMm: () => 0 },
        () => 6.35,
      );
    const view = viewFrom({ x: -100, y: 0 });
    expect(view.region.share).toBeCloseTo(0.5, 9);
    // Brute force: the eye moved 3 mm any way covers the same share.
    for (const d of [
      { x: 3, y: 0 },
      { x: -3, y: 0 },
      { x: 0, y: 3 },
    ])
      expect(viewFrom({ x: -100 + d.x, y: d.y }).region.share).toBeCloseTo(0.5, 9);
    // The eye's own σ one for one at most (it was that σ times the target's distance over 1 mm:
    // 2 × 320 = 640 mm).
    expect(view.sigmaMm).toBeLessThanOrEqual(Math.hypot(0.5, 2) + 1e-9);
  });

  it('an eye inside a wood turns its shadow about points a depth away, not about itself', () => {
    // A wood 50 mm deep for sight; the eye 20 mm inside its left edge. Sight lines leaving by that
    // edge within 50 mm see out; the target straddles the edge of what they see.
    const wood = { ...sightScreen('w', 'the wood', rectangle(0, 0, 400, 200), 'wood'), depthMm: 50 };
    const viewFrom = (eye: Vec2, dx = 0) =>
      seenShare(
        {
          eye,
          eyeSigmaMm: 1,
          target: target.map((p) => p.map((q) => ({ x: q.x + dx, y: q.y }))),
          targetSigmaMm: 0,
          screens: [wood],
          screenSigmaMm: () => 0,
        },
        () => 6.35,
      );
    // Find where the target straddles that edge (share near a half) by moving it across.
    const eye = { x: 20, y: 100 };
    let lo = -400;
    let hi = 400;
    for (let i = 0; i < 40; i++) {
      const mid = (lo + hi) / 2;
      if (viewFrom(eye, mid).region.share > 0.5) lo = mid;
      else hi = mid;
    }
    const dx = lo;
    const share = (e: Vec2, x: number) => viewFrom(e, x).region.share;
    // Brute force lever: how far the seen edge moves at the target per mm the eye moves across.
    const perEyeMm = Math.abs(
      share({ x: eye.x + 0.5, y: eye.y }, dx) - share({ x: eye.x - 0.5, y: eye.y }, dx),
    );
    const perTargetMm = Math.abs(share(eye, dx + 0.5) - share(eye, dx - 0.5));
    expect(perTargetMm).toBeGreaterThan(0);
    const lever = perEyeMm / perTargetMm;
    const sigma = viewFrom(eye, dx).sigmaMm;
    // The band covers what the eye's σ (1 mm) moves at the target, without blowing it up to the
    // target's distance over a millimetre (≈ 320 mm, as when the eye was taken for the pivot).
    // (Read off the depth, the lever is an estimate: within a fifth of the brute force's here.)
    expect(sigma).toBeGreaterThanOrEqual(lever * 0.8);
    expect(sigma).toBeLessThan(Math.max(3 * lever, 20));
  });
});

describe('seenShareQuantity: half seen through a gap between two units', () => {
  // From (0, 0), units L and R (y 100–110) leave a gap of g mm; the target (60 mm wide, 500 mm
  // out) is seen through the window their shadows leave, 500/110 times as wide as the gap. Moving
  // the target slides the window along it and the share stays put; L moving widens it.
  const target = [rectangle(-30, 500, 30, 510)];
  const band = 6.35;
  const viewWith = (g: number, leftMoveMm = 0, ids: readonly [string, string] = ['L', 'R']) =>
    seenShare(
      {
        eye: { x: 0, y: 0 },
        eyeSigmaMm: 0.5,
        target,
        targetSigmaMm: 0.5,
        screens: [
          sightScreen(ids[0], ids[0], rectangle(-100 - leftMoveMm, 100, -g / 2 - leftMoveMm, 110), 'solid'),
          sightScreen(ids[1], ids[1], rectangle(g / 2, 100, 100, 110), 'solid'),
        ],
        screenSigmaMm: () => 0.5,
      },
      () => band,
    );

  it('is too close to call at 45% when a unit moving under a millimetre shows half', () => {
    const view = viewWith(5.9);
    expect(view.region.share).toBeGreaterThan(0.44);
    expect(view.region.share).toBeLessThan(0.46);
    // The target moved a band either way: the same share (the window stays on it).
    expect(view.shareAt(0, band)).toBeCloseTo(view.region.share * 100, 6);
    expect(view.shareAt(0, -band)).toBeCloseTo(view.region.share * 100, 6);
    // Brute force: L 0.8 mm further left, and half of the target is seen.
    expect(viewWith(5.9, 0.8).region.share).toBeGreaterThanOrEqual(0.5);
    const q = seenShareQuantity(view, 'atLeast', 50, band);
    expect(q.moveMm).toBeLessThan(band);
  });

  it('is too close to call the same when the two sides are bodies of one unit', () => {
    // A base standing off its unit's line (Black Powder apart table 18543): each base is placed on
    // its own, so the gap between the two bodies is as unsure as between two units.
    const view = viewWith(5.9, 0, ['X', 'X']);
    expect(view.region.hiddenBy.map((h) => h.id)).toEqual(['X', 'X']);
    expect(viewWith(5.9, 0.8, ['X', 'X']).region.share).toBeGreaterThanOrEqual(0.5);
    expect(seenShareQuantity(view, 'atLeast', 50, band).moveMm).toBeLessThan(band);
  });

  it('is firm at a sliver, which no unit moving a band opens to half', () => {
    // A unit moving a band widens the window by about five bands at the target: from a 0.01 mm
    // gap, to under half of the 60 mm.
    const view = viewWith(0.01);
    expect(view.region.share).toBeLessThan(0.01);
    expect(viewWith(0.01, band).region.share).toBeLessThan(0.5);
    expect(seenShareQuantity(view, 'atLeast', 50, band).moveMm).toBeGreaterThan(band);
  });

  it('was firm at 25% only while a unit could not move a band: it can', () => {
    // L a band further left opens the window to 44 mm of the 60 (brute force).
    expect(viewWith(3.3, band).region.share).toBeGreaterThan(0.5);
    expect(seenShareQuantity(viewWith(3.3), 'atLeast', 50, band).moveMm).toBeLessThan(band);
  });
});

describe('seenShare: the pose band of an eye a step from a building’s long side', () => {
  it('turns the shadow about the building’s corners, not about the eye', () => {
    // The eye 1 mm below a 100 mm square house's bottom side; its shadow's left edge runs from the
    // eye through the corner (0, 0), 50 mm off, nearly along the side. The target, 350 mm off to
    // the left, straddles that edge.
    const house = sightScreen('h', 'the house', rectangle(0, 0, 100, 100), 'screen');
    const viewFrom = (eye: Vec2, dy = 0) =>
      seenShare(
        {
          eye,
          eyeSigmaMm: 1,
          target: [rectangle(-320, -10 + dy, -280, 20 + dy)],
          targetSigmaMm: 0,
          screens: [house],
          screenSigmaMm: () => 0,
        },
        () => 6.35,
      );
    const eye = { x: 50, y: -1 };
    const view = viewFrom(eye);
    expect(view.region.share).toBeGreaterThan(0.2);
    expect(view.region.share).toBeLessThan(0.8);
    // Brute force lever: the seen share per mm the eye moves across, over that per mm the target does.
    const perEyeMm = Math.abs(
      viewFrom({ x: 50, y: -0.5 }).region.share - viewFrom({ x: 50, y: -1.5 }).region.share,
    );
    const perTargetMm = Math.abs(viewFrom(eye, 0.5).region.share - viewFrom(eye, -0.5).region.share);
    const lever = perEyeMm / perTargetMm;
    expect(lever).toBeGreaterThan(3);
    expect(view.sigmaMm).toBeGreaterThanOrEqual(lever * 0.8);
    // It was the eye's σ times the target's distance over 1 mm (≈ 350 mm).
    expect(view.sigmaMm).toBeLessThan(3 * lever);
  });
});

describe('seenShareQuantity: an eye at the corner of a unit that hides the target', () => {
  // X's corner (1, 1) is 1.4 mm from the eye; its shadow spans the bearings from its far corners
  // round to that one, 45° up, and hides T at 40° whole. Two millimetres up, the eye sees round
  // the corner (T is 26 mm inside the shadow's edge: moving T a band finds nothing).
  const X = sightScreen('X', 'X', rectangle(1, -100, 100, 1), 'solid');
  const T = [rectangle(220, 185, 240, 200)];
  const band = 6.35;
  const viewFrom = (eye: Vec2) =>
    seenShare(
      { eye, eyeSigmaMm: 0.5, target: T, targetSigmaMm: 0.5, screens: [X], screenSigmaMm: () => 0.5 },
      () => band,
    );

  it('is too close to call: a step round the corner and the target is in sight', () => {
    const view = viewFrom({ x: 0, y: 0 });
    expect(view.region.share).toBe(0);
    expect(view.shareAt(0, band)).toBe(0);
    expect(view.shareAt(0, -band)).toBe(0);
    // Brute force: from 2 mm up the whole target is seen.
    expect(viewFrom({ x: 0, y: 2 }).region.share).toBe(1);
    expect(seenShareQuantity(view, 'moreThan', 0, band).moveMm).toBeLessThan(2);
  });

  it('is firm with the corner well off', () => {
    // (X here a wall, which stays where it is drawn: only the eye's step is in question.)
    const far = sightScreen('X', 'X', rectangle(30, -100, 130, 30), 'solid');
    const view = seenShare(
      {
        eye: { x: 0, y: 0 },
        eyeSigmaMm: 0.5,
        target: T,
        targetSigmaMm: 0.5,
        screens: [far],
        screenSigmaMm: () => 0,
      },
      () => band,
    );
    expect(view.region.share).toBe(0);
    expect(seenShareQuantity(view, 'moreThan', 0, band).moveMm).toBeGreaterThan(band);
  });
});

describe('seenShareQuantity: an eye in a wood that sees out past its edge', () => {
  // A wood 50 mm deep for sight; the eye d mm inside its left edge; the target straight out to the
  // left. Sight runs d mm through the wood: seen whole while d < 50, hidden whole beyond. Moving
  // the target a band across hardly lengthens that run; the eye stepping deeper ends it.
  const wood = { ...sightScreen('w', 'the wood', rectangle(0, 0, 400, 200), 'wood'), depthMm: 50 };
  const T = [rectangle(-300, 90, -260, 110)];
  const band = 6.35;
  const viewFrom = (d: number) =>
    seenShare(
      {
        eye: { x: d, y: 100 },
        eyeSigmaMm: 0.5,
        target: T,
        targetSigmaMm: 0.5,
        screens: [wood],
        screenSigmaMm: () => 0,
      },
      () => band,
    );

  it('is too close to call 2 mm short of the depth: a step deeper and the target is hidden', () => {
    const view = viewFrom(48);
    expect(view.region.share).toBe(1);
    // Brute force: from 3 mm deeper the wood hides the target whole; the target moved a band
    // either way across is still seen whole.
    expect(viewFrom(51).region.share).toBe(0);
    expect(view.shareAt(0, band)).toBe(100);
    expect(view.shareAt(0, -band)).toBe(100);
    const q = seenShareQuantity(view, 'moreThan', 0, band);
    expect(q.moveMm).toBeGreaterThan(1.9);
    expect(q.moveMm).toBeLessThan(3);
  });

  it('is firm with the eye well short of the depth', () => {
    const view = viewFrom(20);
    expect(view.region.share).toBe(1);
    // Brute force: the eye a band deeper still sees the target whole.
    expect(viewFrom(20 + band).region.share).toBe(1);
    expect(seenShareQuantity(view, 'moreThan', 0, band).moveMm).toBeGreaterThan(band);
  });
});

describe('seenShareQuantity: half seen of a target whose bases stand either side of a gap', () => {
  // From (0, 0), two walls (terrain: they do not move) leave a gap whose shadow edges run about
  // x = ±45.5 mm at the target, 500 mm out. The target's two bases stand across those edges, about
  // 19.3 mm of each seen. Moving the target whole slides one base out of a shadow as the other slides
  // in; one base moving alone (each is placed on its own) changes the share.
  const band = 6.35;
  const wall = (id: string, x0: number, x1: number) =>
    sightScreen(id, id, rectangle(x0, 100, x1, 110), 'solid');
  const viewOf = (left: Polygon, right: Polygon) =>
    seenShare(
      {
        eye: { x: 0, y: 0 },
        eyeSigmaMm: 0.5,
        target: [left, right],
        targetSigmaMm: 0.5,
        screens: [wall('L', -100, -10), wall('R', 10, 100)],
        screenSigmaMm: () => 0,
      },
      () => band,
    );
  const pair = (inner: number, leftShift = 0) =>
    [
      rectangle(-inner - 40 + leftShift, 500, -inner + leftShift, 510),
      rectangle(inner, 500, inner + 40, 510),
    ] as const;

  it('is too close to call at 48% when one base moving a millimetre and a half shows half', () => {
    const view = viewOf(...pair(26.6));
    expect(view.region.share).toBeGreaterThan(0.48);
    expect(view.region.share).toBeLessThan(0.485);
    // Brute force: the target moved a band either way across stays under half; the left base
    // 1.6 mm to the right alone shows half.
    expect(view.shareAt(0, band)).toBeLessThan(50);
    expect(view.shareAt(0, -band)).toBeLessThan(50);
    expect(viewOf(...pair(26.6, 1.6)).region.share).toBeGreaterThanOrEqual(0.5);
    expect(seenShareQuantity(view, 'atLeast', 50, band).moveMm).toBeLessThan(1.6);
  });

  it('is firm at 40%, which no base moving a band shows half of', () => {
    const view = viewOf(...pair(30));
    expect(view.region.share).toBeLessThan(0.41);
    expect(viewOf(...pair(30, band)).region.share).toBeLessThan(0.5);
    expect(seenShareQuantity(view, 'atLeast', 50, band).moveMm).toBeGreaterThan(band);
  });
});

describe('seenShareQuantity: a unit a lever from the target, its sigma 0 (the floor)', () => {
  // From (0, 0), H (y 100–110) ends at x = 5: its shadow's edge runs through x = 50 at the target's
  // near side, 1,000 mm out, ten times as far as H is. Seen: the target's part right of it. H
  // moving a millimetre right swings that edge 10 mm; the target moving a band does not hide it.
  const band = 6.35;
  const viewOf = (x1: number, hShift = 0, moves = true) =>
    seenShare(
      {
        eye: { x: 0, y: 0 },
        eyeSigmaMm: 0,
        target: [rectangle(30, 1000, x1, 1010)],
        targetSigmaMm: 0,
        screens: [sightScreen('H', 'H', rectangle(-100, 100, 5 + hShift, 110), 'solid')],
        screenSigmaMm: () => 0,
        screenMoves: () => moves,
      },
      () => band,
    );

  it('is too close to call when the unit moving a millimetre hides what is seen', () => {
    const view = viewOf(60);
    // Seen: x from 50 (near side) or 50.5 (far side) to 60.
    expect(view.region.share).toBeCloseTo(9.75 / 30, 9);
    // Brute force: the target a band either way is still partly seen; H 1.05 mm right hides it.
    expect(view.shareAt(0, band)).toBeGreaterThan(0);
    expect(view.shareAt(0, -band)).toBeGreaterThan(0);
    expect(viewOf(60, 1.05).region.share).toBe(0);
    // H's corner (5 + m, 100) casts the edge through x = 10 (5 + m): past 60 at m = 1.
    const q = seenShareQuantity(view, 'moreThan', 0, band);
    expect(q.moveMm).toBeGreaterThanOrEqual(1);
    expect(q.moveMm).toBeLessThanOrEqual(1 + band / 64 + 1e-9);
  });

  it('is firm when the unit would have to move more than the band', () => {
    // Seen out to x = 150: H must move 10 mm to hide it.
    expect(viewOf(150, band).region.share).toBeGreaterThan(0);
    expect(seenShareQuantity(viewOf(150), 'moreThan', 0, band).moveMm).toBeGreaterThan(band);
  });

  it('is firm when the hider is terrain, which stays where it is drawn', () => {
    expect(seenShareQuantity(viewOf(60, 0, false), 'moreThan', 0, band).moveMm).toBeGreaterThan(band);
  });
});
