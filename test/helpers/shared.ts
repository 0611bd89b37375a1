import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

/** The repository root (this file is test/helpers/shared.ts). */
export const REPO_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** `../shared` beside the clone, as on every developer machine and in CI. */
export const SHARED_DIR = resolve(REPO_DIR, '..', 'shared');

export function sharedPath(...parts: string[]): string {
  const path = join(SHARED_DIR, ...parts);
  if (!existsSync(path))
    throw new Error(`${path} is missing: the tests expect ../shared beside the repository`);
  return path;
}
