import { isAbsolute, resolve } from 'node:path';
import { isMap, isScalar, Scalar, type Pair } from 'yaml';
import type { NodeProblem } from './expand-env.js';
import { osReason } from './os-reason.js';
import type { PathKey } from './validate.js';
import { keyText, walkYaml } from './walk-yaml.js';

export interface FileTwinOptions {
  readonly baseDir: string;
  readonly readFile: (path: string) => string;
  /** Whether `<name>_file` at this mapping path is a twin of `<name>` (false: a key of its own). */
  readonly isTwin: (path: readonly PathKey[], name: string) => boolean;
  /** Dotted paths whose values are not usable (an earlier problem was reported there). */
  readonly skip: ReadonlySet<string>;
  /** Check that the key names a file, but do not read it: the value becomes OFFLINE_SECRET. */
  readonly offline?: boolean;
}

/**
 * What a `*_file` secret holds when it is not read (`check --offline`): a valid value for every secret, plain or
 * URL, so validation goes on; it never reaches a notifier (offline checks send nothing).
 */
export const OFFLINE_SECRET = 'https://secret-file-not-read.invalid/offline-check';

export interface FileTwins {
  readonly problems: NodeProblem[];
  /** `path.to.name` → `name_file`: the key as written, for messages. */
  readonly written: Map<string, string>;
  /** The file contents read, never to be quoted back. */
  readonly contents: Set<string>;
}

/** Replaces every `<name>_file: path` by `<name>: <content of path>` (trailing newlines trimmed), in place. */
export function resolveFileTwins(root: unknown, options: FileTwinOptions): FileTwins {
  const twins: FileTwins = { problems: [], written: new Map(), contents: new Set() };
  walkYaml(root, (node, path) => {
    if (!isMap(node)) return;
    for (const pair of node.items) {
      const key = keyText(pair.key);
      const name = key.slice(0, -'_file'.length);
      if (!key.endsWith('_file') || !name || !options.isTwin(path, name)) continue;
      twins.written.set([...path, name].join('.'), key);
      const problem = node.items.some((other) => keyText(other.key) === name)
        ? `set either ${name} or ${key}, not both`
        : replace(pair, name, [...path, key], options, twins);
      if (problem) twins.problems.push({ offset: start(pair.key), path: [...path, key], message: problem });
    }
  });
  return twins;
}

function replace(
  pair: Pair,
  name: string,
  path: PathKey[],
  options: FileTwinOptions,
  twins: FileTwins,
): string | undefined {
  const value = isScalar(pair.value) ? pair.value.value : undefined;
  const newKey = Object.assign(new Scalar(name), { range: (pair.key as Scalar).range });
  pair.key = newKey;
  if (options.skip.has(path.join('.'))) return undefined;
  if (typeof value !== 'string' || !value) return `expected the path of a file holding the value of ${name}`;
  if (options.offline) {
    pair.value = Object.assign(new Scalar(OFFLINE_SECRET), { range: (pair.value as Scalar).range });
    return undefined;
  }
  const read = readTrimmed(resolve(options.baseDir, value), options.readFile);
  const where = isAbsolute(value) ? value : `${value} (relative to the config file's folder)`;
  if (read.error)
    return `cannot read ${where}: ${read.error}; check the path and that ledger-sentinel may read it`;
  if (!read.content) return `${where} is empty; put the value of ${name} in it`;
  twins.contents.add(read.content);
  pair.value = Object.assign(new Scalar(read.content), { range: (pair.value as Scalar).range });
  return undefined;
}

function readTrimmed(path: string, readFile: (path: string) => string): { content?: string; error?: string } {
  try {
    return { content: readFile(path).replace(/(\r?\n)+$/, '') };
  } catch (error) {
    return { error: osReason(error) };
  }
}

function start(node: unknown): number {
  return (node as Scalar | null)?.range?.[0] ?? 0;
}
