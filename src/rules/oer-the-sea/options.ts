import type { OptionSpecs } from '../engine/options.ts';

/** Readings of O'er the Sea that positions could decide more than one way (rules-spec §3.6). */
export interface OtsOptions extends Record<string, string | number | boolean> {
  ahead: 'corridor' | 'centreRay' | 'standCorridors';
  targetChoice: 'nearestAhead' | 'nearestVisible';
  artilleryArc: 'allRound' | 'ahead';
  mortarMinimum: 'inclusive' | 'exclusive';
  driveBackFrom: 'centroids' | 'nearestPoints' | 'straightBack';
  sightBlockers: 'unitsAndTerrain' | 'terrainOnly' | 'nothing';
  evadeFrom: 'nearestEnemy' | 'attacker';
  evadeAngleToleranceDeg: number;
}

export const OTS_OPTION_SPECS: OptionSpecs<OtsOptions> = {
  ahead: {
    ambiguity: 'A-OTS-1',
    default: 'corridor',
    choices: ['corridor', 'centreRay', 'standCorridors'],
    summary: '"All fire is directly ahead, there is no arc": what counts as ahead.',
    meanings: {
      corridor: "any part of the target in the strip straight ahead of the unit's frontage",
      centreRay: 'the line straight ahead from the centre of the front edge meets the target',
      standCorridors:
        'any part of the target straight ahead of one of the front stands (differs from corridor when stands are turned or spaced)',
    },
  },
  targetChoice: {
    ambiguity: 'A-OTS-2',
    default: 'nearestAhead',
    choices: ['nearestAhead', 'nearestVisible'],
    summary: '"Must fire at the nearest enemy unit in line of sight", with fire only straight ahead.',
    meanings: {
      nearestAhead: 'the nearest visible enemy among those directly ahead',
      nearestVisible: 'the nearest visible enemy anywhere; if it is not ahead the unit cannot fire',
    },
  },
  artilleryArc: {
    ambiguity: 'A-OTS-3',
    default: 'allRound',
    choices: ['allRound', 'ahead'],
    summary: 'Field artillery has no stated arc.',
    meanings: { allRound: 'any enemy it can see', ahead: 'only enemies directly ahead, like small arms' },
  },
  mortarMinimum: {
    ambiguity: 'A-OTS-6',
    default: 'inclusive',
    choices: ['inclusive', 'exclusive'],
    summary: 'Mortar bands start at 21 / 31 cm: is exactly 21 / 31 allowed?',
  },
  driveBackFrom: {
    ambiguity: 'A-OTS-9',
    default: 'centroids',
    choices: ['centroids', 'nearestPoints', 'straightBack'],
    summary: 'Which way "directly away from the firing unit" points.',
    meanings: {
      centroids: "along the line from the firer's centre to the target's centre",
      nearestPoints: 'along the line joining the nearest points of the two units',
      straightBack: "straight back from the target's own facing",
    },
  },
  sightBlockers: {
    ambiguity: 'A-OTS-11',
    default: 'unitsAndTerrain',
    choices: ['unitsAndTerrain', 'terrainOnly', 'nothing'],
    summary: 'What blocks sight (the rules never say).',
    meanings: {
      unitsAndTerrain: 'other units and sight-blocking terrain (woods, buildings)',
      terrainOnly: 'sight-blocking terrain only',
      nothing: 'nothing: every unit sees every other',
    },
  },
  evadeFrom: {
    ambiguity: 'A-OTS-13',
    default: 'nearestEnemy',
    choices: ['nearestEnemy', 'attacker'],
    summary: 'Whom an evading unit moves directly away from.',
    meanings: {
      nearestEnemy: 'the nearest enemy unit (the rule as written)',
      attacker: 'the unit it is evading',
    },
  },
  evadeAngleToleranceDeg: {
    ambiguity: 'A-OTS-13',
    default: 15,
    summary: 'How far (degrees) an evade may stray from "directly away" and still count.',
  },
};
