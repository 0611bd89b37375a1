// One round of the tailer: a poll of every stream that is not backing off and has no poll in flight.
import { getMaxListeners, setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { linkSignal } from '../../ledger/linked-signal.js';
import { waitForAbort } from '../../ledger/wait-for-abort.js';
import { pollAccountStream } from '../per-account/poll-account-stream.js';
import { type PollResult } from '../poll/poll-result.js';
import { probeHead } from '../poll/probe-head.js';
import { startTail } from './start-tail.js';
import type { Strategy } from '../strategy/strategy-cost.js';
import { type AccountStream } from '../streams/stream-kind.js';
import { GLOBAL_STREAM, GLOBAL_SWEEP } from '../streams/kinds/global-transactions/global-transactions.js';
import { staleness } from './stream-staleness.js';
import { cheapestStrategy, costInputs, coveredStreams, switchStrategy } from './switch-strategy.js';
import type { RoundReport } from '../tailer-types.js';
import type { TailerState } from './tailer-state.js';

export async function tailRound(t: TailerState, outer: AbortSignal): Promise<RoundReport> {
  // The round's own signal, linked to the caller's (ledger/linked-signal.ts says why not AbortSignal.any) until the
  // round has ended and every poll it launched has settled: a poll may outlive its round, and a stop still
  // reaches it.
  const link = linkSignal([outer]);
  // Each in-flight request listens on the signal; more than Node's default 10 is expected here. The caller's
  // signal holds one listener per round whose polls are still running (a few stuck streams, until their hard stop).
  const listeners = t.config.concurrency * 4 + 10;
  setMaxListeners(listeners, link.signal);
  if (getMaxListeners(outer) < listeners) setMaxListeners(listeners, outer);
  const launched: Promise<void>[] = [];
  try {
    return await roundUnder(t, link.signal, launched);
  } finally {
    void Promise.allSettled(launched).then(link.dispose);
  }
}

async function roundUnder(
  t: TailerState,
  signal: AbortSignal,
  launched: Promise<void>[],
): Promise<RoundReport> {
  const { config, ctx, polls } = t;
  let probed: number | undefined;
  if (t.current === undefined) probed = await startTail(t, signal);
  else if (config.strategy === 'auto' && t.rounds % config.reevaluate_rounds === 0) {
    const next = cheapestStrategy(t);
    // A switch moves cursors, so never under a poll: the polls in flight are stopped (each keeps the pages
    // it handed over) and the switch waits for them to settle.
    if (next !== t.current) {
      await polls.stopAll('tail strategy switch');
      switchStrategy(t, next);
    }
  }
  t.rounds += 1;
  const strategy = t.current ?? 'per-account';
  let pages = probed ?? 0;
  // Per-account polls and the settled global read both settle against a fresh head; the immediate global
  // read finds the head itself.
  const probes = strategy === 'per-account' || config.global_mode === 'settled';
  if (probes && probed === undefined) pages += await probeHead(ctx, signal, timestampFromMillis(t.clock()));
  const jobs = pollJobs(t, strategy);
  const busy = new Set(jobs.filter((job) => polls.busy(job.key)).map((job) => job.key));
  for (const job of jobs) if (!busy.has(job.key)) launched.push(polls.launch(job.key, job.poll, signal));
  const open = { value: true };
  const overran = jobs.find((job) => job.key === GLOBAL_STREAM && busy.has(job.key));
  if (overran) launched.push(relaunchWhenDone(t, overran, signal, open));
  await settledOrPatience(launched, config.poll_interval, signal);
  open.value = false;
  if (signal.aborted) await polls.settled();
  signal.throwIfAborted();
  if (ctx.head.head !== undefined)
    t.metrics?.lag.set(Number(timestampFromMillis(t.clock()) - ctx.head.head) / 1e9);
  staleness(t);
  t.capacity.update({
    ...costInputs(t),
    strategy,
    uncoveredStreams: t.streams.length - coveredStreams(t),
  });
  const report = polls.takeTally();
  return { strategy, ...report, pages: report.pages + pages };
}

/** Waits for the round's polls, but never longer than one poll_interval: a stuck stream holds up no other. */
async function settledOrPatience(
  launched: Promise<void>[],
  patienceMs: number,
  signal: AbortSignal,
): Promise<void> {
  const stop = new AbortController();
  const patience = delay(patienceMs, undefined, { signal: stop.signal, ref: false });
  try {
    await Promise.race([Promise.all(launched), patience, waitForAbort(signal)]);
  } finally {
    stop.abort();
    await patience.catch(() => undefined);
  }
}

/**
 * A head read still running from an earlier round (it overran poll_interval) is polled again as soon as it ends,
 * while this round still waits: otherwise the next head read would wait for the next round, up to one more
 * poll_interval of staleness for every record it brings.
 */
async function relaunchWhenDone(t: TailerState, job: PollJob, signal: AbortSignal, open: { value: boolean }) {
  await t.polls.done(job.key);
  if (!open.value || signal.aborted || t.polls.busy(job.key) || !t.backoff.ready(job.key, t.monotonic()))
    return;
  await t.polls.launch(job.key, job.poll, signal);
}

interface PollJob {
  readonly key: string;
  readonly poll: (signal: AbortSignal) => Promise<PollResult>;
}

function pollJobs(t: TailerState, strategy: Strategy): PollJob[] {
  const now = t.monotonic();
  const perAccount = t.streams
    .filter((s) => (strategy === 'per-account' || !s.coveredByGlobal) && t.backoff.ready(s.key, now))
    .sort((a, b) => byPriorityThenStaleness(t, a, b))
    .map((s) => ({ key: s.key, poll: (signal: AbortSignal) => pollAccountStream(t.ctx, s, signal) }));
  if (strategy === 'per-account' || !t.backoff.ready(GLOBAL_STREAM, now)) return perAccount;
  const global: PollJob[] = [{ key: GLOBAL_STREAM, poll: (signal) => t.globalTail.poll(signal) }];
  // The sweep is a job of its own (global/global-tail.ts): while it runs, later rounds still launch head reads.
  if (t.globalTail.sweepDue() && t.backoff.ready(GLOBAL_SWEEP, now))
    global.push({ key: GLOBAL_SWEEP, poll: (signal) => t.globalTail.sweep(signal) });
  return [...global, ...perAccount];
}

function byPriorityThenStaleness(t: TailerState, a: AccountStream, b: AccountStream): number {
  if (a.account.priority !== b.account.priority) return b.account.priority - a.account.priority;
  const ra = t.ctx.state.cursor(a.key)?.read ?? 0n;
  const rb = t.ctx.state.cursor(b.key)?.read ?? 0n;
  return ra < rb ? -1 : ra > rb ? 1 : 0;
}
