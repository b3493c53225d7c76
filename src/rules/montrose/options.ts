import type { OptionSpecs } from '../engine/options.ts';

/** Game facts the board does not show, the optional rules, and readings of the text (rules-spec §4.6). */
export interface MonOptions extends Record<string, string | number | boolean> {
  defeatedBurghs: string;
  turn: number;
  forceMarch: boolean;
  leaderBonus189a: boolean;
  highlandersIntoEngland182: boolean;
  leadersExemptInWinter188: boolean;
  landCost: number;
  mountainCost: number;
  leaderMovement: number;
  snapToleranceIn: number;
  routeBandIn: number;
  distanceFrom: 'miles' | 'km';
}

export const MON_OPTION_SPECS: OptionSpecs<MonOptions> = {
  defeatedBurghs: {
    default: '',
    summary:
      'Burghs the Royalist has defeated, comma-separated (names or ids): Inveraray and Inverlochy open the Southern Lowlands.',
  },
  turn: {
    default: 1,
    summary: 'Game turn, 1 (Aug/Sep 1644) to 11 (Apr/May 1646); turns 3 and 9 (Dec/Jan) are winter.',
  },
  forceMarch: {
    default: false,
    summary:
      'A Force March card is in play: units may exceed their allowance and then roll on the Disband Table at −2.',
  },
  leaderBonus189a: {
    default: false,
    summary:
      'Optional 18.9a: combat units that start and stay stacked with a leader get +1 movement (+2 with Force March).',
  },
  highlandersIntoEngland182: {
    default: false,
    summary: 'Optional 18.2: Highlanders and the Irish may enter England.',
  },
  leadersExemptInWinter188: {
    default: false,
    summary: 'Optional 18.8: leaders need not end winter turns in a named space.',
  },
  landCost: {
    ambiguity: 'A-MON-1',
    default: 1,
    summary:
      'Movement points per land route (the Terrain Effects Chart is on the map; every example costs 1).',
  },
  mountainCost: {
    ambiguity: 'A-MON-1',
    default: 2,
    summary:
      'Movement points per mountain route (inferred from the second example: 2 mountain + 1 land = 5).',
  },
  leaderMovement: {
    ambiguity: 'A-MON-10',
    default: 6,
    summary: "Leaders' movement allowance when the scenario gives none (not stated in the rules).",
  },
  snapToleranceIn: {
    ambiguity: 'A-MON-4',
    default: 0.15,
    summary: 'A counter centre this many map inches outside a space circle still counts as in it.',
  },
  routeBandIn: {
    ambiguity: 'A-MON-4',
    default: 0.3,
    summary:
      'A counter on no circle but within this many map inches of a route line sits between two spaces: unclear.',
  },
  distanceFrom: {
    ambiguity: 'A-MON-11',
    default: 'miles',
    choices: ['miles', 'km'],
    summary:
      'Which stated scale converts map inches to ground distance (145 mi and 230 km differ by about 1.5%).',
    meanings: { miles: '145 miles per 12 in; kilometres converted from miles', km: '230 km per 12 in' },
  },
};
