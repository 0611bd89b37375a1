// Reload on file change. The folders of the files the config reads are watched, not the files: a Kubernetes
// ConfigMap or Secret update swaps a symlink (`..data`) in the folder, which a watch on the old file never sees.
// Only events naming a file the config reads, a name a rule pattern matches, or a `..` entry of a mounted
// volume lead to a reload check (debounced, so an editor's write-rename-chmod is one check); events of other
// files (a log file in the same folder) are only counted. Whether the content changed is decided by the caller.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';
import { globMatches } from '../rules/load/glob-matches.js';

export interface ReloadWatcher {
  close(): void;
}

export interface ReloadWatcherOptions {
  /** Files whose change matters (the config, rule files, secret files). */
  readonly files: readonly string[];
  /** Rule paths as configured: a pattern's folder is watched and names it matches matter. */
  readonly patterns: readonly string[];
  /** A relevant change settled (debounced): check the content and reload if it changed. */
  readonly onChange: () => void;
  /** Events of unrelated files in a watched folder, at most once per `debounceMs × 40`. */
  readonly onIgnored: (events: number) => void;
  readonly log: Logger;
  /** Quiet time after the last relevant event (default 25 ms). */
  readonly debounceMs?: number;
  /** A relevant burst that never goes quiet is checked after at most this long (default 1 s). */
  readonly maxWaitMs?: number;
  /** Milliseconds on a clock that does not jump, for the debounce's longest wait (default performance.now). */
  readonly clock?: () => number;
}

export function watchForReload(options: ReloadWatcherOptions): ReloadWatcher {
  const relevant = relevanceByFolder(options.files, options.patterns);
  const debounce = createDebounce(options);
  const watchers: FSWatcher[] = [];
  for (const [dir, matters] of relevant) {
    try {
      const w = watch(dir, { persistent: false }, (_event, name) => debounce.event(matters(name)));
      w.on('error', (err) => options.log.warn({ err, dir }, 'config directory watch failed'));
      watchers.push(w);
    } catch (err) {
      options.log.warn({ err, dir }, 'config directory cannot be watched; reload with SIGHUP');
    }
  }
  return {
    close() {
      debounce.close();
      for (const w of watchers) w.close();
    },
  };
}

type Matters = (name: string | Buffer | null) => boolean;

function relevanceByFolder(files: readonly string[], patterns: readonly string[]): Map<string, Matters> {
  const names = new Map<string, { exact: Set<string>; globs: string[] }>();
  const entry = (dir: string) => {
    let e = names.get(dir);
    if (!e) names.set(dir, (e = { exact: new Set(), globs: [] }));
    return e;
  };
  for (const file of files) entry(dirname(file)).exact.add(basename(file));
  for (const pattern of patterns) entry(dirname(pattern)).globs.push(basename(pattern));
  const result = new Map<string, Matters>();
  for (const [dir, { exact, globs }] of names)
    result.set(dir, (raw) => {
      // No name (some platforms): cannot tell, so check. `..data`, `..2026_…`: a mounted volume's swap.
      if (raw === null) return true;
      const name = raw.toString();
      return name.startsWith('..') || exact.has(name) || globs.some((g) => globMatches(g, name));
    });
  return result;
}

interface Debounce {
  event(relevant: boolean): void;
  close(): void;
}

function createDebounce(options: ReloadWatcherOptions): Debounce {
  const quietMs = options.debounceMs ?? 25;
  const maxWaitMs = options.maxWaitMs ?? 1000;
  const clock = options.clock ?? (() => performance.now());
  let timer: NodeJS.Timeout | undefined;
  let firstAt: number | undefined;
  let ignored = 0;
  let ignoredTimer: NodeJS.Timeout | undefined;
  const fire = () => {
    timer = undefined;
    firstAt = undefined;
    options.onChange();
  };
  const reportIgnored = () => {
    ignoredTimer = undefined;
    options.onIgnored(ignored);
    ignored = 0;
  };
  return {
    event(relevant) {
      if (!relevant) {
        ignored += 1;
        ignoredTimer ??= setTimeout(reportIgnored, quietMs * 40);
        return;
      }
      const now = clock();
      firstAt ??= now;
      if (timer) clearTimeout(timer);
      timer = setTimeout(fire, Math.max(0, Math.min(quietMs, firstAt + maxWaitMs - now)));
    },
    close() {
      if (timer) clearTimeout(timer);
      if (ignoredTimer) clearTimeout(ignoredTimer);
    },
  };
}
