// Start and stop of the app (create-app.ts): the HTTP server first (so /readyz answers while the first poll runs),
// then the runtime, the state guard and the file watcher; stop in the reverse order.
import { createApiRouter, type ApiDeps, type ApiRouter } from '../api/api-router.js';
import { httpAuth } from '../api/http-io.js';
import { createLoginRoute } from '../api/login-route.js';
import { createPageActions } from '../api/page-actions.js';
import { knownLabels } from '../delivery/known-labels.js';
import { startHttpServer, type RunningHttpServer } from '../observability/http-server.js';
import { configSilences } from '../status/status-silence.js';
import { createQuarantine, type Quarantine } from '../tail/quarantine/quarantine-store.js';
import { channelsFor, type AppContext } from './app-context.js';
import { markLoaded, retryResolution, watchConfig } from './app-reload.js';
import { readinessChecks } from '../self-monitor/readiness.js';
import { startRuntime } from './runtime.js';
import { standbyApi } from './standby-api.js';
import { standbyReadiness } from './standby-readiness.js';
import { guardStateStore } from '../state/state-guard.js';
import { rescueState } from '../state/state-rescue.js';
import { apiSilences, statusPage } from '../status/status-inputs.js';
import { setupNotices } from './setup-notices.js';
import { alertsPerHour, startStatusSampler } from '../status/status-sampler.js';
import { createStatusHistory } from '../status/status-history.js';

export async function startApp(ctx: AppContext, reload: () => Promise<boolean>): Promise<void> {
  const { shared, resolution } = ctx;
  const { log, metrics, store } = shared;
  ctx.http = await startHttp(ctx, reload);
  // A standby serves its snapshot of the state (HTTP, status page, read API) and never tails or delivers.
  if (!ctx.options.ha?.standby) {
    const applied = await resolution.apply(ctx.loaded, true);
    shared.engines.replace(applied.ruleSet);
    ctx.runtime = startRuntime(shared, applied, channelsFor(ctx, applied));
    resolution.scheduleRetry(ctx.loaded, () => retryResolution(ctx));
    if (!ctx.options.ha) metrics.leader.set(1);
  }
  ctx.guard = guardStateStore({
    ...{ store, log, metrics },
    intervalMs: ctx.options.stateCheckIntervalMs ?? 1000,
    onLost: (reason) => void (ctx.lost = stateLost(ctx, reason)),
  });
  markLoaded(ctx, true);
  watchConfig(ctx);
  const { accounts, ruleSet } = ctx.loaded;
  const level = ctx.options.ha?.refresh ? 'debug' : 'info';
  log[level]({ accounts: accounts.length, rules: ruleSet.rules.length, http: ctx.http.url }, 'started');
  for (const notice of setupNotices(ctx.loaded)) log.warn(notice);
}

function startHttp(ctx: AppContext, reload: () => Promise<boolean>): Promise<RunningHttpServer> {
  const { shared } = ctx;
  const { metrics, store, clock } = shared;
  const { http: listen } = ctx.loaded.config;
  const leadership = ctx.options.ha?.leadership;
  ctx.sampler?.stop();
  const checks = () =>
    readinessChecks({
      configLoaded: () => true,
      stateOpen: () => ctx.open,
      stateProblem: () => ctx.guard?.check(),
      health: () => shared.health,
      boundMs: () => ctx.loaded.config.self_monitoring.query_service_down_after,
      clock,
      delivery: () => ({
        lastPassAt: ctx.runtime?.worker.lastPassAt(),
        pauses: shared.pauses.list(),
        notifiers: Object.keys(ctx.loaded.config.notifiers),
        pausedAfterMs: ctx.loaded.config.self_monitoring.delivery_paused_after,
      }),
    });
  const readiness = () => standbyReadiness(checks(), leadership);
  return (ctx.options.startHttp ?? startHttpServer)({
    host: listen.host,
    port: ctx.options.dryRun ? 0 : listen.port,
    registry: metrics.registry,
    readiness,
    views: { '/quarantine': quarantineView(createQuarantine(store, clock)) },
    statusPage: statusPage({
      ...{ shared, loaded: () => ctx.loaded, runtime: () => ctx.runtime, readiness },
      notices: () => setupNotices(ctx.loaded),
      silences: () => [
        ...configSilences(ctx.loaded.config.silences),
        ...apiSilences(shared.controls.silences),
      ],
      sampler: (ctx.sampler = startStatusSampler({
        shared,
        runtime: () => ctx.runtime,
        history: ctx.sampler?.history ?? createStatusHistory(),
      })),
      alertsPerHour: alertsPerHour(store),
    }),
    api: standbyApi(runtimeApi(ctx, readiness, reload), () => leadership),
    auth: () => httpAuth(ctx.loaded.config.http),
    clock,
  });
}

/** The JSON API, the login form and the status page's forms, each taking its own paths. */
function runtimeApi(
  ctx: AppContext,
  readiness: ApiDeps['readiness'],
  reload: () => Promise<boolean>,
): ApiRouter {
  const { clock, log, metrics } = ctx.shared;
  const deps: ApiDeps = {
    ...ctx.shared.controls,
    http: () => ctx.loaded.config.http,
    knownLabels: () =>
      knownLabels({ rules: ctx.loaded.rules.map((r) => r.rule), accounts: ctx.loaded.accounts }),
    readiness,
    reload,
    ...{ clock, log, metrics },
  };
  const routers = [createApiRouter(deps), createLoginRoute(deps), createPageActions(deps)];
  return (req, res) => routers.some((handle) => handle(req, res));
}

/** GET /quarantine: the records the daemon could not read, oldest first, as `quarantine ls --json` shows them. */
function quarantineView(quarantine: Quarantine): () => unknown {
  return () => ({ total: quarantine.count(), records: quarantine.list(1000) });
}

// Stop claiming progress: polling stops at once; what is pending is delivered within the shutdown grace (the
// open database is intact, only unreachable by the next start), then the state is copied back or the
// undelivered alerts are named, and the caller exits non-zero so that the orchestrator restarts the daemon.
async function stateLost(ctx: AppContext, reason: string): Promise<void> {
  ctx.watcher?.watcher.close();
  const current = ctx.runtime;
  ctx.runtime = undefined;
  await current?.stop(ctx.loaded.config.daemon.shutdown_grace);
  const outcome = await rescueState(ctx.shared.store, ctx.shared.outbox, ctx.shared.log);
  ctx.fail(new Error(`the state store was lost: ${reason}; polling stopped; ${outcome}`));
}

export async function stopApp(ctx: AppContext, graceMs?: number): Promise<void> {
  ctx.watcher?.watcher.close();
  ctx.resolution.close();
  ctx.guard?.close();
  await ctx.lost;
  await ctx.reloading.catch(() => undefined);
  await ctx.runtime?.stop(graceMs ?? ctx.loaded.config.daemon.shutdown_grace);
  ctx.runtime = undefined;
  ctx.sampler?.stop();
  await ctx.http?.close();
  if (ctx.open) await ctx.shared.store.close();
  ctx.open = false;
  ctx.shared.log[ctx.options.ha?.refresh ? 'debug' : 'info']('stopped');
}
