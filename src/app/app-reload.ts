// Reloads: from a Loaded (app.reload), from disk (SIGHUP, POST /-/reload, a file change) and when an account
// named by alias resolves. They queue, one at a time. A file change first compares the content of the files the
// config reads with what is loaded (reload-fingerprint.ts): unchanged content is a no-op. An applied reload
// swaps only the parts of the runtime that changed (runtime.ts, docs/operations.md "Reload").
import { setImmediate } from 'node:timers/promises';
import { formatIssue } from '../config/config-error.js';
import { forgetRemovedRules } from '../observability/metrics.js';
import { channelsFor, type AppContext } from './app-context.js';
import { loadAll, type Loaded } from './load-all.js';
import { recordingReader, sameContent, type Fingerprint } from './reload-fingerprint.js';
import { changedParts } from '../config-file/reload-plan.js';
import { watchForReload } from './reload-watcher.js';
import { setupNotices } from './setup-notices.js';

/** Applies a loaded config; throws (changing nothing) when its notifiers cannot be built. */
export async function applyReload(ctx: AppContext, next: Loaded, print?: Fingerprint): Promise<void> {
  const { shared, secrets, options } = ctx;
  const { log, metrics } = shared;
  if (ctx.lost) throw new Error('the state store was lost: not reloading');
  const channels = channelsFor(ctx, next);
  // Resolved while everything keeps running: lookups of accounts named by alias may take a while.
  const applied = await ctx.resolution.apply(next, true);
  if (ctx.lost) throw new Error('the state store was lost: not reloading');
  ctx.loaded = next;
  secrets.set(next.config);
  shared.controls.apply(next.config);
  log.level = options.logLevel ?? next.config.log.level;
  const plan = ctx.runtime ? await ctx.runtime.update(applied, channels) : undefined;
  if (plan?.rules) {
    const ids = new Set(next.ruleSet.rules.map((r) => r.id));
    await forgetRemovedRules(metrics, ids);
    shared.ruleActivity.keepOnly(ids);
  }
  if (plan && plan.restartNeeded.length > 0)
    log.warn({ keys: plan.restartNeeded }, 'config changes that take effect on restart only');
  ctx.resolution.scheduleRetry(next, () => retryResolution(ctx));
  markLoaded(ctx, true);
  metrics.configReloads.inc({ outcome: 'applied' });
  watchConfig(ctx, print);
  const changed = plan ? changedParts(plan) : [];
  log.info({ accounts: next.accounts.length, rules: next.ruleSet.rules.length, changed }, 'config reloaded');
  for (const notice of setupNotices(next)) log.warn(notice);
}

/** Queues a reload from the config file; `onlyIfChanged` (file events) skips it when the content is the same. */
export function reloadFromDisk(ctx: AppContext, onlyIfChanged = false): Promise<boolean> {
  const run = () => reloadNow(ctx, onlyIfChanged);
  ctx.reloading = ctx.reloading.then(run, run);
  return ctx.reloading;
}

async function reloadNow(ctx: AppContext, onlyIfChanged: boolean): Promise<boolean> {
  const { log, metrics } = ctx.shared;
  if (onlyIfChanged && ctx.fingerprint && sameContent(ctx.fingerprint)) {
    metrics.configReloadNoops.inc({ reason: 'same_content' });
    log.debug('config files unchanged: nothing to reload');
    return true;
  }
  // The load below is synchronous: let a poll round or a delivery pass that is due run first.
  await setImmediate();
  const reader = recordingReader();
  const env = ctx.options.env ?? {};
  const readFile = (p: string) => reader.readFile(p);
  const result = loadAll(ctx.options.configPath ?? '', { env, readFile, ruleCache: ctx.ruleCache });
  if (!result.ok) {
    for (const issue of result.issues) log.error({ issue: formatIssue(issue) }, 'config reload rejected');
    rejected(ctx);
    return false;
  }
  try {
    await applyReload(ctx, result.loaded, reader.fingerprint(result.loaded.rulePaths));
    return true;
  } catch (err) {
    log.error({ err }, 'config reload rejected');
    rejected(ctx);
    return false;
  }
}

function rejected(ctx: AppContext): void {
  markLoaded(ctx, false);
  ctx.shared.metrics.configReloads.inc({ outcome: 'rejected' });
  // What is on disk is not what runs: the next file event loads again, whatever it holds.
  ctx.fingerprint = undefined;
}

export function markLoaded(ctx: AppContext, ok: boolean): void {
  const { metrics, clock } = ctx.shared;
  metrics.configReloadSuccess.set(ok ? 1 : 0);
  if (ok) metrics.configReloadTime.set(Math.floor(clock() / 1000));
}

/**
 * Watches the folders of the files the config reads. `print` comes from the load just applied; without one
 * (start, app.reload) the config is read once more to learn which files those are.
 */
export function watchConfig(ctx: AppContext, print?: Fingerprint): void {
  const { configPath, env = {} } = ctx.options;
  const { log, metrics, clock } = ctx.shared;
  if (!configPath || !ctx.loaded.config.daemon.watch_files) {
    ctx.watcher?.watcher.close();
    ctx.watcher = undefined;
    return;
  }
  ctx.fingerprint = print ?? baseline(ctx, configPath, env);
  const files = ctx.fingerprint ? [...ctx.fingerprint.files.keys()] : [configPath];
  const patterns = ctx.loaded.rulePaths;
  const key = JSON.stringify([[...files].sort(), patterns]);
  // The same files: the folders stay watched (no event is lost between closing and watching again).
  if (ctx.watcher?.key === key) return;
  ctx.watcher?.watcher.close();
  const onIgnored = (events: number) => {
    metrics.configReloadNoops.inc({ reason: 'unrelated_file' });
    log.debug({ events }, 'file changes unrelated to the config ignored');
  };
  const onChange = () => void reloadFromDisk(ctx, true);
  ctx.watcher = { key, watcher: watchForReload({ files, patterns, onChange, onIgnored, log, clock }) };
}

function baseline(ctx: AppContext, configPath: string, env: Readonly<Record<string, string | undefined>>) {
  const reader = recordingReader();
  const readFile = (p: string) => reader.readFile(p);
  const result = loadAll(configPath, { env, readFile, ruleCache: ctx.ruleCache });
  return result.ok ? reader.fingerprint(result.loaded.rulePaths) : undefined;
}

// Accounts by EVM address or alias that the query service did not know yet: once one resolves, its streams are
// swapped into the running tail (docs/tailing.md, "Accounts named by EVM address or alias").
export function retryResolution(ctx: AppContext): void {
  const run = () => resolvePending(ctx);
  ctx.reloading = ctx.reloading.then(run, run);
}

async function resolvePending(ctx: AppContext): Promise<boolean> {
  if (ctx.lost || !ctx.runtime) return true;
  const before = ctx.resolution.pending().length;
  const applied = await ctx.resolution.apply(ctx.loaded, false);
  if (ctx.lost || !ctx.runtime) return true;
  if (ctx.resolution.pending().length < before) {
    await ctx.runtime.update(applied, channelsFor(ctx, applied));
    ctx.shared.log.info({ accounts: applied.accounts.length }, 'resolved accounts added to the tail');
  }
  ctx.resolution.scheduleRetry(ctx.loaded, () => retryResolution(ctx));
  return true;
}
