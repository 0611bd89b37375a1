// The tail's metrics: accounts resolved, polls and pages, the streams' freshness, the request budget's capacity.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { PREFIX as P } from './prefix.js';

/** Watched accounts configured by EVM address or alias. */
export function accountMetrics(r: Registry[]) {
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
export function tailMetrics(r: Registry[]) {
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
export function freshnessMetrics(r: Registry[]) {
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

/** The global tail's request economy and its capacity against the request budget (docs/tailing.md). */
export function capacityMetrics(r: Registry[]) {
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
