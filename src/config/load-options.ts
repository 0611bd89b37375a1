// What loading a YAML document takes and gives (load-yaml.ts, load-document.ts, load-yaml-documents.ts), in a
// leaf of its own so the loaders share it without importing each other.
import type { z } from 'zod';
import type { ConfigIssue } from './config-error.js';

export type LoadResult<T> = { ok: true; value: T } | { ok: false; issues: ConfigIssue[] };

export interface LoadYamlOptions<S extends z.ZodType> {
  /** The name issues are reported under (the path as the user gave it). */
  readonly file: string;
  readonly text: string;
  readonly schema: S;
  /** For `${VAR}` expansion. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads `*_file` secrets; defaults to reading the file system as UTF-8. */
  readonly readFile?: (path: string) => string;
  /** Leave `*_file` files unread (`check --offline`): the key must still name a file. */
  readonly offline?: boolean;
  /** Where relative `*_file` paths start; defaults to the folder of `file`. */
  readonly baseDir?: string;
  /**
   * A top-level key whose block sequence may be long (the config's `accounts`): a valid file is loaded a batch
   * of items at a time, without the whole document model (load-batched.ts); a file with any problem is loaded
   * whole, so its problems are placed as always.
   */
  readonly longList?: string;
}
