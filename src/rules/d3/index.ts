/** D3 Jacobite Rebellion: importing this module registers the ruleset. */
export { d3 } from './ruleset.ts';
export { d3Context, troopOf as d3Troop, type D3Context, RULESET_ID as D3_ID } from './context.ts';
export { D3_OPTION_SPECS, type D3Options } from './options.ts';
export * from './fire.ts';
export * from './charge.ts';
export * from './command.ts';
export * from './deployment.ts';
export * from './movement.ts';
export * from './tables.ts';
