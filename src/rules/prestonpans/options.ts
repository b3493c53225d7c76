import type { OptionSpecs } from '../engine/options.ts';

/** Every reading of the Prestonpans text that positions could decide more than one way (rules-spec §1.6). */
export interface PpOptions extends Record<string, string | number | boolean> {
  movementTable: 'body' | 'sheet';
  inFront: 'quarter' | 'corridor' | 'cone' | 'halfPlane';
  quarterReading: 'bisector' | 'diagonal';
  rangeBands: 'appended' | 'sheetOnly' | 'closeAlways';
  closeHitOn: number;
  measureFrom: 'footprint' | 'frontCentre';
  fleeDirection: 'centroids' | 'nearestPoints';
  pursuitCatch: 'dice' | 'gap';
  generalIs: 'commanderInChief' | 'anyCommander';
  cannonBlockedBy: 'anyUnit' | 'friendsOnly';
  approachCheck: 'endOnly' | 'wholePath';
  faceFrom: 'leader' | 'centroid';
  attachWithinIn: number;
}

export const PP_OPTION_SPECS: OptionSpecs<PpOptions> = {
  movementTable: {
    ambiguity: 'A-PP1',
    default: 'body',
    choices: ['body', 'sheet'],
    summary: 'Which movement table is used: the rules body or the reference sheet.',
    meanings: {
      body: 'charge = twice the normal move (infantry 12", cavalry and commanders 24"), as the body text states outright',
      sheet:
        'charge = the normal move (infantry 6", cavalry and commanders 12"), as the reference sheet prints',
    },
  },
  inFront: {
    ambiguity: 'A-PP2',
    default: 'quarter',
    choices: ['quarter', 'corridor', 'cone', 'halfPlane'],
    summary: 'What "in front" of a shooter means (the sheet itself says it is undefined).',
    meanings: {
      quarter:
        "any part of the target in the shooter's front quarter, bounded by 45° rays from its front corners (gives flanks and rear too)",
      corridor: "any part of the target in the strip straight ahead of the shooter's frontage",
      cone: 'any part of the target within 45° either side of the facing, seen from the front centre',
      halfPlane: "any part of the target beyond the line of the shooter's front edge",
    },
  },
  quarterReading: {
    ambiguity: 'A-PP8',
    default: 'bisector',
    choices: ['bisector', 'diagonal'],
    summary:
      'Where the rays dividing front, flanks and rear leave the corners (for "in front" and for flank and rear charges).',
    meanings: { bisector: '45° to both edges at each corner', diagonal: "along the unit's own diagonals" },
  },
  rangeBands: {
    ambiguity: 'A-PP3',
    default: 'appended',
    choices: ['appended', 'sheetOnly', 'closeAlways'],
    summary: 'Which musket range bands apply.',
    meanings: {
      appended:
        'the appended table: long ≤ 12" (6), short ≤ 6" (5–6); close ≤ 3" only when standing and shooting at chargers',
      sheetOnly: 'the sheet alone: one band, up to 12", hits on 6',
      closeAlways: 'the appended table with the 3" close band in ordinary shooting as well',
    },
  },
  closeHitOn: {
    ambiguity: 'A-PP4',
    default: 4,
    summary:
      'Score needed at close range when standing and shooting: 4 (the table and the worked turn) or 5 (the fire-discipline paragraph).',
  },
  measureFrom: {
    ambiguity: 'A-PP6',
    default: 'footprint',
    choices: ['footprint', 'frontCentre'],
    summary: 'Where ranges and charge distances start.',
    meanings: {
      footprint:
        'nearest base edge of the whole unit (the sheet lets every base fire if any base is in range)',
      frontCentre: "the centre of the unit's front edge",
    },
  },
  fleeDirection: {
    ambiguity: 'A-PP7',
    default: 'centroids',
    choices: ['centroids', 'nearestPoints'],
    summary: 'What "directly away" means for a flee.',
    meanings: {
      centroids: "along the line from the enemy's centre to the fleeing unit's centre",
      nearestPoints: 'along the line joining the two nearest points of the units',
    },
  },
  pursuitCatch: {
    ambiguity: 'A-PP7',
    default: 'dice',
    choices: ['dice', 'gap'],
    summary: 'When a pursuit catches a fleeing unit.',
    meanings: {
      dice: 'the pursuit roll is greater than the flee roll (as written)',
      gap: 'the pursuit roll reaches the gap actually left after the flee',
    },
  },
  generalIs: {
    ambiguity: 'A-PP10',
    default: 'commanderInChief',
    choices: ['commanderInChief', 'anyCommander'],
    summary: 'Who counts as "the General" for the +2 within 6".',
    meanings: {
      commanderInChief: 'only the commander-in-chief (general: true)',
      anyCommander: 'any commander of the same side',
    },
  },
  cannonBlockedBy: {
    ambiguity: 'A-PP11',
    default: 'anyUnit',
    choices: ['anyUnit', 'friendsOnly'],
    summary: 'Which units a cannon may not fire over.',
    meanings: { anyUnit: 'any unit, friend or foe, on the line of fire', friendsOnly: 'friendly units only' },
  },
  approachCheck: {
    ambiguity: 'A-PP15',
    default: 'endOnly',
    choices: ['endOnly', 'wholePath'],
    summary: 'Whether the 1" approach limit applies at the end of a move or along its whole path.',
    meanings: {
      endOnly: 'the final position only',
      wholePath: 'every point of a straight move from the start',
    },
  },
  faceFrom: {
    ambiguity: 'A-PP8',
    default: 'leader',
    choices: ['leader', 'centroid'],
    summary:
      'Which point of a charger decides the face it strikes (its position at the start of the turn, when known).',
    meanings: { leader: "the centre of the charger's front edge", centroid: "the charger's centre" },
  },
  attachWithinIn: {
    default: 1,
    summary:
      "A commander whose base centre is within this many inches of a unit's bases counts as with the unit.",
  },
};
