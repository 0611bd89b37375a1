// The tailer's first round: probe the head, repair and create the cursors, pick the strategy.
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { startPosition } from '../tail-config.js';
import { ensureCursors } from '../strategy/strategy-cursors.js';
import { probeHead, recentFrom } from '../poll/probe-head.js';
import { repairCursors } from '../cursor/repair-cursors.js';
import { GLOBAL_STREAM } from '../streams/kinds/global-transactions/global-transactions.js';
import { cheapestStrategy, switchStrategy } from './switch-strategy.js';
import type { Cursor } from '../cursor/cursor-store.js';
import type { TailerState } from './tailer-state.js';

/** Resolves with the pages the head probe read, or undefined when it did not probe. */
export async function startTail(t: TailerState, signal: AbortSignal): Promise<number | undefined> {
  const { config, ctx } = t;
  const position = startPosition(config);
  const probe = position === 'now' || config.strategy === 'auto';
  const nowNs = timestampFromMillis(t.clock());
  const pages = probe ? await probeHead(ctx, signal, nowNs) : undefined;
  // A cursor left beyond the bound (by a version without it, or a bad clock) restarts from the head.
  const repairTo = probe ? startCursor(t, 'now', nowNs) : { safe: nowNs, read: nowNs };
  repairCursors(ctx.state, ctx.future.bound(), repairTo, t.log);
  ensureCursors(ctx.state, t.streams, startCursor(t, position, nowNs));
  const resumedGlobal = ctx.state.cursor(GLOBAL_STREAM) !== undefined;
  switchStrategy(
    t,
    config.strategy === 'auto' ? (resumedGlobal ? 'global' : cheapestStrategy(t)) : config.strategy,
  );
  return pages;
}

function startCursor(t: TailerState, position: bigint | 'now', nowNs: bigint): Cursor {
  if (position !== 'now') return { safe: position, read: position };
  const head = t.ctx.head.head;
  if (head !== undefined) return { safe: head, read: head };
  // No visible row: the service showed nothing after recentFrom(now), so whatever shows up later is new
  // and is read; for staleness the streams are read through now.
  return { safe: recentFrom(nowNs), read: nowNs };
}
