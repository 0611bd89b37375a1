import type { ConfigIssue } from '../config/config-error.js';
import { loadYaml, type LoadResult } from '../config/load-yaml.js';
import { osReason } from '../config/os-reason.js';
import { InvalidUtf8Error, readUtf8File } from '../config/read-utf8.js';
import { Config } from './schema.js';

export interface LoadConfigOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads the config file and `*_file` secrets; defaults to the file system (UTF-8). */
  readonly readFile?: (path: string) => string;
  /** Check `*_file` keys without reading their files (`check --offline`). */
  readonly offline?: boolean;
}

/** Reads and validates the config file at `path`. */
export function loadConfigFile(path: string, options: LoadConfigOptions): LoadResult<Config> {
  const readFile = options.readFile ?? readUtf8File;
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    return { ok: false, issues: [unreadable(path, error)] };
  }
  const { env, offline } = options;
  // `accounts` may hold 100,000 entries: loaded in batches, not as one document model (config/load-batched.ts).
  return loadYaml({ file: path, text, schema: Config, env, readFile, offline, longList: 'accounts' });
}

function unreadable(file: string, error: unknown): ConfigIssue {
  if (error instanceof InvalidUtf8Error)
    return { file, line: error.line, col: error.col, path: '', message: error.reason };
  const message = `cannot read the config file: ${osReason(error)}; pass the right path with --config <path>`;
  return { file, line: 0, col: 0, path: '', message };
}
