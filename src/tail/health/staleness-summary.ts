// Staleness (now − read cursor) over all streams. With 10,000 accounts one gauge series per account is too
// many for Prometheus, so only the `top` stalest streams are exported; the summary covers all of them.
import type { TailMetrics } from '../tail-metrics.js';

export interface StalenessSummary {
  readonly streams: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface StreamStaleness {
  readonly account: string;
  readonly source: string;
  /** Seconds. */
  readonly seconds: number;
}

export function summarizeStaleness(
  values: readonly StreamStaleness[],
  metrics: TailMetrics | undefined,
  top: number,
): StalenessSummary {
  const sorted = [...values].sort((a, b) => b.seconds - a.seconds);
  if (metrics) {
    metrics.staleness.reset();
    for (const v of sorted.slice(0, top))
      metrics.staleness.set({ account: v.account, source: v.source }, v.seconds);
  }
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((1 - q) * sorted.length))]?.seconds ?? 0;
  const summary = { streams: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[0]?.seconds ?? 0 };
  metrics?.stalenessP99.set(summary.p99);
  metrics?.stalenessMax.set(summary.max);
  return summary;
}
