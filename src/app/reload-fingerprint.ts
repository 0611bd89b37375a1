// What a loaded config was read from, and what those files held. A reload is decided by content: a file event
// only says that something in a folder moved (a log file growing, a Kubernetes `..data` link swapped to an
// identical copy), so the files the config actually reads are hashed again and compared.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expandPaths } from '../rules/load/expand-paths.js';

export interface Fingerprint {
  /** Every file the load read — the config, the rule files, the `*_file` secrets — to its content's hash. */
  readonly files: ReadonlyMap<string, string>;
  /** The rule paths as configured, patterns included: a new file matching one is a change too. */
  readonly patterns: readonly string[];
}

export interface RecordingReader {
  /** A readFile for loadAll that remembers what it read. */
  readFile(path: string): string;
  fingerprint(patterns: readonly string[]): Fingerprint;
}

export type ReadFile = (path: string) => string;

const utf8: ReadFile = (path) => readFileSync(path, 'utf8');

export function recordingReader(readFile: ReadFile = utf8): RecordingReader {
  const files = new Map<string, string>();
  return {
    readFile(path) {
      const text = readFile(path);
      files.set(path, digest(text));
      return text;
    },
    fingerprint: (patterns) => ({ files: new Map(files), patterns: [...patterns] }),
  };
}

/** Whether every file still holds what it held and no new file matches a rule pattern. Reads each file once. */
export function sameContent(print: Fingerprint, readFile: ReadFile = utf8): boolean {
  for (const [path, hash] of print.files) {
    let text: string;
    try {
      text = readFile(path);
    } catch {
      return false; // gone or unreadable: the load decides what that means
    }
    if (digest(text) !== hash) return false;
  }
  return expandPaths(print.patterns).files.every((file) => print.files.has(file));
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
