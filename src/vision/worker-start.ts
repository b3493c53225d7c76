import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread running a TypeScript module.
 *
 * Node 20 does not pass loader hooks such as `--import tsx` on to workers, neither inherited nor
 * through `execArgv`, so the worker's first lines register tsx themselves (from the tsx this
 * package depends on) and then import the module. Works under `node bin/vedette.js`, tsx and vitest.
 */
export function startTsWorker(module: URL, workerData: unknown, name: string): Worker {
  return new Worker(bootstrap(module), { eval: true, workerData, name });
}

function bootstrap(module: URL): string {
  // The ESM entry of tsx's API, found through its package.json (the CommonJS one resolves wrongly here).
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const tsxPackage = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    exports: { './esm/api': { import: { default: string } } };
  };
  const tsxApi = new URL(tsxPackage.exports['./esm/api'].import.default, pathToFileURL(packageJson));
  return [
    `import(${JSON.stringify(tsxApi.href)})`,
    `  .then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`,
  ].join('\n');
}
