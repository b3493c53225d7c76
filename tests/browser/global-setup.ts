import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, ensureWebBuilt, haveChromium, LAUNCH_ARGS } from './browser-harness.ts';

/**
 * One Chromium for every browser test file: vitest runs test files in separate processes, so each
 * used to launch its own browser (and race to build web/dist). This builds the web app once and
 * starts one browser server; each file connects to it through `launchChromium()` and gets its own
 * contexts. Skipped when the run has file filters and none of them is a browser test.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** WebSocket endpoint of the shared Chromium, or '' when there is none. */
    chromiumEndpoint: string;
  }
}

function runsBrowserTests(argv: readonly string[]): boolean {
  const at = argv.findIndex((a) => a === 'run' || a.endsWith('vitest.mjs') || a.endsWith('vitest'));
  const filters = argv
    .slice(at + 1)
    .filter(
      (a, i, all) =>
        !a.startsWith('-') &&
        !(all[i - 1] ?? '').match(/^-(t|-testNamePattern|-exclude|-project|-config|c)$/) &&
        a !== 'run',
    );
  return filters.length === 0 || filters.some((f) => /browser/.test(f));
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: BrowserServer | null = null;
  if (haveChromium && runsBrowserTests(process.argv)) {
    ensureWebBuilt();
    server = await chromium.launchServer({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  }
  project.provide('chromiumEndpoint', server?.wsEndpoint() ?? '');
  return async () => {
    await server?.close();
  };
}
