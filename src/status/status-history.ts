// What the status page's charts draw: a bounded in-memory ring of samples of the daemon's figures (query service
// lag, stream staleness, outbox depth), taken on a timer by the composition root. Lost on restart (the page's
// charts start empty and fill within minutes); Prometheus keeps the long history.
export interface HistorySample {
  /** ms since epoch. */
  readonly at: number;
  /** Now minus the newest consensus timestamp the query service showed, seconds. */
  readonly lagSeconds?: number;
  /** The stalest stream's staleness and the p99 over every stream, seconds. */
  readonly staleMax?: number;
  readonly staleP99?: number;
  /** Undelivered deliveries over every notifier. */
  readonly outbox: number;
}

/** Alerts fired (firing transitions, reminders left out) in one hour, by severity. */
export interface HourCount {
  /** Start of the hour, ms since epoch. */
  readonly hour: number;
  readonly critical: number;
  readonly warning: number;
  readonly info: number;
}

export interface StatusHistory {
  record(sample: HistorySample): void;
  /** Samples taken at or after `since`, oldest first. */
  since(since: number): HistorySample[];
}

/** An hour at one sample every 15 s, with room to spare. */
export const HISTORY_SAMPLES = 300;

export function createStatusHistory(capacity = HISTORY_SAMPLES): StatusHistory {
  const ring: HistorySample[] = [];
  let next = 0;
  return {
    record(sample) {
      if (ring.length < capacity) ring.push(sample);
      else ring[next] = sample;
      next = (next + 1) % capacity;
    },
    since(since) {
      const ordered = ring.length < capacity ? ring : [...ring.slice(next), ...ring.slice(0, next)];
      return ordered.filter((s) => s.at >= since);
    },
  };
}
