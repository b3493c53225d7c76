// Runs the project's TypeScript without a build step: `node --import ./bin/ts.js file.ts`. The
// launcher, the benchmarks and the worker threads all load it (ts-hooks.js says why not tsx).
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import process from 'node:process';
import { URL } from 'node:url';

const { compilerOptions } = JSON.parse(readFileSync(new URL('../tsconfig.json', import.meta.url), 'utf8'));
register('./ts-hooks.js', import.meta.url, { data: { compilerOptions } });
// Errors point into the .ts files (the hooks write inline source maps).
process.setSourceMapsEnabled(true);
