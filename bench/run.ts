/**
 * Benchmark dispatcher: `npm run bench -- <name> [args…]` (or `node --import ./bin/ts.js bench/run.ts <name>`)
 * runs bench/<name>.ts with the remaining arguments. Without a name it lists the benchmarks.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's TypeScript hooks (bin/ts.js: not tsx, whose keepNames slows the rules engine). */
const TS_HOOKS = new URL('../bin/ts.js', import.meta.url).href;

const here = dirname(fileURLToPath(import.meta.url));
const [name, ...rest] = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.includes('-'))
  .map((f) => f.slice(0, -3));
if (!name || !/^[a-z0-9]+$/i.test(name) || !existsSync(join(here, `${name}.ts`))) {
  console.error(`usage: npm run bench -- <name> [args…]\nbenchmarks: ${benches.join(', ')}`);
  process.exit(name ? 1 : 0);
}
const result = spawnSync(process.execPath, ['--import', TS_HOOKS, join(here, `${name}.ts`), ...rest], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
