// `ledger-sentinel run --config <file>`: the daemon. Reloads on SIGHUP (when main.ts passes hangups) and on
// changes to the config or rule files; stops gracefully when ctx.signal fires (SIGTERM/SIGINT).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp, type App } from '../../app/create-app.js';
import { loadAll, type Loaded } from '../../app/load-all.js';
import { StateStoreError } from '../../state/state-store-error.js';
import { printIssues } from '../common/print-issues.js';
import { waitForAbort } from '../../ledger/wait-for-abort.js';
import type { CliContext, Command } from '../command.js';
import { Config } from '../../config-file/schema.js';
import { collectSecrets } from '../../config/secret.js';
import { createLogger } from '../../observability/logger.js';
import { createMetrics, type Metrics } from '../../observability/metrics.js';
import { VERSION } from '../../version.js';
import { openConfiguredStore } from '../../state/open-configured-store.js';
import { createReplica } from './run-replica.js';
import { openStateStore, type StateStore } from '../../state/store.js';

export const DEFAULT_CONFIG = '/etc/ledger-sentinel/config.yaml';

const USAGE = `Usage: ledger-sentinel run [--config <file>] [--dry-run]

Runs the daemon: tails the watched accounts, evaluates the rules, delivers alerts.

Options:
  --config <file>   the config file (default ${DEFAULT_CONFIG})
  --dry-run         evaluate and log what would be sent ("would send" lines), send nothing: notifiers are not
                    called, the state lives in memory only (the state dir or database is neither read nor
                    written, so a real run later sends everything itself), ha is ignored, and the HTTP server
                    takes a free port (see the "started" line). Tailing starts at tail.start.

Reloads on SIGHUP and when the config or a rule file changes; an invalid new config is logged and the old one
kept. On SIGTERM it stops polling, sends what is pending for daemon.shutdown_grace, and exits 0.
Exits 1 when its state dir is held by another daemon, or is deleted or replaced while it runs.
With ha.enabled it stands by until it holds the lease, then leads; it exits 1 when it loses the lease or a
write is refused by the fence, so that it restarts as a standby.
Once it decides to exit it is gone within daemon.shutdown_grace + 5 s: past that it exits 3 and names what
was still open (docs/operations.md, "Exit bound").
`;

/** The CliContext, plus SIGHUP as events when the process entry provides them. */
export interface RunContext extends CliContext {
  readonly hangups?: EventTarget;
}

/** `run`'s own options: the config file and --dry-run. */
export function parseRunArgs(
  argv: readonly string[],
  cwd: string,
): { configPath: string; dryRun: boolean } | Error {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { config: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
      strict: true,
    });
    return { configPath: resolve(cwd, values.config ?? DEFAULT_CONFIG), dryRun: values['dry-run'] };
  } catch (err) {
    return err as Error;
  }
}

export function parseConfigArg(argv: readonly string[], cwd: string): string | Error {
  try {
    const { values } = parseArgs({ args: [...argv], options: { config: { type: 'string' } }, strict: true });
    return resolve(cwd, values.config ?? DEFAULT_CONFIG);
  } catch (err) {
    return err as Error;
  }
}

/** What run drives: one app, or (ha.enabled) a replica that runs the app of its role under the lease. */
type Daemon = Pick<App, 'start' | 'stop' | 'reloadFromDisk' | 'failure'>;

/** The app, or why its state store cannot be opened (in use, corrupt, read-only, unreachable): said plainly. */
async function openApp(
  ctx: RunContext,
  loaded: Loaded,
  configPath: string,
): Promise<Daemon | StateStoreError> {
  // stdout carries only the JSON logs (a log shipper parses it); the console notifier writes to stderr.
  const output = { logDestination: ctx.stdout, stdout: ctx.stderr };
  const { config } = loaded;
  let store: StateStore | undefined;
  let metrics: Metrics | undefined;
  try {
    if (config.state.backend !== 'sqlite') {
      const secrets = collectSecrets(Config, config);
      const log = createLogger({ level: config.log.level, destination: ctx.stdout, secrets });
      metrics = createMetrics({ processMetrics: true, version: VERSION });
      if (config.ha.enabled) {
        const m = metrics;
        // A leader's store is fenced by its token; a standby's is a snapshot that never replicates (run-replica.ts).
        const openStore = (fence: (() => bigint | undefined) | undefined) =>
          openConfiguredStore(config.state, { log, pid: ctx.pid, metrics: m, fence, replicate: !!fence });
        return createReplica({
          loaded,
          configPath,
          env: ctx.env,
          pid: ctx.pid,
          log,
          metrics,
          openStore,
          ...output,
        });
      }
      store = await openConfiguredStore(config.state, { log, pid: ctx.pid, metrics });
    }
    return createApp({ loaded, configPath, env: ctx.env, pid: ctx.pid, store, metrics, ...output });
  } catch (err) {
    await store?.close();
    if (err instanceof StateStoreError) return err;
    // The PostgreSQL backend's open errors say what and how to fix, without the URL's password.
    if (store === undefined && config.state.backend !== 'sqlite' && err instanceof Error)
      return new StateStoreError(err.message);
    throw err;
  }
}

/** The app of `run --dry-run`: an in-memory store, logging notifiers, no lease (app-context.ts `dryRun`). */
function openDryRun(ctx: RunContext, loaded: Loaded, configPath: string): Daemon {
  const store = openStateStore({ dir: ':memory:' });
  const app = createApp({
    ...{ loaded, configPath, env: ctx.env, pid: ctx.pid, store, dryRun: true },
    ...{ logDestination: ctx.stdout, stdout: ctx.stderr },
  });
  app.log.warn(
    { stateDir: loaded.config.state.dir, backend: loaded.config.state.backend },
    'dry run: nothing is sent and the state is kept in memory only',
  );
  return app;
}

export const run: Command = {
  name: 'run',
  summary: 'run the daemon with a config file',
  usage: USAGE,
  async run(ctx: RunContext) {
    const args = parseRunArgs(ctx.argv, ctx.cwd);
    if (args instanceof Error) {
      ctx.stderr.write(`ledger-sentinel run: ${args.message}. Run ledger-sentinel run --help.\n`);
      return 2;
    }
    const { configPath } = args;
    const result = loadAll(configPath, { env: ctx.env });
    if (!result.ok) {
      printIssues(ctx.stderr, result.issues);
      return 1;
    }
    // From the moment it decides to exit, the process is gone within the exit bound (src/main.ts), whatever
    // is still open: a signal while the state opens or the app starts counts too.
    const graceMs = result.loaded.config.daemon.shutdown_grace;
    const decide = (reason: string) => ctx.exiting?.({ reason, graceMs });
    const onAbort = () => decide(String((ctx.signal.reason as Error | undefined)?.message ?? 'stopped'));
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    const app = args.dryRun
      ? openDryRun(ctx, result.loaded, configPath)
      : await openApp(ctx, result.loaded, configPath);
    if (app instanceof StateStoreError) {
      ctx.signal.removeEventListener('abort', onAbort);
      ctx.stderr.write(`ledger-sentinel run: ${app.message}\n`);
      return 1;
    }
    const onHangup = () => void app.reloadFromDisk();
    ctx.hangups?.addEventListener('SIGHUP', onHangup);
    let failed: Error | undefined;
    try {
      void app.failure().then((err) => decide(err.message));
      await app.start();
      failed = await Promise.race([waitForAbort(ctx.signal).then(() => undefined), app.failure()]);
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      ctx.hangups?.removeEventListener('SIGHUP', onHangup);
      await app.stop();
    }
    if (failed) ctx.stderr.write(`ledger-sentinel run: ${failed.message}\n`);
    return failed ? 1 : 0;
  },
};
