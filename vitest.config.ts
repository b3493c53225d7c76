import { defineConfig } from 'vitest/config';

/**
 * Two groups, one after the other. The browser tests each start a live server and Chromium pages,
 * which take most of a 2-core machine; run beside other files (or two at once) they ran 5–7× slower
 * and timed out in clicks and waits. So every other file runs first, two at a time, and then the
 * browser files run one at a time with the machine to themselves.
 */
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // OpenCV's WASM heap is large; one fork per file keeps memory bounded on a 2-core machine.
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/browser/**'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          // One shared Chromium and one web build for all browser tests (tests/browser/global-setup.ts).
          globalSetup: ['tests/browser/global-setup.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
