import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 15, point 11: the tests run on any clone. The real ChArUco photos live in the repository
 * (tests/camera/fixtures/charuco-real, with their origin and licence), byte for byte the upstream
 * files, and no test reaches outside the repository for data.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'tests/camera/fixtures/charuco-real');

const SHA256: Record<string, string> = {
  'img_00.jpg': 'ecb8988b5aef9c1965a50a5a5b95664697554b3401504a987d1d0e722c15d0d1',
  'img_01.jpg': '12eddb0bd4c67cc45ad00f3eec7870241eb19843173e0f212eee7e70ee5c3d1e',
  'img_02.jpg': '11f9776eb87b9f01f66eea60d844f3ea4401cef64bb4115588d5dcde440daf3b',
  'img_03.jpg': 'ac47f92fa79ded736efe822b975fe4cd8fd10d94f41407e47cf6e3e6a9cfed92',
  'tutorial_camera_charuco.yml': '4f9291f7205f3242c10fd635a97254f056bcfd0ecbbaefe6203fa7b745dd8100',
};

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : testFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('issue 15.11: test data inside the repository', () => {
  it('holds the real ChArUco photos, unchanged, with their origin and licence beside them', () => {
    for (const [name, sha] of Object.entries(SHA256))
      expect(
        createHash('sha256')
          .update(readFileSync(join(FIXTURES, name)))
          .digest('hex'),
        name,
      ).toBe(sha);
    const readme = readFileSync(join(FIXTURES, 'README.md'), 'utf8');
    expect(readme).toMatch(/opencv_contrib/);
    expect(readme).toMatch(/Apache License 2\.0/);
  });

  it('no test file reads from outside the repository', () => {
    const escapes: string[] = [];
    for (const file of testFiles(join(ROOT, 'tests'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/new URL\(\s*'([^']+)'\s*,\s*import\.meta\.url\s*\)/g)) {
        const target = resolve(join(file, '..'), m[1]!);
        if (relative(ROOT, target).startsWith('..')) escapes.push(`${relative(ROOT, file)}: ${m[1]}`);
      }
      if (/\/work\/shared|['"`]\.\.\/\.\.\/\.\.\/shared/.test(text))
        escapes.push(`${relative(ROOT, file)}: shared/`);
    }
    expect(escapes).toEqual([]);
  });
});
