#!/usr/bin/env node
// Thin launcher: runs the TypeScript CLI through bin/ts.js so no build step is needed.
import './ts.js';

await import('../src/cli/main.ts');
