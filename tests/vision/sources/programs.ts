import { spawnSync } from 'node:child_process';

/**
 * Whether a system program runs. Tests that need one skip with a loud warning when it is missing,
 * unless VEDETTE_REQUIRE_ALL=1 (CI), where a missing program fails the test file instead.
 */
export function haveProgram(program: string, installHint: string): boolean {
  const ok = spawnSync(program, ['-version'], { stdio: 'ignore' }).status === 0;
  if (ok) return true;
  const message = `${program} is missing: these tests need it (${installHint})`;
  if (process.env['VEDETTE_REQUIRE_ALL'] === '1')
    throw new Error(`${message}; VEDETTE_REQUIRE_ALL=1 forbids skipping`);
  console.warn(`\n!!! SKIPPED: ${message} !!!\n`);
  return false;
}

export const haveFfmpeg = (): boolean => haveProgram('ffmpeg', 'Debian: apt-get install ffmpeg');
