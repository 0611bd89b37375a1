import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/** The repository root (this file is test/helpers/shared.ts). */
export const REPO_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));
