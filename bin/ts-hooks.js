// Module loader hooks (registered by bin/ts.js) that run the project's TypeScript: each .ts file
// is compiled by esbuild when it is first imported, types stripped, nothing bundled or renamed,
// with an inline source map for stack traces.
//
// Why not tsx, which did this before: tsx fixes esbuild's `keepNames` on, so every named function
// and closure gets its name defined again (Object.defineProperty) each time it is created, and the
// rules engine creates them by the million: all-pairs verdicts ran about 7 % faster without it
// (docs/rules-engine.md). Compiling file by file renames nothing, so keepNames bought nothing.
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

/** The project's compiler options (tsconfig.json), for what changes emitted code: class fields, imports kept. */
let tsconfigRaw = {};

/** @param {{ compilerOptions: object }} data */
export function initialize(data) {
  tsconfigRaw = { compilerOptions: data.compilerOptions };
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/'))
    return nextLoad(url, context);
  const file = fileURLToPath(url);
  const { code } = await transform(await readFile(file, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    sourcefile: file,
    tsconfigRaw,
  });
  return { format: 'module', source: code, shortCircuit: true };
}
