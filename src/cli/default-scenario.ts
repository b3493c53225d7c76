/**
 * The scenario `vedette serve` watches when none is given (relative to the folder vedette runs
 * from). `vedette print` reads its marker family too, so that markers printed with the defaults
 * are the ones `serve` looks for.
 */
export const DEFAULT_SCENARIO = 'scenarios/prestonpans-demo.json';
