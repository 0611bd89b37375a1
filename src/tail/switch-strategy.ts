// Choosing and switching the tail strategy: per-account polls or the global tail.
import { startGlobal, stopGlobal } from './cursors.js';
import { type Strategy, chooseStrategy, estimateCosts } from './strategy.js';
import type { TailerState } from './tailer-state.js';

/** Moves the cursors to `next` and says so (log line, metric); nothing when it is the strategy in use. */
export function switchStrategy(t: TailerState, next: Strategy): void {
  if (next === t.current) return;
  if (next === 'global') startGlobal(t.ctx.state, t.streams);
  else stopGlobal(t.ctx.state, t.streams);
  if (t.current !== undefined) t.log?.info({ from: t.current, to: next }, 'tail strategy changed');
  t.current = next;
  t.metrics?.tailStrategy.set({ strategy: next }, 1);
  t.metrics?.tailStrategy.set({ strategy: next === 'global' ? 'per-account' : 'global' }, 0);
}

/** The strategy that costs fewer requests at the head's current rate (with hysteresis from the one in use). */
export function cheapestStrategy(t: TailerState): Strategy {
  return chooseStrategy(
    t.current,
    estimateCosts({
      coveredStreams: t.index.transactions.size + t.index.rewards.size,
      tps: t.ctx.head.tps,
      pollIntervalMs: t.config.poll_interval,
      globalMode: t.config.global_mode,
      sweepIntervalMs: t.config.sweep_interval,
      pageLimit: t.ctx.pageLimit,
    }),
  );
}
