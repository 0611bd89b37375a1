// Every metric of ledger-sentinel, composed here from one file per room (metrics/<room>-metrics.ts; docs/metrics.md
// lists them). Built on an injected registry and passed to the modules that record into it; nothing here is a
// module-level singleton.
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import { PREFIX as P } from './metrics/prefix.js';
import { daemonMetrics, reloadMetrics } from './metrics/daemon-metrics.js';
import { ledgerMetrics } from './metrics/ledger-metrics.js';
import { accountMetrics, capacityMetrics, freshnessMetrics, tailMetrics } from './metrics/tail-metrics.js';
import { ruleMetrics } from './metrics/rule-metrics.js';
import { deliveryMetrics } from './metrics/delivery-metrics.js';
import { apiMetrics } from './metrics/api-metrics.js';
import { leadershipMetrics, replicationMetrics } from './metrics/state-metrics.js';

export const LEDGER_ENDPOINTS = ['transactions', 'rewards', 'actions', 'verify'] as const;

export interface MetricsOptions {
  readonly registry?: Registry;
  /** Process and Node.js metrics (CPU, memory, event loop); off in unit tests to keep them fast. */
  readonly processMetrics?: boolean;
  readonly version?: string;
}

/**
 * prom-client's process and Node.js metrics, less three gauges named like counters (`nodejs_active_handles_total`,
 * `_requests_total`, `_resources_total`: promtool check metrics fails on a non-counter `_total`). Each is the sum
 * of the gauge of the same name without `_total`, by `type`, which stays: `sum(ledger_sentinel_nodejs_active_handles)`.
 */
function processMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry, prefix: P });
  for (const metric of registry.getMetricsAsArray()) {
    const { name } = metric as unknown as { name: string };
    if (name.endsWith('_total') && !(metric instanceof Counter)) registry.removeSingleMetric(name);
  }
}

// The catalogue is split by area (the functions below, in the order a record flows); createMetrics composes them
// into the one Metrics object and pre-creates the label sets that must exist at zero.
export function createMetrics(options: MetricsOptions = {}) {
  const registry = options.registry ?? new Registry();
  if (options.processMetrics) processMetrics(registry);
  const r = [registry];
  const metrics = {
    registry,
    ...daemonMetrics(r),
    ...ledgerMetrics(r),
    ...accountMetrics(r),
    ...tailMetrics(r),
    ...freshnessMetrics(r),
    ...ruleMetrics(r),
    ...deliveryMetrics(r),
    ...apiMetrics(r),
    ...reloadMetrics(r),
    ...capacityMetrics(r),
    ...replicationMetrics(r),
    ...leadershipMetrics(r),
  };
  metrics.buildInfo.set({ version: options.version ?? '0.0.0', node: process.version }, 1);
  for (const strategy of ['per-account', 'global']) metrics.tailStrategy.set({ strategy }, 0);
  for (const stream of ['transactions', 'rewards', 'global']) metrics.pollFailures.inc({ stream }, 0);
  for (const reason of ['pages', 'time']) metrics.pollTruncated.inc({ reason }, 0);
  for (const reason of ['timeout', 'deadline', 'reset'])
    metrics.requestErrors.inc({ endpoint: 'transactions', reason }, 0);
  for (const source of ['transactions', 'rewards']) metrics.quarantined.inc({ source }, 0);
  for (const source of ['transactions', 'rewards']) metrics.recordsUnattributed.inc({ source }, 0);
  for (const outcome of ['resolved', 'not_found', 'failed']) metrics.accountResolutions.inc({ outcome }, 0);
  for (const source of ['transactions', 'rewards']) metrics.futureRecords.inc({ source }, 0);
  for (const state of ['active', 'pending', 'expired']) metrics.silences.set({ state }, 0);
  for (const reason of ['silence', 'inhibited', 'ack']) metrics.alertsSilenced.inc({ reason }, 0);
  for (const outcome of ['sent', 'acked']) metrics.escalations.inc({ outcome }, 0);
  for (const outcome of ['applied', 'rejected']) metrics.configReloads.inc({ outcome }, 0);
  for (const reason of ['unrelated_file', 'same_content']) metrics.configReloadNoops.inc({ reason }, 0);
  for (const read of ['head', 'sweep']) metrics.globalPages.inc({ read }, 0);
  for (const direction of ['forward', 'backward']) metrics.clockSteps.inc({ direction }, 0);
  for (const reason of ['not_found', 'refused', 'error']) metrics.tokenFactsFailures.inc({ reason }, 0);
  metrics.leaderChanges.inc(0);
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Drops the per-rule series (matches, alerts) of rules that are no longer loaded, so after a reload that removes
 * a rule its series stop being exported instead of lingering until a restart. Returns how many were dropped.
 */
export async function forgetRemovedRules(
  metrics: Pick<Metrics, 'ruleMatches' | 'alerts'>,
  loaded: ReadonlySet<string>,
): Promise<number> {
  let dropped = 0;
  for (const counter of [metrics.ruleMatches, metrics.alerts] as Counter<string>[])
    for (const { labels } of (await counter.get()).values)
      if (typeof labels.rule === 'string' && !loaded.has(labels.rule)) {
        counter.remove(labels);
        dropped++;
      }
  return dropped;
}
