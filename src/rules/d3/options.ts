import type { OptionSpecs } from '../engine/options.ts';

/** Readings of the D3 text that positions could decide more than one way (rules-spec §2.6). */
export interface D3Options extends Record<string, string | number | boolean> {
  arc: 'plusMinus45' | 'total45';
  arcApex: 'frontCentre' | 'frontCorners';
  arcPart: 'anyPart' | 'nearestPoint' | 'wholeUnit';
  quarterReading: 'bisector' | 'diagonal';
  artilleryFrom: 'frontCentre' | 'footprint';
  coverRule: 'half' | 'anyPart';
  difficultGround: 'perInch' | 'wholeMove';
  chargePivot: 'innerCorner' | 'centre';
  retreatDirection: 'straightBack' | 'awayFromTarget';
  columnRetreat: 'lineMove' | 'columnMove';
  sightBlockers: 'buildings' | 'buildingsAndUnits' | 'buildingsUnitsWoods';
  deployMeasure: 'frontEdge' | 'rearEdge';
  lineGapIn: number;
  mortarMinimum: 'eighteenAllowed' | 'beyondEighteen';
  attachWithinIn: number;
}

export const D3_OPTION_SPECS: OptionSpecs<D3Options> = {
  arc: {
    ambiguity: 'A-D3-1',
    default: 'plusMinus45',
    choices: ['plusMinus45', 'total45'],
    summary: '"Within 45 degrees of the frontal facing": 45° either side, or 45° in all.',
    meanings: {
      plusMinus45: 'a 90° field: 45° either side of the facing',
      total45: 'a 45° field: 22.5° either side',
    },
  },
  arcApex: {
    ambiguity: 'A-D3-1',
    default: 'frontCentre',
    choices: ['frontCentre', 'frontCorners'],
    summary: 'Where the field of fire starts.',
    meanings: {
      frontCentre: 'one apex at the front centre (where musket range is measured from)',
      frontCorners:
        "rays from the two front corners, like Black Powder's front quarter (the frontage widens it)",
    },
  },
  arcPart: {
    ambiguity: 'A-D3-1',
    default: 'anyPart',
    choices: ['anyPart', 'nearestPoint', 'wholeUnit'],
    summary: 'How much of the target must be within the field.',
    meanings: { anyPart: 'any part', nearestPoint: 'the point nearest the apex', wholeUnit: 'all of it' },
  },
  quarterReading: {
    ambiguity: 'A-D3-2',
    default: 'bisector',
    choices: ['bisector', 'diagonal'],
    summary:
      'Flank and rear (for the +2 hits) are not defined: quarters from 45° corner rays, or the diagonals.',
  },
  artilleryFrom: {
    ambiguity: 'A-D3-3',
    default: 'frontCentre',
    choices: ['frontCentre', 'footprint'],
    summary: 'Where artillery and mortar ranges start.',
    meanings: {
      frontCentre: 'the front centre (the muzzle), as muskets',
      footprint: 'the nearest part of the gun',
    },
  },
  coverRule: {
    ambiguity: 'A-D3-4',
    default: 'half',
    choices: ['half', 'anyPart'],
    summary: 'When a target counts as in cover, woods or buildings for the −2 on the artillery die.',
    meanings: { half: 'at least half its footprint is inside cover terrain', anyPart: 'any part of it is' },
  },
  difficultGround: {
    ambiguity: 'A-D3-5',
    default: 'perInch',
    choices: ['perInch', 'wholeMove'],
    summary: 'Halved movement when only part of a move is in bog or difficult ground.',
    meanings: {
      perInch: 'each inch inside costs two',
      wholeMove: 'the whole allowance is halved if any of the move is inside',
    },
  },
  chargePivot: {
    ambiguity: 'A-D3-13',
    default: 'innerCorner',
    choices: ['innerCorner', 'centre'],
    summary: 'Where a charger pivots for its one turn of up to 45°.',
    meanings: { innerCorner: 'the front corner on the side it turns toward', centre: 'its own centre' },
  },
  retreatDirection: {
    ambiguity: 'A-D3-8',
    default: 'straightBack',
    choices: ['straightBack', 'awayFromTarget'],
    summary: 'Which way an attacker that failed to rout its target retreats half a move.',
    meanings: {
      straightBack: 'straight back from its own facing',
      awayFromTarget: 'directly away from the target',
    },
  },
  columnRetreat: {
    ambiguity: 'A-D3-8',
    default: 'lineMove',
    choices: ['lineMove', 'columnMove'],
    summary: 'Half of which move infantry in column retreats.',
    meanings: { lineMove: 'half of 6" (3")', columnMove: 'half of 9" (4.5")' },
  },
  sightBlockers: {
    ambiguity: 'A-D3-9',
    default: 'buildings',
    choices: ['buildings', 'buildingsAndUnits', 'buildingsUnitsWoods'],
    summary: 'What blocks a line of sight (the text names only buildings).',
  },
  deployMeasure: {
    ambiguity: 'A-D3-10',
    default: 'frontEdge',
    choices: ['frontEdge', 'rearEdge'],
    summary: 'Which part of a unit must be within its line\'s 15"/9" of the base edge.',
    meanings: {
      frontEdge: 'its most forward point (the whole unit within the limit)',
      rearEdge: 'its rearmost point',
    },
  },
  lineGapIn: {
    ambiguity: 'A-D3-10',
    default: 2,
    summary:
      'When lines are not given, units are split into first and second line at the largest step (at least this many inches) in their depth from the base edge.',
  },
  mortarMinimum: {
    ambiguity: 'A-D3-14',
    default: 'eighteenAllowed',
    choices: ['eighteenAllowed', 'beyondEighteen'],
    summary: 'Mortars "cannot target units less than 18"": is a target at exactly 18" allowed?',
  },
  attachWithinIn: {
    default: 1,
    summary:
      'A commander whose base centre is within this many inches of a friendly unit counts as having joined it.',
  },
};
