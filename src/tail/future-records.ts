// Records dated beyond now + tail.max_clock_skew: the tailers still hand them to the rules (a record is a record),
// but they move no cursor and no head. Each one is counted and logged once, when its page commits (a re-read
// of the same record is dropped as seen before it gets here), and the newest sighting feeds the
// `sentinel-future-record` self-monitoring alert.
import type { Logger } from 'pino';
import {
  formatTimestamp,
  timestampFromMillis,
  timestampToIso,
  type Timestamp,
} from '@ledger-sentinel/ledger-model/timestamp';
import { futureBound, secondsAhead } from './future-bound.js';
import type { TailRecord } from './record-handler.js';
import type { TailMetrics } from './tail-context.js';

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

export interface FutureRecordsOptions {
  readonly clock: () => number;
  readonly maxClockSkewMs: number;
  readonly metrics?: Pick<TailMetrics, 'futureRecords'>;
  readonly log?: Logger;
  readonly onSighting?: (sighting: FutureSighting) => void;
}

export class FutureRecords {
  private latest: FutureSighting | undefined;

  constructor(private readonly options: FutureRecordsOptions) {}

  /** The newest timestamp trusted to move state, now. */
  bound(): Timestamp {
    return futureBound(this.options.clock(), this.options.maxClockSkewMs);
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
   * read for certain (tail-context.ts), or now when nothing is known. Every later record of the stream is
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
