// Samples a daemon child while it runs: its RSS from /proc, and a few gauges from its /metrics.
import { metricsText, rssMiB } from './daemon-process.js';

export interface Sample {
  readonly at: number;
  readonly rssMiB: number;
  /** Largest ledger_sentinel_account_staleness_seconds series (the 10 stalest streams are exported). */
  readonly maxStalenessS: number;
  readonly lagS: number;
  readonly recordsProcessed: number;
  readonly outboxDepth: number;
  readonly notifications: number;
}

function gaugeValues(text: string, name: string): number[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

export async function sample(pid: number, httpUrl: string): Promise<Sample> {
  const text = await metricsText(httpUrl).catch(() => '');
  const staleness = gaugeValues(text, 'ledger_sentinel_account_staleness_seconds');
  return {
    at: Date.now(),
    rssMiB: rssMiB(pid),
    maxStalenessS: staleness.length ? Math.max(...staleness) : NaN,
    lagS: gaugeValues(text, 'ledger_sentinel_query_service_lag_seconds')[0] ?? NaN,
    recordsProcessed: sum(gaugeValues(text, 'ledger_sentinel_records_processed_total')),
    outboxDepth: sum(gaugeValues(text, 'ledger_sentinel_outbox_depth')),
    notifications: sum(gaugeValues(text, 'ledger_sentinel_notifications_total')),
  };
}

/** RSS growth over the second half of the samples: last-quarter mean minus second-quarter mean, in MiB. */
export function secondHalfGrowth(samples: readonly Sample[]): number {
  const q = Math.floor(samples.length / 4);
  if (q === 0) return NaN;
  const mean = (list: readonly Sample[]) => list.reduce((n, s) => n + s.rssMiB, 0) / list.length;
  return mean(samples.slice(samples.length - q)) - mean(samples.slice(q, 2 * q));
}
