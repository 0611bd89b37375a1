// Staleness says nothing about a stream until it has been polled since the query service came back: right after an
// outage (or a start, with cursors as old as the downtime) every stream looks stale, and the ones still backing off
// would fire `sentinel-account-stale` only to resolve on their next poll, seconds later. So, after an outage, a
// stream's staleness alert is held until its read cursor has moved, or until account_stale_after has passed since
// the recovery without it moving (then it is stale by the user's own measure). docs/operations.md, "Self-monitoring".
import type { StreamStaleness } from '../tail/health/staleness-summary.js';

export interface StaleHoldInput {
  readonly now: number;
  /** The query service is down or failing (every request of a round failed), or has not answered yet. */
  readonly outage: boolean;
  readonly streams: readonly StreamStaleness[];
}

export interface StaleHold {
  /** Called once per check, before isHeld. */
  update(input: StaleHoldInput): void;
  isHeld(stream: StreamStaleness): boolean;
}

export function createStaleHold(boundMs: number): StaleHold {
  let outage = true; // a start is a recovery too
  let recoveredAt = 0;
  // Read cursor (ms) of each stream not polled since the recovery, as it was then: bounded by the streams watched.
  const waiting = new Map<string, number>();
  return {
    update({ now, outage: down, streams }) {
      if (down) {
        outage = true;
        waiting.clear();
        return;
      }
      if (outage) {
        outage = false;
        recoveredAt = now;
        for (const s of streams) waiting.set(streamKey(s), readAt(s, now));
      }
      if (now - recoveredAt >= boundMs) waiting.clear();
      if (waiting.size === 0) return;
      // 1 ms of slack: the read time is recomputed from float seconds at each check.
      for (const s of streams)
        if (readAt(s, now) > (waiting.get(streamKey(s)) ?? Infinity) + 1) waiting.delete(streamKey(s));
    },
    isHeld: (stream) => outage || waiting.has(streamKey(stream)),
  };
}

function streamKey(s: StreamStaleness): string {
  return `${s.account}|${s.source}`;
}

/** When the stream's read cursor stands (ms), from its staleness at `now`. */
function readAt(s: StreamStaleness, now: number): number {
  return now - s.seconds * 1000;
}
