/** Prestonpans 1745 battlegame: importing this module registers the ruleset. */
export { prestonpans } from './ruleset.ts';
export { ppContext, type PpContext, RULESET_ID as PRESTONPANS_ID } from './context.ts';
export { PP_OPTION_SPECS, type PpOptions } from './options.ts';
export * from './front.ts';
export * from './movement.ts';
export * from './charge.ts';
export * from './shooting.ts';
export * from './command.ts';
export * from './tables.ts';
