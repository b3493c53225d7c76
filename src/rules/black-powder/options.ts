import type { OptionSpecs } from '../engine/options.ts';

/** Every reading of Black Powder's text that positions could decide more than one way. */
export interface BpOptions extends Record<string, string | number | boolean> {
  quarterReading: 'bisector' | 'diagonal';
  rangeFrom: 'leaderBase' | 'leaderPoint' | 'footprint';
  rangeToFrontQuarterPart: boolean;
  halfMeasure: 'area' | 'frontage';
  gapReading: 'closestApproach' | 'perpendicular';
  commandDistance: 'moreThan12' | 'eachFull12';
  brigadeCohesion: 'chain' | 'pairwise';
  supportPoint: 'leader' | 'anyPart' | 'majority';
  proximityCheck: 'wholeFootprint' | 'leaderOnly';
  evadeFromRear: 'front' | 'forbidden';
  enfiladeCorridor: 'edges' | 'minimumDepth';
  enfiladeMinDepthIn: number;
  traverseTrack: 'leader' | 'footprint';
  artilleryArcHalfRule: boolean;
  overheadNeedsHeight: boolean;
  howitzerCloseAtSix: boolean;
  woodsSightDepthIn: number;
  chargeSightAt: 'declaration' | 'finalMove';
  chargeFaceFrom: 'turnStart' | 'current';
  commanderHead: 'baseCentre';
  deployedArtilleryFootprint: 'gunOnly' | 'wholeUnit';
  mixedSpacing: 'advanced' | 'formations';
  leftTable: 'anyOverhang' | 'centrePast';
  moveProration: 'perInch';
  contactToleranceIn: number;
  samplesPerSide: number;
}

export const BP_OPTION_SPECS: OptionSpecs<BpOptions> = {
  quarterReading: {
    ambiguity: 'A-BP-1',
    default: 'bisector',
    choices: ['bisector', 'diagonal'],
    summary: 'Where the rays dividing front, flanks and rear leave the corners of the unit.',
    meanings: {
      bisector: 'each ray halves the corner angle, 45° to both edges (the usual reading)',
      diagonal: "each ray continues the unit's own diagonal; a long line then has a front of about 160°",
    },
  },
  rangeFrom: {
    ambiguity: 'A-BP-2',
    default: 'leaderBase',
    choices: ['leaderBase', 'leaderPoint', 'footprint'],
    summary: 'Where shooting and charge distances start.',
    meanings: {
      leaderBase: "from the edge of the leader's base (the base holding the centre of the front rank)",
      leaderPoint: 'from the centre of the front edge itself',
      footprint: "from the nearest part of the whole unit's footprint",
    },
  },
  rangeToFrontQuarterPart: {
    ambiguity: 'A-BP-3',
    default: false,
    summary: "Whether range is measured only to the part of the target inside the shooter's front quarter.",
  },
  halfMeasure: {
    ambiguity: 'A-BP-4',
    default: 'area',
    choices: ['area', 'frontage'],
    summary:
      '"Half the target" (in the front quarter, visible, in cover) judged by footprint area or by frontage length.',
    meanings: {
      area: 'share of footprint area',
      frontage:
        'share of the front edge length (in the front quarter; seen or in cover: the share of the frontage across which some of it is seen, or none)',
    },
  },
  gapReading: {
    ambiguity: 'A-BP-5',
    default: 'closestApproach',
    choices: ['closestApproach', 'perpendicular'],
    summary: 'How the width of a gap a line of fire passes through is measured.',
    meanings: {
      closestApproach: 'edge to edge between the two flanking obstructions at their nearest',
      perpendicular: 'clear width square to the line of fire',
    },
  },
  commandDistance: {
    ambiguity: 'A-BP-6',
    default: 'moreThan12',
    choices: ['moreThan12', 'eachFull12'],
    summary: 'Command penalty at exact multiples of 12".',
    meanings: {
      moreThan12: 'no penalty up to and including 12"; beyond, −1 per full 12" (12.0" → 0, 24.0" → −2)',
      eachFull12: '−1 for each full 12" (12.0" → −1)',
    },
  },
  brigadeCohesion: {
    ambiguity: 'A-BP-7',
    default: 'chain',
    choices: ['chain', 'pairwise'],
    summary: 'What "no unit more than 6" apart" means for a brigade order.',
    meanings: {
      chain: 'the units form one connected cluster with links of 6" or less',
      pairwise: 'every pair within 6"',
    },
  },
  supportPoint: {
    ambiguity: 'A-BP-8',
    default: 'leader',
    choices: ['leader', 'anyPart', 'majority'],
    summary: "Which part of a supporting unit must lie in the engaged unit's flank or rear quarter.",
    meanings: {
      leader: "the supporter's leader point",
      anyPart: 'any part of it',
      majority: 'more than half its footprint',
    },
  },
  proximityCheck: {
    ambiguity: 'A-BP-9',
    default: 'wholeFootprint',
    choices: ['wholeFootprint', 'leaderOnly'],
    summary: 'Within 12" of the enemy, what must stay inside the front/rear quarters of the start position.',
    meanings: {
      wholeFootprint: 'every base corner along the whole move',
      leaderOnly: "the leader's path only",
    },
  },
  evadeFromRear: {
    ambiguity: 'A-BP-10',
    default: 'front',
    choices: ['front', 'forbidden'],
    summary: 'Where a unit charged in the rear evades.',
    meanings: { front: 'by symmetry, one move toward its front', forbidden: 'it may not evade' },
  },
  enfiladeCorridor: {
    ambiguity: 'A-BP-11',
    default: 'edges',
    choices: ['edges', 'minimumDepth'],
    summary: "Width of the enfilade corridor beside a target's flank.",
    meanings: {
      edges: "exactly the target's front and rear edges extended",
      minimumDepth: 'widened symmetrically to enfiladeMinDepthIn for very shallow targets',
    },
  },
  enfiladeMinDepthIn: {
    ambiguity: 'A-BP-11',
    default: 2,
    summary: 'Minimum corridor width, inches, when enfiladeCorridor = minimumDepth.',
  },
  traverseTrack: {
    ambiguity: 'A-BP-12',
    default: 'leader',
    choices: ['leader', 'footprint'],
    summary: "What counts as crossing the shooter's front for traversing fire.",
    meanings: {
      leader: "the charger's leader track",
      footprint: "the charger's whole frontage swept along the track",
    },
  },
  artilleryArcHalfRule: {
    ambiguity: 'A-BP-13',
    default: true,
    summary:
      "A target less than half inside a gun's 45° arc is not a clear target (by analogy with the front quarter).",
  },
  overheadNeedsHeight: {
    ambiguity: 'A-BP-14',
    default: true,
    summary: 'Cannon overhead fire needs the gun or the target on a hill (from the terrain layer).',
  },
  howitzerCloseAtSix: {
    ambiguity: 'A-BP-15',
    default: true,
    summary: 'A howitzer target at exactly 6" is legal and at close range.',
  },
  woodsSightDepthIn: {
    ambiguity: 'A-BP-16',
    default: 1,
    summary:
      'How far (inches) a sight line may run inside a wood before the wood blocks it (seeing into and out of a wood edge).',
  },
  chargeSightAt: {
    ambiguity: 'A-BP-18',
    default: 'declaration',
    choices: ['declaration', 'finalMove'],
    summary:
      "When the charger's leader must see the target (this tool judges the current position in both cases).",
  },
  chargeFaceFrom: {
    ambiguity: 'A-BP-19',
    default: 'turnStart',
    choices: ['turnStart', 'current'],
    summary: "Which position of the charger's leader decides the face charged.",
    meanings: {
      turnStart:
        "the leader's position at the start of the turn (from the pose history or the scenario), else the current one",
      current: 'the current position',
    },
  },
  commanderHead: {
    ambiguity: 'A-BP-20',
    default: 'baseCentre',
    choices: ['baseCentre'],
    summary: "A commander's head is taken to be his base centre (a camera from above sees no head).",
  },
  deployedArtilleryFootprint: {
    ambiguity: 'A-BP-21',
    default: 'gunOnly',
    choices: ['gunOnly', 'wholeUnit'],
    summary: 'What of a deployed battery is measured to, targeted and given quarters.',
    meanings: {
      gunOnly: 'the gun model only; crew and limber ignored',
      wholeUnit: 'every base of the battery',
    },
  },
  mixedSpacing: {
    ambiguity: 'A-BP-27',
    default: 'advanced',
    choices: ['advanced', 'formations'],
    summary: 'Mixed-order screen spacing.',
    meanings: {
      advanced: 'skirmishers within 2" of each other or the body, and no more than 6" ahead of it',
      formations: 'the formed body no more than 2" behind its skirmishers',
    },
  },
  leftTable: {
    ambiguity: 'A-BP-25',
    default: 'anyOverhang',
    choices: ['anyOverhang', 'centrePast'],
    summary: 'When a unit has left the table.',
    meanings: { anyOverhang: 'any base overhangs the edge', centrePast: "a base's centre is past the edge" },
  },
  moveProration: {
    ambiguity: 'A-BP-29',
    default: 'perInch',
    choices: ['perInch'],
    summary: 'A move across several kinds of ground costs each inch at the rate of the ground it is on.',
  },
  contactToleranceIn: {
    ambiguity: 'A-BP-22',
    default: 0.25,
    summary:
      'How close (inches) a base must come to a face to count as touching it (second chargers, adjacent units, engaged faces); the rules call half an inch "not material".',
  },
  samplesPerSide: {
    default: 4,
    summary: 'Sampling density (per base side) for visible and covered fractions.',
  },
};
