// Records dated beyond now + tail.max_clock_skew: the tailers still hand them to the rules (a record is a record),
// but they move no cursor and no head. Each one is counted and logged once, when its page commits (a re-read
// of the same record is dropped as seen before it gets here), and the newest sighting feeds the
// `sentinel-future-record` self-monitoring alert.
//
// Rows dated ahead of this host's clock but within the skew are records like any other (handed over with their
// own time), but no more trusted than those: nothing moves state past the daemon's own clock (`settleLimit`). A
// timestamp the service reports can delay settlement, never hasten it. Each such row is counted and logged once
// when a head or cursor would have followed it, and feeds the `sentinel-head-ahead` self-monitoring alert.
import type { Logger } from 'pino';
import {
  formatTimestamp,
  timestampFromMillis,
  timestampToIso,
  type Timestamp,
} from '@ledger-sentinel/ledger-model/timestamp';
import { futureBound, secondsAhead } from './future-bound.js';
import type { TailRecord } from '../streams/record-handler.js';
import type { TailMetrics } from '../tail-metrics.js';

/** The latest record from the future, for self-monitoring. */
export interface FutureSighting {
  /** When it was handed over, ms since the epoch (this host's clock). */
  readonly atMs: number;
  /** How far ahead of the clock its consensus timestamp was, s. */
  readonly seconds: number;
  readonly timestamp: string;
  readonly account: string;
  readonly source: string;
}

/** The newest row dated ahead of this host's clock (within the skew), for self-monitoring. */
export interface AheadSighting {
  /** When it was seen, ms since the epoch (this host's clock). */
  readonly atMs: number;
  /** How far ahead of the clock its consensus timestamp was, ms. */
  readonly aheadMs: number;
  readonly timestamp: string;
}

export interface FutureRecordsOptions {
  readonly clock: () => number;
  readonly maxClockSkewMs: number;
  readonly metrics?: Pick<TailMetrics, 'futureRecords' | 'headAhead'>;
  readonly log?: Logger;
  readonly onSighting?: (sighting: FutureSighting) => void;
  readonly onAhead?: (sighting: AheadSighting) => void;
}

export class FutureRecords {
  private latest: FutureSighting | undefined;
  private newestAhead: Timestamp | undefined;
  private latestAhead: AheadSighting | undefined;

  constructor(private readonly options: FutureRecordsOptions) {}

  /** The newest timestamp trusted to move state, now. */
  bound(): Timestamp {
    return futureBound(this.options.clock(), this.options.maxClockSkewMs);
  }

  /**
   * The newest timestamp any cursor or the head may move to: now on this host's clock. Every row at or below
   * head − overlap is settled only once the head is a row this clock has passed.
   */
  settleLimit(): Timestamp {
    return timestampFromMillis(this.options.clock());
  }

  get lastAhead(): AheadSighting | undefined {
    return this.latestAhead;
  }

  /**
   * A row the head or a cursor would have followed, dated ahead of this host's clock: counted, logged and
   * reported once per row (the newest so far), since every poll until the clock passes it sees it again. A row
   * beyond the future bound is reported as a record from the future instead, when it is handed over.
   */
  ahead(ts: Timestamp): void {
    if (ts <= this.settleLimit() || ts > this.bound()) return;
    if (this.newestAhead !== undefined && ts <= this.newestAhead) return;
    this.newestAhead = ts;
    const atMs = this.options.clock();
    const aheadMs = Number((ts - timestampFromMillis(atMs)) / 1_000_000n);
    const sighting: AheadSighting = { atMs, aheadMs, timestamp: formatTimestamp(ts) };
    this.latestAhead = sighting;
    this.options.metrics?.headAhead.inc();
    this.options.log?.warn(
      { ...sighting, iso: isoOrNull(ts), maxClockSkewMs: this.options.maxClockSkewMs },
      'row dated ahead of this host’s clock: it moves no head and no cursor until the clock has passed it ' +
        '(check the query service, or this host’s clock)',
    );
    this.options.onAhead?.(sighting);
  }

  /** The tailer's clock, ms since the epoch. */
  nowMs(): number {
    return this.options.clock();
  }

  get last(): FutureSighting | undefined {
    return this.latest;
  }

  /**
   * A record beyond the bound, with the time rule state takes instead of its own: how far its stream has been
   * read for certain (poll/hand-over.ts, readThrough), or now when nothing is known. Every later record of the stream is
   * newer, so the rule's throttle and windows go on as if the record had come then, not in 2100.
   */
  standIn(item: TailRecord, readThrough: Timestamp | undefined): TailRecord {
    return { ...item, stateTimeNs: readThrough ?? timestampFromMillis(this.options.clock()) };
  }

  /** Called once per committed record; counts, logs and reports it when it is beyond the bound. */
  committed(ts: Timestamp, item: TailRecord): void {
    if (ts <= this.bound()) return;
    const atMs = this.options.clock();
    const sighting: FutureSighting = {
      atMs,
      seconds: secondsAhead(ts, atMs),
      timestamp: formatTimestamp(ts),
      account: item.account.id,
      source: item.source,
    };
    this.latest = sighting;
    this.options.metrics?.futureRecords.inc({ source: item.source });
    this.options.log?.warn(
      { ...sighting, iso: isoOrNull(ts), maxClockSkewMs: this.options.maxClockSkewMs },
      'record from the future: evaluated, but it moves no cursor',
    );
    this.options.onSighting?.(sighting);
  }
}

function isoOrNull(ts: Timestamp): string | null {
  try {
    return timestampToIso(ts);
  } catch {
    return null;
  }
}
