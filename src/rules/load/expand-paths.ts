// Rule paths as configured: plain files, or a `*` / `?` pattern in the file name (`/etc/rules/*.yaml`).
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { globMatches } from './glob-matches.js';

export type ListDir = (dir: string) => readonly string[];

export interface ExpandedPaths {
  readonly files: string[];
  /** Patterns that matched nothing (a typo in the path is an error, not an empty rule set). */
  readonly empty: string[];
}

export function expandPaths(
  paths: readonly string[],
  listDir: ListDir = (dir) => readdirSync(dir),
): ExpandedPaths {
  const files: string[] = [];
  const empty: string[] = [];
  for (const path of paths) {
    const name = basename(path);
    if (!/[*?]/.test(name)) {
      files.push(path);
      continue;
    }
    const dir = dirname(path);
    let entries: readonly string[] = [];
    try {
      entries = listDir(dir);
    } catch {
      entries = [];
    }
    const matched = entries.filter((e) => globMatches(name, e)).sort();
    if (!matched.length) empty.push(path);
    files.push(...matched.map((e) => join(dir, e)));
  }
  return { files: [...new Set(files)], empty };
}
