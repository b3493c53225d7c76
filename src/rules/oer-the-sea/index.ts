/** O'er the Sea v3.20: importing this module registers the ruleset. */
export { oerTheSea } from './ruleset.ts';
export { otsContext, OTS_POLICY, type OtsContext, RULESET_ID as OER_THE_SEA_ID } from './context.ts';
export { OTS_OPTION_SPECS, type OtsOptions } from './options.ts';
export * from './fire.ts';
export * from './charge.ts';
export * from './movement.ts';
export * from './initiative.ts';
export * from './tables.ts';
