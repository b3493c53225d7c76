import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { SourceError } from './source-error.ts';

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff']);

/** The image files of a folder (not its subfolders), in name order. */
export function imagesInFolder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new SourceError(`cannot read folder ${dir}: ${(err as Error).message}`, true);
  }
  const files = names
    .filter((n) => IMAGE_EXTENSIONS.has(extname(n).toLowerCase()))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isFile());
  if (files.length === 0)
    throw new SourceError(`no images (${[...IMAGE_EXTENSIONS].join(', ')}) in ${dir}`, true);
  return files;
}
