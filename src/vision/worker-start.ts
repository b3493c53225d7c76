import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread running a TypeScript module.
 *
 * Node 20 does not pass loader hooks such as `--import ./bin/ts.js` on to workers, neither
 * inherited nor through `execArgv`, so the worker's first line registers the project's TypeScript
 * hooks itself (bin/ts.js) and then imports the module. Works under `node bin/vedette.js`, the
 * benchmarks, tsx and vitest.
 */
export function startTsWorker(module: URL, workerData: unknown, name: string): Worker {
  return new Worker(bootstrap(module), { eval: true, workerData, name });
}

/** bin/ts.js, found from this file (src/vision/). */
const TS_HOOKS = new URL('../../bin/ts.js', import.meta.url);

function bootstrap(module: URL): string {
  return `import(${JSON.stringify(TS_HOOKS.href)}).then(() => import(${JSON.stringify(module.href)}));`;
}
