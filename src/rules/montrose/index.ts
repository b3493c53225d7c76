/** Campaigns of Montrose (board): importing this module registers the ruleset. */
export { montrose, montroseRuleset, whereVerdict, stackVerdict } from './ruleset.ts';
export { MON_OPTION_SPECS, type MonOptions } from './options.ts';
export * from './state.ts';
export * from './movement.ts';
export * from './retreat.ts';
export * from './campaign.ts';
export * from './tables.ts';
