import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_DIR } from '../helpers/shared.js';

/** The shared folder beside the clone, which holds the upstream cases (CI lays it there). */
export const SHARED_DIR = resolve(REPO_DIR, '..', 'shared');

export function sharedPath(...parts: string[]): string {
  const path = join(SHARED_DIR, ...parts);
  if (!existsSync(path))
    throw new Error(
      `${path} is missing: npm run conformance reads the upstream cases from ../shared beside the repository`,
    );
  return path;
}
