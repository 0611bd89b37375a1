// The status page's chart data (status/status-history.ts): a sample of lag, staleness and outbox depth every
// 15 s (and on a page view when the last one is older than 5 s, so a fresh daemon's charts fill at once), and
// the alerts fired per hour, counted from the outbox (durable: the 24-hour chart survives a restart).
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import type { StateStore } from '../state/store.js';
import { summarizeStaleness } from '../tail/health/staleness-summary.js';
import type { HistorySample, HourCount, StatusHistory } from './status-history.js';
import type { Outbox } from '../delivery/outbox.js';
import type { Tailer } from '../tail/tailer-types.js';

const INTERVAL_MS = 15_000;
const ON_VIEW_AFTER_MS = 5_000;
const HOUR = 3_600_000;

/** What the sampler reads of the daemon (the app's Shared and Runtime are these). */
interface Sampled {
  readonly clock: () => number;
  readonly outbox: Pick<Outbox, 'depth'>;
}
type Runtime = { readonly tailer: Pick<Tailer, 'head' | 'streamStaleness'> };

export interface StatusSampler {
  readonly history: StatusHistory;
  /** Samples now when the last sample is older than 5 s (a page view). */
  fresh(): void;
  stop(): void;
}

export function startStatusSampler(options: {
  readonly shared: Sampled;
  readonly runtime: () => Runtime | undefined;
  readonly history: StatusHistory;
}): StatusSampler {
  const { shared, history } = options;
  let last = -Infinity;
  const take = () => {
    last = shared.clock();
    history.record(sample(shared, options.runtime(), last));
  };
  take();
  const timer = setInterval(take, INTERVAL_MS);
  timer.unref();
  return {
    history,
    fresh: () => void (shared.clock() - last >= ON_VIEW_AFTER_MS && take()),
    stop: () => clearInterval(timer),
  };
}

function sample(shared: Sampled, runtime: Runtime | undefined, now: number): HistorySample {
  const tailer = runtime?.tailer;
  const head = tailer?.head.head;
  const streams = tailer?.streamStaleness() ?? [];
  const summary = streams.length > 0 ? summarizeStaleness(streams, undefined, 0) : undefined;
  let outbox = 0;
  for (const n of shared.outbox.depth().values()) outbox += n;
  return {
    at: now,
    ...(head !== undefined ? { lagSeconds: Number(timestampFromMillis(now) - head) / 1e9 } : {}),
    ...(summary ? { staleMax: summary.max, staleP99: summary.p99 } : {}),
    outbox,
  };
}

/** Firing transitions (reminders left out) enqueued per hour and severity over the last 24 hours. */
export function alertsPerHour(store: StateStore): (now: number) => HourCount[] {
  const query = store.db.prepare<[number], { hour: number; severity: string; n: number }>(
    `SELECT created_at / ${HOUR} AS hour, json_extract(alert_json, '$.severity') AS severity, count(*) AS n
     FROM outbox_alert WHERE created_at >= ? AND json_extract(alert_json, '$.status') = 'firing'
     AND id NOT LIKE '%|repeat-%' GROUP BY hour, severity`,
  );
  return (now) => {
    const hours = new Map<number, { critical: number; warning: number; info: number }>();
    for (const row of query.all(Math.floor(now / HOUR) * HOUR - 23 * HOUR)) {
      const counts = hours.get(row.hour) ?? { critical: 0, warning: 0, info: 0 };
      if (row.severity === 'critical' || row.severity === 'warning' || row.severity === 'info')
        counts[row.severity] += row.n;
      hours.set(row.hour, counts);
    }
    return [...hours].map(([hour, c]) => ({ hour: hour * HOUR, ...c }));
  };
}
