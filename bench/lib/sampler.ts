// Samples a daemon child while it runs: its RSS from /proc, and a few gauges from its /metrics.
import { metricsText, rssMiB } from './daemon-process.js';

export interface Sample {
  readonly at: number;
  readonly rssMiB: number;
  /** V8 heap in use and committed, from the daemon's own process metrics (NaN when /metrics did not answer). */
  readonly heapUsedMiB: number;
  readonly heapTotalMiB: number;
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
    heapUsedMiB: mib(gaugeValues(text, 'ledger_sentinel_nodejs_heap_size_used_bytes')[0]),
    heapTotalMiB: mib(gaugeValues(text, 'ledger_sentinel_nodejs_heap_size_total_bytes')[0]),
    maxStalenessS: staleness.length ? Math.max(...staleness) : NaN,
    lagS: gaugeValues(text, 'ledger_sentinel_query_service_lag_seconds')[0] ?? NaN,
    recordsProcessed: sum(gaugeValues(text, 'ledger_sentinel_records_processed_total')),
    outboxDepth: sum(gaugeValues(text, 'ledger_sentinel_outbox_depth')),
    notifications: sum(gaugeValues(text, 'ledger_sentinel_notifications_total')),
  };
}

function mib(bytes: number | undefined): number {
  return bytes === undefined ? NaN : Math.round((bytes / 1_048_576) * 10) / 10;
}

/**
 * RSS growth over the second half of the run, in MiB: the least-squares slope of RSS against time over the samples
 * of the second half, times that half's duration. A fit, not last − first, so one GC sawtooth at either end does
 * not decide it; a steady climb shows in full.
 */
export function secondHalfGrowth(samples: readonly Sample[]): number {
  const half = samples.slice(Math.floor(samples.length / 2));
  if (half.length < 3) return NaN;
  const t0 = (half[0] as Sample).at;
  const xs = half.map((s) => (s.at - t0) / 1000);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = half.reduce((a, s) => a + s.rssMiB, 0) / half.length;
  let sxy = 0;
  let sxx = 0;
  half.forEach((s, i) => {
    const dx = (xs[i] as number) - mx;
    sxy += dx * (s.rssMiB - my);
    sxx += dx * dx;
  });
  return sxx === 0 ? NaN : (sxy / sxx) * ((xs.at(-1) as number) - (xs[0] as number));
}

/**
 * The lowest V8 heap in use among the samples of the third and of the last quarter of the run, in MiB: close to
 * the live set (each quarter spans several major GCs), so it tells a GC sawtooth in RSS from state that grows.
 */
export function liveHeapLateQuarters(samples: readonly Sample[]): [number, number] {
  const q = Math.floor(samples.length / 4);
  const low = (list: readonly Sample[]) =>
    Math.min(...list.map((s) => s.heapUsedMiB).filter((v) => !Number.isNaN(v)));
  return [low(samples.slice(2 * q, 3 * q)), low(samples.slice(3 * q))];
}
