// A Prometheus histogram read from the text exposition, and quantiles over the difference of two readings (the
// observations between two scrapes), interpolated linearly inside the bucket as PromQL's histogram_quantile does.

export interface HistogramReading {
  /** Cumulative counts by upper bound, ascending; the last bound is +Inf. */
  readonly buckets: readonly { readonly le: number; readonly count: number }[];
  readonly sum: number;
  readonly count: number;
}

/** The series of `name` without labels other than `le` (an unlabelled histogram). */
export function readHistogram(text: string, name: string): HistogramReading {
  const buckets: { le: number; count: number }[] = [];
  let sum = 0;
  let count = 0;
  for (const line of text.split('\n')) {
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith(`${name}_bucket{`)) {
      const le = /le="([^"]+)"/.exec(line)?.[1];
      if (le !== undefined) buckets.push({ le: le === '+Inf' ? Infinity : Number(le), count: value });
    } else if (line.startsWith(`${name}_sum`)) sum = value;
    else if (line.startsWith(`${name}_count`)) count = value;
  }
  buckets.sort((a, b) => a.le - b.le);
  return { buckets, sum, count };
}

/** The observations made between `from` and `to`. */
export function histogramDelta(from: HistogramReading, to: HistogramReading): HistogramReading {
  return {
    buckets: to.buckets.map((b, i) => ({ le: b.le, count: b.count - (from.buckets[i]?.count ?? 0) })),
    sum: to.sum - from.sum,
    count: to.count - from.count,
  };
}

/** The q-quantile (0..1); NaN without observations; the largest finite bound when it falls in +Inf. */
export function histogramQuantile(h: HistogramReading, q: number): number {
  if (h.count <= 0 || h.buckets.length === 0) return Number.NaN;
  const rank = q * h.count;
  let lower = 0;
  let below = 0;
  for (const b of h.buckets) {
    if (b.count >= rank) {
      if (b.le === Infinity) return lower;
      const inBucket = b.count - below;
      return inBucket > 0 ? lower + ((b.le - lower) * (rank - below)) / inBucket : b.le;
    }
    lower = b.le;
    below = b.count;
  }
  return lower;
}

/** The mean observation, NaN without observations. */
export function histogramMean(h: HistogramReading): number {
  return h.count > 0 ? h.sum / h.count : Number.NaN;
}
