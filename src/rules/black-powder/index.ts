/** Black Powder: importing this module registers the ruleset. */
export { blackPowder } from './ruleset.ts';
export { bpContext, type BpContext } from './context.ts';
export { BP_OPTION_SPECS, type BpOptions } from './options.ts';
export * from './shooting.ts';
export * from './charge.ts';
export * from './contacts.ts';
export * from './pair-table.ts';
export * from './proximity.ts';
export * from './command.ts';
export * from './support.ts';
export * from './retire.ts';
export * from './movement.ts';
export * from './specials.ts';
export * from './traverse.ts';
export * from './enfilade.ts';
export * from './artillery.ts';
export * from './quarters.ts';
export * from './tables.ts';
