// How far behind each stream's read cursor is, and the summary (metrics) of it.
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import {
  type StalenessSummary,
  type StreamStaleness,
  summarizeStaleness,
} from '../health/staleness-summary.js';
import { GLOBAL_STREAM } from '../streams/kinds/global-transactions/global-transactions.js';
import type { TailerState } from './tailer-state.js';

/** now − read cursor of every stream, computed on each call from the in-memory cursors: O(streams). */
export function streamStaleness(t: TailerState): StreamStaleness[] {
  const now = timestampFromMillis(t.clock());
  const global = t.current === 'global' ? t.ctx.state.cursor(GLOBAL_STREAM) : undefined;
  return t.streams.map((s) => {
    const own = t.ctx.state.cursor(s.key)?.read ?? 0n;
    const read = global && s.coveredByGlobal && global.read > own ? global.read : own;
    // A cursor within the clock skew ahead of now is as fresh as can be, not negatively stale.
    return { account: s.account.id, source: s.kind.name, seconds: read > now ? 0 : Number(now - read) / 1e9 };
  });
}

/** The staleness summary, with its metrics set. */
export function staleness(t: TailerState): StalenessSummary {
  return summarizeStaleness(streamStaleness(t), t.metrics, t.stalenessTop);
}
