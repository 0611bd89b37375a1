// A temporary directory with config.yaml, rules/ and state/ for a `ledger-sentinel run` child process.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SentinelConfigOptions {
  readonly ledgerUrl: string;
  /** Watched account ids (`0.0.N`). */
  readonly accounts: readonly string[];
  /** YAML of the `notifiers:` mapping, indented by two spaces. */
  readonly notifiers: string;
  readonly strategy?: 'auto' | 'global' | 'per-account';
  readonly pollInterval?: string;
  readonly overlap?: string;
  /** Tail start, Unix seconds (default: 2 s before now). */
  readonly startSeconds?: number;
  readonly requestsPerSecond?: number;
  /** Extra top-level YAML appended to the file. */
  readonly extra?: string;
  readonly ledgerExtra?: string;
  /** Extra keys of the `tail:` mapping, each line indented by two spaces. */
  readonly tailExtra?: string;
  /** The `state:` value as flow YAML (default: the SQLite state in the dir's state/). */
  readonly state?: string;
  /** Extra keys of the default `state:` flow mapping, e.g. `sqlite: { synchronous: full }`. */
  readonly stateExtra?: string;
}

export interface SentinelDir {
  readonly dir: string;
  readonly configPath: string;
  writeConfig(options: SentinelConfigOptions): void;
  writeRule(name: string, text: string): void;
  remove(): void;
}

export function sentinelDir(prefix = 'ledger-sentinel-chaos-'): SentinelDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'rules'));
  const configPath = join(dir, 'config.yaml');
  return {
    dir,
    configPath,
    writeConfig(o) {
      const accounts = o.accounts.map((id) => `  - { id: ${id}, sources: [transactions] }`).join('\n');
      writeFileSync(
        configPath,
        `ledger:
  base_url: ${o.ledgerUrl}
  requests_per_second: ${o.requestsPerSecond ?? 50}
  retry: { max_attempts: 5, base_delay: 100ms, max_delay: 5s }
${o.ledgerExtra ?? ''}
accounts:
${accounts}
tail:
  strategy: ${o.strategy ?? 'global'}
  poll_interval: ${o.pollInterval ?? '1s'}
  overlap: ${o.overlap ?? '10s'}
  start: "${o.startSeconds ?? Math.floor(Date.now() / 1000) - 2}"
${o.tailExtra ?? ''}
rules: { paths: [rules/*.yaml] }
notifiers:
${o.notifiers}
state: ${o.state ?? `{ dir: ${join(dir, 'state')}${o.stateExtra ? `, ${o.stateExtra}` : ''} }`}
http: { host: 127.0.0.1, port: 0 }
daemon: { watch_files: false, shutdown_grace: 5s }
self_monitoring: { enabled: false }
${o.extra ?? ''}
`,
      );
    },
    writeRule(name, text) {
      writeFileSync(join(dir, 'rules', name), text);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
