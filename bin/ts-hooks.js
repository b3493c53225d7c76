// Module loader hooks (registered by bin/ts.js) that run the project's TypeScript: each .ts file
// is compiled by esbuild when it is first imported, types stripped, nothing bundled or renamed,
// with an inline source map for stack traces. Compiled files are kept in a cache in the system's
// temporary folder, keyed by the file's path and text and the compiler's settings, so the next
// process (the CLI, each worker thread) starts without compiling again.
//
// Why not tsx, which did this before: tsx fixes esbuild's `keepNames` on, so every named function
// and closure gets its name defined again (Object.defineProperty) each time it is created, and the
// rules engine creates them by the million: all-pairs verdicts ran about 7 % faster without it
// (docs/rules-engine.md). Compiling file by file renames nothing, so keepNames bought nothing.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { transform, version } from 'esbuild';

const CACHE = join(tmpdir(), 'vedette-ts-cache');

/** The project's compiler options (tsconfig.json), for what changes emitted code: class fields, imports kept. */
let tsconfigRaw = {};
/** Everything besides a file that changes what it compiles to. */
let settingsKey = '';

/** @param {{ compilerOptions: object }} data */
export function initialize(data) {
  tsconfigRaw = { compilerOptions: data.compilerOptions };
  settingsKey = JSON.stringify([version, process.versions.node, tsconfigRaw]);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/'))
    return nextLoad(url, context);
  const file = fileURLToPath(url);
  const source = await readFile(file, 'utf8');
  const key = createHash('sha256').update(settingsKey).update('\0').update(file).update('\0').update(source);
  const cached = join(CACHE, `${key.digest('hex')}.js`);
  const hit = await readFile(cached, 'utf8').catch(() => undefined);
  if (hit !== undefined) return { format: 'module', source: hit, shortCircuit: true };
  const { code } = await transform(source, {
    loader: 'ts',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    sourcefile: file,
    tsconfigRaw,
  });
  // Written whole under a name of its own, then renamed: a reader never sees half a file. A cache
  // that cannot be written (a read-only disk) only means compiling again next time.
  const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await mkdir(CACHE, { recursive: true })
    .then(() => writeFile(partial, code))
    .then(() => rename(partial, cached))
    .catch(() => undefined);
  return { format: 'module', source: code, shortCircuit: true };
}
