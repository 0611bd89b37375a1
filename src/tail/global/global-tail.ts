// The global tail: every transaction of the ledger, matched locally against the watch set by the service's
// account.id union semantics; staking rewards come from each transaction's staking_reward_transfers. Each
// (account, source) keeps its own dedup window, shared with per-account polling, so the strategy can change
// between polls without repeats or gaps.
//
// Two modes (docs/tailing.md, "Race safety"):
// - immediate: every poll reads the head, `gt:<read>`, and hands new rows over at once; at most once per
//   sweep_interval a sweep reads `gt:<safe>&lte:<H − overlap>` (H = the head observed before the sweep),
//   hands over what the head reads missed (rows that became visible late) and moves `safe` there. Each row is
//   read at most twice. The sweep is a poll of its own (GLOBAL_SWEEP, loop/round.ts) with its own walk bound:
//   it starts after the head read in flight and runs beside the next ones, so no head read waits for it.
// - settled: every poll reads only `gt:<safe>&lte:<H − overlap>` (H from the round's head probe) and moves
//   `safe` there. Each row is read once, and handed over `overlap` later than in immediate mode.
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import type { PollResult } from '../poll/poll-result.js';
import type { GlobalIndex } from './global-index.js';
import { type RangeRead, type RangeReader, readRange } from './global-read-range.js';
import { type HandOverLock, createHandOverLock } from './hand-over-lock.js';
import { probeHead } from '../poll/probe-head.js';
import { ProvenRanges } from './proven-ranges.js';
import {
  GLOBAL_STREAM,
  GLOBAL_SWEEP,
  globalTransactions,
} from '../streams/kinds/global-transactions/global-transactions.js';
import { type TailContext } from '../poll/poll-context.js';
import { REPLAYABLE, settledBound } from '../poll/hand-over.js';
import type { Cursor } from '../cursor/cursor-store.js';
import { type WalkBound, createWalkBound, reportTruncated } from '../poll/walk-bound.js';

export type GlobalMode = 'immediate' | 'settled';

export interface GlobalTailOptions {
  readonly mode: GlobalMode;
  /** Immediate mode: least time between the starts of two sweeps, ms. */
  readonly sweepIntervalMs: number;
  /** Milliseconds since the epoch (the tailer's clock): how far `read` is behind now. */
  readonly clock: () => number;
  /** Milliseconds, never going back: schedules sweeps (a wall-clock step neither stops nor floods them). Default: clock. */
  readonly monotonic?: () => number;
}

export interface GlobalTail {
  /** One poll of the global stream (its cursor must exist: startGlobal): the head read, or settled's read. */
  poll(signal: AbortSignal): Promise<PollResult>;
  /** Immediate mode: a sweep is due (sweep_interval has passed, or the last one was cut short). */
  sweepDue(): boolean;
  /** Immediate mode's sweep, once the head read in flight (if any) has ended; nothing if that one fell behind. */
  sweep(signal: AbortSignal): Promise<PollResult>;
}

interface Readers {
  readonly head: RangeReader;
  readonly sweep: RangeReader;
}

export function createGlobalTail(
  ctx: TailContext,
  index: GlobalIndex,
  options: GlobalTailOptions,
): GlobalTail {
  const lock = createHandOverLock();
  const [readers, monotonic] = [readersOf(index, lock), options.monotonic ?? options.clock];
  // In memory on purpose: after a restart the first sweep comes at once, which is always safe.
  let lastSweepMs: number | undefined;
  let sweepCutShort = false;
  // The last head read (the one in flight, if any): a sweep starts after it, so its H is the newest head and it
  // sees its proof. True when it read to the end. Its own outcome, not `caughtUp`: the round may already have
  // launched the next head read when the sweep looks (loop/round.ts polls an overrunning one again at once).
  let lastHead: Promise<boolean> = Promise.resolve(false);
  // Head-read ranges that were complete when read (proven-ranges.ts): the sweep skips them.
  const proven = new ProvenRanges();
  // False after a start, a failed poll or a head read cut short: the head read may face a backlog, and a
  // head probe first (one request) lets it prove the backlog complete, so the sweep need not read it again.
  let caughtUp = false;
  /** A backlog worth a probe: not caught up, and `read` far behind the wall clock (lag alone stays below). */
  const behind = () =>
    !caughtUp &&
    timestampFromMillis(options.clock()) - globalCursor(ctx).read > BACKLOG_PROBE_FACTOR * ctx.overlapNs;
  return {
    poll(signal) {
      const polled = pollOnce(signal, createWalkBound(ctx.walk));
      lastHead = polled.then(readToTheEnd, () => false);
      return polled;
    },
    sweepDue() {
      if (options.mode !== 'immediate') return false;
      return (
        sweepCutShort ||
        lastSweepMs === undefined ||
        !within(monotonic() - lastSweepMs, options.sweepIntervalMs)
      );
    },
    async sweep(signal) {
      // Behind the head, the head read walks the backlog (proving it as it goes); sweeping it too would read
      // every row of it twice at once.
      if (!(await lastHead)) return NOTHING;
      const started = monotonic();
      const bound = createWalkBound(ctx.walk);
      const swept = await sweep(ctx, readers.sweep, proven, signal, bound);
      if (!swept) return NOTHING;
      // A sweep cut short resumes on the next round instead of waiting for sweep_interval.
      sweepCutShort = swept.truncated !== undefined;
      if (swept.truncated) reportTruncated(ctx, GLOBAL_SWEEP, swept.truncated, bound.pages);
      else lastSweepMs = started;
      ctx.metrics?.globalPages.inc({ read: 'sweep' }, swept.pages);
      // What the sweep hands over in this mode, no head read had: rows that showed up late (or, after a
      // restart, rows the head read had not reached). The figure that says whether the sweep earns its pages.
      ctx.metrics?.sweepLateRecords.inc(swept.delivered);
      return swept;
    },
  };

  async function pollOnce(signal: AbortSignal, bound: WalkBound): Promise<PollResult> {
    if (options.mode === 'settled') {
      const read = await sweep(ctx, readers.sweep, proven, signal, bound);
      if (read?.truncated) reportTruncated(ctx, GLOBAL_STREAM, read.truncated, bound.pages);
      ctx.metrics?.globalPages.inc({ read: 'sweep' }, read?.pages ?? 0);
      return read ?? NOTHING;
    }
    const probed = behind() ? await probeHead(ctx, signal, timestampFromMillis(options.clock())) : 0;
    caughtUp = false;
    const read = await readHead(ctx, readers.head, proven, signal, bound);
    caughtUp = !read.truncated;
    if (read.truncated) reportTruncated(ctx, GLOBAL_STREAM, read.truncated, bound.pages);
    const head = { ...read, pages: read.pages + probed };
    ctx.metrics?.globalPages.inc({ read: 'head' }, head.pages);
    return head;
  }
}

/** `elapsed` is less than `ms`; an elapsed time below 0 (a clock that went back) is not. */
function within(elapsed: number, ms: number): boolean {
  return elapsed >= 0 && elapsed < ms;
}

function readersOf(index: GlobalIndex, lock: HandOverLock): Readers {
  return { head: { index, lock, head: true }, sweep: { index, lock, head: false } };
}

const NOTHING: PollResult = { pages: 0, delivered: 0, dropped: 0 };

function readToTheEnd(r: PollResult): boolean {
  return r.truncated === undefined;
}

/**
 * `read` this many overlaps behind now makes a backlog (the service's usual lag is a few seconds, 20 s at
 * worst, docs/ledger-api.md §16): below it, what a probe could save the sweep is less than the probe itself.
 */
const BACKLOG_PROBE_FACTOR = 6n;

function globalCursor(ctx: TailContext): Cursor {
  const cursor = ctx.state.cursor(GLOBAL_STREAM);
  if (!cursor) throw new Error('tail: the global stream has no cursor; call startGlobal first');
  return cursor;
}

/**
 * Immediate mode's head read: every row after `read` (the newest row read so far), handed over at once.
 * It moves only `read`: rows at or below it that were still hidden are the sweep's.
 */
async function readHead(
  ctx: TailContext,
  reader: RangeReader,
  proven: ProvenRanges,
  signal: AbortSignal,
  bound: WalkBound,
): Promise<RangeRead> {
  const from = globalCursor(ctx).read;
  const r = await readRange(ctx, reader, { after: from }, signal, bound);
  proven.add(from, r.provenTo);
  // Every visible row after `read` was read: their count over their span is the ledger's rate.
  if (r.newest > from && !r.truncated) ctx.head.sampleRate(r.rows + 1, from, r.newest);
  // Only `read` is this read's: `safe` is the sweep's, which may have moved it meanwhile (read it now).
  ctx.state.transaction(
    () => ctx.state.advance(GLOBAL_STREAM, { safe: globalCursor(ctx).safe, read: r.newest }),
    REPLAYABLE,
  );
  return r;
}

/**
 * The bounded read both modes share: `gt:<safe>&lte:<bound>` with bound = H − overlap, H the newest row seen
 * before it starts. Every row at or below the bound was visible all along (the skew assumption), so afterwards
 * everything up to it has been handed over: `safe` moves there and the dedup window is pruned. Undefined when
 * there is nothing to read (no head yet, or the bound has not passed `safe`).
 */
async function sweep(
  ctx: TailContext,
  reader: RangeReader,
  proven: ProvenRanges,
  signal: AbortSignal,
  walk: WalkBound,
): Promise<RangeRead | undefined> {
  const from = globalCursor(ctx).safe;
  const bound = settledBound(ctx, ctx.head.head, from, globalTransactions.settlement);
  if (bound <= from) return undefined;
  const gaps = proven.gaps(from, bound);
  const total = { pages: 0, delivered: 0, dropped: 0, rows: 0 };
  let to = bound;
  let truncated: RangeRead['truncated'];
  for (const gap of gaps) {
    const r = await readRange(ctx, reader, gap, signal, walk);
    total.pages += r.pages;
    total.delivered += r.delivered;
    total.dropped += r.dropped;
    total.rows += r.rows;
    if (!r.truncated) continue;
    // Cut short, the sweep read (ascending) every row up to the newest one it handed over: `safe` goes there.
    to = r.newest < gap.upTo ? r.newest : gap.upTo;
    truncated = r.truncated;
    break;
  }
  // Only a read of the whole range counts every row of it.
  if (!truncated && gaps.length === 1 && gaps[0]?.after === from && gaps[0].upTo === bound)
    ctx.head.sampleRate(total.rows + 1, from, bound);
  // Under the hand-over lock: no head-read page is between its dedup check and its commit while `safe` moves
  // and tail_seen is pruned below it. `read` only grows (advance), so a head read's progress is kept.
  await reader.lock.hold(reader.head, signal, () =>
    ctx.state.transaction(() => {
      const moved = ctx.state.advance(GLOBAL_STREAM, { safe: to, read: to });
      ctx.state.pruneCovered(moved.safe);
    }, REPLAYABLE),
  );
  proven.prune(to);
  return { ...total, newest: to, provenTo: to, ...(truncated ? { truncated } : {}) };
}
