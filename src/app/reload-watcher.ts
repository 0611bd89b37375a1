// Reload on file change. The directories of the config file and of the rule files are watched, not the files:
// a Kubernetes ConfigMap update swaps a symlink (..data) in the directory, which a watch on the old file never
// sees. Events are debounced, so an editor's write-rename-chmod is one reload.
import { watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';

export interface ReloadWatcher {
  close(): void;
}

export interface ReloadWatcherOptions {
  readonly paths: readonly string[];
  readonly onChange: () => void;
  readonly log: Logger;
  readonly debounceMs?: number;
}

export function watchForReload(options: ReloadWatcherOptions): ReloadWatcher {
  const dirs = [...new Set(options.paths.map((p) => dirname(p)))];
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(options.onChange, options.debounceMs ?? 250);
  };
  const watchers: FSWatcher[] = [];
  for (const dir of dirs) {
    try {
      const w = watch(dir, { persistent: false }, fire);
      w.on('error', (err) => options.log.warn({ err, dir }, 'config directory watch failed'));
      watchers.push(w);
    } catch (err) {
      options.log.warn({ err, dir }, 'config directory cannot be watched; reload with SIGHUP');
    }
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
