// Every metric of ledger-sentinel, in one file (docs/architecture.md). Built on an injected registry and passed to
// the modules that record into it; nothing here is a module-level singleton.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const P = 'ledger_sentinel_';
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
  metrics.leaderChanges.inc(0);
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The daemon itself: build, configuration loads, the state store. */
function daemonMetrics(r: Registry[]) {
  return {
    buildInfo: new Gauge({
      name: `${P}build_info`,
      help: 'Build information; always 1.',
      labelNames: ['version', 'node'],
      registers: r,
    }),
    configReloadSuccess: new Gauge({
      name: `${P}config_last_reload_successful`,
      help: '1 if the last configuration (re)load succeeded, else 0.',
      registers: r,
    }),
    configReloadTime: new Gauge({
      name: `${P}config_last_reload_success_timestamp_seconds`,
      help: 'Unix time of the last successful configuration load.',
      registers: r,
    }),
    stateStoreHealthy: new Gauge({
      name: `${P}state_store_healthy`,
      help: '1 while the open state database is the one at state.dir and writable; 0 once it was lost.',
      registers: r,
    }),
  };
}

/** Requests to the query and verification services and what their answers held. */
function ledgerMetrics(r: Registry[]) {
  return {
    requests: new Counter({
      name: `${P}ledger_requests_total`,
      help: 'Requests to the query and verification services by endpoint and HTTP status (status "error" for network failures).',
      labelNames: ['endpoint', 'status'],
      registers: r,
    }),
    requestDuration: new Histogram({
      name: `${P}ledger_request_duration_seconds`,
      help: 'Duration of one HTTP request to the query or verification service.',
      labelNames: ['endpoint'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: r,
    }),
    retries: new Counter({
      name: `${P}ledger_retries_total`,
      help: 'Requests retried after a 429, 5xx, reset or timeout.',
      labelNames: ['endpoint', 'reason'],
      registers: r,
    }),
    budgetWait: new Histogram({
      name: `${P}request_budget_wait_seconds`,
      help: 'Time a request waited for the shared request budget.',
      buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: r,
    }),
    pages: new Counter({
      name: `${P}pages_total`,
      help: 'Result pages read, by endpoint.',
      labelNames: ['endpoint'],
      registers: r,
    }),
    invalidRecords: new Counter({
      name: `${P}invalid_records_total`,
      help: 'Reads of records that failed validation (each re-read counts; the tailers keep each such record once in quarantine).',
      labelNames: ['endpoint'],
      registers: r,
    }),
    requestErrors: new Counter({
      name: `${P}ledger_request_errors_total`,
      help: 'Query-service attempts that got no HTTP answer, by endpoint and reason (timeout: a connect, headers or body-pause timeout; deadline: the attempt outlived ledger.timeouts.total, e.g. a trickled body; reset; aborted; other).',
      labelNames: ['endpoint', 'reason'],
      registers: r,
    }),
    degradedFields: new Counter({
      name: `${P}record_fields_degraded_total`,
      help: 'Fields the daemon does not rely on that had an unexpected shape and were read as unknown (the record was kept), by field.',
      labelNames: ['field'],
      registers: r,
    }),
  };
}

/** Watched accounts configured by EVM address or alias. */
function accountMetrics(r: Registry[]) {
  return {
    accountResolutions: new Counter({
      name: `${P}account_resolutions_total`,
      help: 'Lookups of accounts configured by EVM address or alias, by outcome (resolved, not_found, failed).',
      labelNames: ['outcome'],
      registers: r,
    }),
    accountsUnresolved: new Gauge({
      name: `${P}accounts_unresolved`,
      help: 'Configured accounts (EVM address or alias) whose id is not known yet, so they are not tailed.',
      registers: r,
    }),
  };
}

/** The tailers: records handed over, dropped, quarantined; polls that failed or stopped at their bound. */
function tailMetrics(r: Registry[]) {
  return {
    records: new Counter({
      name: `${P}records_processed_total`,
      help: 'Records handed to the rule engine, by source.',
      labelNames: ['source'],
      registers: r,
    }),
    dedupDrops: new Counter({
      name: `${P}dedup_drops_total`,
      help: 'Records dropped because they were already seen (overlap re-scan).',
      labelNames: ['source'],
      registers: r,
    }),
    recordsUnattributed: new Counter({
      name: `${P}records_unattributed_total`,
      help: "Records on an account's stream that do not involve the account; not evaluated under it.",
      labelNames: ['source'],
      registers: r,
    }),
    headAhead: new Counter({
      name: `${P}tail_head_ahead_total`,
      help: "Rows dated ahead of this host's clock (within tail.max_clock_skew), each once: they move no head and no cursor until the clock has passed them.",
      registers: r,
    }),
    clockSteps: new Counter({
      name: `${P}clock_steps_total`,
      help: 'Jumps of the wall clock against the monotonic clock (more than 2 s between two readings), by direction.',
      labelNames: ['direction'],
      registers: r,
    }),
    futureRecords: new Counter({
      name: `${P}future_records_total`,
      help: 'Records whose consensus timestamp was beyond now + tail.max_clock_skew: evaluated, but they move no cursor and no head.',
      labelNames: ['source'],
      registers: r,
    }),
    quarantined: new Counter({
      name: `${P}records_quarantined_total`,
      help: 'Records that could not be read, kept in quarantine (counted once per record, not per re-read), by source.',
      labelNames: ['source'],
      registers: r,
    }),
    pollFailures: new Counter({
      name: `${P}tail_poll_failures_total`,
      help: 'Polls that failed after the client gave up retrying, by stream kind (transactions, rewards, global); the stream backs off.',
      labelNames: ['stream'],
      registers: r,
    }),
    pollTruncated: new Counter({
      name: `${P}tail_poll_truncated_total`,
      help: 'Polls that stopped at their bound before the end of the listing (reason pages: tail.max_pages_per_poll, time: tail.max_poll_duration); the progress is kept and the next poll resumes.',
      labelNames: ['reason'],
      registers: r,
    }),
  };
}

/** How far behind the tail is: per-stream staleness, the strategy in use, the service lag. */
function freshnessMetrics(r: Registry[]) {
  return {
    staleness: new Gauge({
      name: `${P}account_staleness_seconds`,
      help: 'Per watched account and source: now minus the cursor.',
      labelNames: ['account', 'source'],
      registers: r,
    }),
    tailStrategy: new Gauge({
      name: `${P}tail_strategy`,
      help: 'The tail strategy in use: 1 for the active one (per-account or global), 0 for the other.',
      labelNames: ['strategy'],
      registers: r,
    }),
    stalenessP99: new Gauge({
      name: `${P}tail_staleness_p99_seconds`,
      help: 'p99 over every watched stream of now minus its cursor (account_staleness_seconds holds only the top-N stalest streams).',
      registers: r,
    }),
    stalenessMax: new Gauge({
      name: `${P}tail_staleness_max_seconds`,
      help: 'The largest now minus cursor over every watched stream.',
      registers: r,
    }),
    lag: new Gauge({
      name: `${P}query_service_lag_seconds`,
      help: 'Now minus the newest consensus timestamp seen from the query service.',
      registers: r,
    }),
  };
}

/** The rule engine: matches and alert transitions per rule. */
function ruleMetrics(r: Registry[]) {
  return {
    ruleMatches: new Counter({
      name: `${P}rule_matches_total`,
      help: 'Records that matched a rule condition, by rule.',
      labelNames: ['rule'],
      registers: r,
    }),
    alerts: new Counter({
      name: `${P}alerts_total`,
      help: 'Alert transitions emitted, by rule, severity and status.',
      labelNames: ['rule', 'severity', 'status'],
      registers: r,
    }),
  };
}

/** Delivery: attempts, latency, the outbox, dead letters, resends and what was held back. */
function deliveryMetrics(r: Registry[]) {
  return {
    notifications: new Counter({
      name: `${P}notifications_total`,
      help: 'Notification attempts by notifier, outcome (sent, retry, failed, dead, silenced) and reason.',
      labelNames: ['notifier', 'outcome', 'reason'],
      registers: r,
    }),
    deliveryLatency: new Histogram({
      name: `${P}consensus_to_delivered_seconds`,
      help: 'From the consensus timestamp of the record behind an alert to its delivery.',
      labelNames: ['notifier'],
      buckets: [0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300],
      registers: r,
    }),
    outboxDepth: new Gauge({
      name: `${P}outbox_depth`,
      help: 'Deliveries waiting in the outbox, by notifier.',
      labelNames: ['notifier'],
      registers: r,
    }),
    deadLetters: new Counter({
      name: `${P}dead_letters_total`,
      help: 'Deliveries given up after their deadline and moved to the dead-letter list.',
      labelNames: ['notifier'],
      registers: r,
    }),
    notificationResends: new Counter({
      name: `${P}notification_resends_total`,
      help: 'Firing alerts posted again to Alertmanager to keep them active (not new notifications), by notifier and outcome (sent, failed).',
      labelNames: ['notifier', 'outcome'],
      registers: r,
    }),
    silences: new Gauge({
      name: `${P}silences`,
      help: 'Silences made through the API, by state (active, pending, expired); config-file silences are not counted.',
      labelNames: ['state'],
      registers: r,
    }),
    escalations: new Counter({
      name: `${P}escalations_total`,
      help: 'Escalations of routes (escalate:): sent (enqueued to the escalation receivers) or stopped by an ack before their time.',
      labelNames: ['outcome'],
      registers: r,
    }),
    heartbeats: new Counter({
      name: `${P}heartbeats_total`,
      help: 'Heartbeat pings (heartbeat:) by outcome: ok, fail (the /fail ping of an unhealthy daemon), skipped (unhealthy, no ping), error (the ping failed).',
      labelNames: ['outcome'],
      registers: r,
    }),
    alertsSilenced: new Counter({
      name: `${P}alerts_silenced_total`,
      help: 'Deliveries held back by an API silence, an inhibition rule or an acknowledgement, by reason (silence, inhibited, ack).',
      labelNames: ['reason'],
      registers: r,
    }),
  };
}

/** The HTTP API. */
function apiMetrics(r: Registry[]) {
  return {
    apiRequests: new Counter({
      name: `${P}api_requests_total`,
      help: 'Requests to the /api/v1 and /-/ endpoints, by method and status code.',
      labelNames: ['method', 'code'],
      registers: r,
    }),
  };
}

/** Configuration reloads (in place) and the file events that changed nothing. */
function reloadMetrics(r: Registry[]) {
  return {
    configReloads: new Counter({
      name: `${P}config_reloads_total`,
      help: 'Configuration reloads by outcome: applied (the parts that changed were swapped) or rejected (invalid; the running config stays).',
      labelNames: ['outcome'],
      registers: r,
    }),
    configReloadNoops: new Counter({
      name: `${P}config_reload_noops_total`,
      help: 'File changes that reloaded nothing: unrelated_file (another file in a watched folder), same_content (the files the config reads are unchanged).',
      labelNames: ['reason'],
      registers: r,
    }),
  };
}

/** The global tail's request economy and its capacity against the request budget (docs/tailing.md). */
function capacityMetrics(r: Registry[]) {
  return {
    globalPages: new Counter({
      name: `${P}tail_global_pages_total`,
      help: 'Pages the global tail read, by read (head: the immediate head read; sweep: the late-row sweep or the settled read).',
      labelNames: ['read'],
      registers: r,
    }),
    sweepLateRecords: new Counter({
      name: `${P}tail_sweep_late_records_total`,
      help: 'Records the global sweep handed over in immediate mode that no head read had: rows that showed up late.',
      registers: r,
    }),
    ledgerTps: new Gauge({
      name: `${P}ledger_transactions_per_second`,
      help: 'Ledger-wide transactions per second of consensus time, as the tail observes them.',
      registers: r,
    }),
    tailDemand: new Gauge({
      name: `${P}tail_demand_requests_per_second`,
      help: 'Requests per second the tail needs at the observed ledger rate with the strategy in use (sweeps included).',
      registers: r,
    }),
    tailBudget: new Gauge({
      name: `${P}tail_budget_requests_per_second`,
      help: 'Requests per second the request budget allows (ledger.requests_per_second).',
      registers: r,
    }),
    tailCapacityRatio: new Gauge({
      name: `${P}tail_capacity_ratio`,
      help: 'Tail request demand divided by the request budget; above 1 the tail cannot keep up and staleness grows.',
      registers: r,
    }),
    consensusToEvaluated: new Histogram({
      name: `${P}consensus_to_evaluated_seconds`,
      help: "From the consensus timestamp of a record to the commit of the page that handed it to the rules (the tail's end-to-end staleness, query-service lag included).",
      buckets: [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10, 15, 20, 30, 60, 120, 300],
      registers: r,
    }),
  };
}

/** The PostgreSQL state backend: replication of the working set (docs/architecture.md, "State backends"). */
function replicationMetrics(r: Registry[]) {
  return {
    stateReplicated: new Counter({
      name: `${P}state_replicated_transactions_total`,
      help: 'State transactions replicated to PostgreSQL (backend postgres).',
      registers: r,
    }),
    stateReplicatedRows: new Counter({
      name: `${P}state_replicated_rows_total`,
      help: 'Rows upserted or deleted in PostgreSQL by the replication of the state (backend postgres).',
      registers: r,
    }),
    stateReplicationRetries: new Counter({
      name: `${P}state_replication_retries_total`,
      help: 'Replication attempts to PostgreSQL that failed for a connection reason and were retried.',
      registers: r,
    }),
    stateReplicationPending: new Gauge({
      name: `${P}state_replication_pending`,
      help: 'State transactions committed locally and not yet in PostgreSQL (backend postgres).',
      registers: r,
    }),
  };
}

/** Leadership (ha): this replica's lease, its fencing token and the changes of leader (docs/deployment.md). */
function leadershipMetrics(r: Registry[]) {
  return {
    leader: new Gauge({
      name: `${P}leader`,
      help: '1 while this replica holds the lease and may tail and deliver (always 1 without ha), else 0.',
      registers: r,
    }),
    leaderChanges: new Counter({
      name: `${P}leader_changes_total`,
      help: 'Changes of the lease holder (a new fencing token) seen by this replica, as leader or standby.',
      registers: r,
    }),
    leaderLeaseAge: new Gauge({
      name: `${P}leader_lease_age_seconds`,
      help: 'Seconds since this leader last renewed its lease (by its own clock); 0 on a standby.',
      registers: r,
    }),
    leaderFencingToken: new Gauge({
      name: `${P}leader_fencing_token`,
      help: "The lease's current fencing token as last read by this replica (0 before any leader).",
      registers: r,
    }),
  };
}

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
