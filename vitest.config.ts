import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // OpenCV's WASM heap is large; one fork per file keeps memory bounded on a 2-core machine.
    pool: 'forks',
    fileParallelism: true,
    // One shared Chromium and one web build for all browser tests (tests/browser/global-setup.ts).
    globalSetup: ['tests/browser/global-setup.ts'],
    maxWorkers: 2,
  },
});
